package dashboard

import (
	"slices"
	"strings"
	"testing"

	"github.com/grafana/grafana-foundation-sdk/go/dashboard"

	"github.com/slogen-dev/slogen/internal/grafana/grafanatest"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan"
)

func TestEveryPanelHasAUnit(t *testing.T) {
	for _, svc := range services(t, specFiles(t)...) {
		d, _ := build(t, svc.Name)
		for _, p := range grafanatest.Panels(d) {
			if p.Type == "text" {
				continue // queries nothing
			}
			if p.FieldConfig == nil || p.FieldConfig.Defaults.Unit == nil || *p.FieldConfig.Defaults.Unit == "" {
				t.Errorf("%s: panel %q has no unit", svc.Name, grafanatest.Deref(p.Title))
			}
		}
	}
}

// TestLegendsNameGPUOrProcess: a series per GPU names its pod or host and
// its index, a series per process names the process.
func TestLegendsNameGPUOrProcess(t *testing.T) {
	for _, svc := range services(t, specFiles(t)...) {
		s := scope{svc: svc}
		d, _ := build(t, svc.Name)
		for _, p := range grafanatest.Panels(d) {
			for _, tg := range p.Targets {
				q, _ := grafanatest.PromQuery(tg)
				legend := grafanatest.Deref(q.LegendFormat)
				namesGPU := strings.Contains(legend, "{{gpu}}") && strings.Contains(legend, "{{"+s.gpuOwner()+"}}")
				if strings.Contains(q.Expr, "DCGM_") && !namesGPU {
					t.Errorf("%s: panel %q: GPU series legend %q names no GPU and owner", svc.Name, grafanatest.Deref(p.Title), legend)
				}
				if strings.Contains(q.Expr, "by ("+s.target()+")") && !strings.Contains(legend, "{{"+s.target()+"}}") {
					t.Errorf("%s: panel %q: per-%s legend %q does not name it", svc.Name, grafanatest.Deref(p.Title), s.target(), legend)
				}
			}
		}
	}
}

// thresholdValues lists a panel's threshold steps, the field defaults'
// and its overrides'.
func thresholdValues(d dashboard.Dashboard, title string) []float64 {
	var vals []float64
	for _, p := range grafanatest.Panels(d) {
		if grafanatest.Deref(p.Title) != title || p.FieldConfig == nil || p.FieldConfig.Defaults.Thresholds == nil {
			continue
		}
		for _, s := range p.FieldConfig.Defaults.Thresholds.Steps {
			if s.Value != nil {
				vals = append(vals, *s.Value)
			}
		}
	}
	return vals
}

func TestThresholdsComeFromTheSpec(t *testing.T) {
	svc := service(t, "chat-llama")
	if svc.Thresholds != (model.Thresholds{VRAMPercent: 95, KVCachePercent: 95, QueueDepth: 10, GPUTempCelsius: 85, GPUUtilPercent: 95, OOMPerDay: 5, ThrottlePercent: 10, PCIeReplaysPerMinute: 10, PreemptionsPerMinute: 10, QueueSeconds: 5, PrefixCacheHitVsYesterday: 0.5}) {
		t.Fatalf("the example's thresholds are not the spec defaults (vLLM's vram_percent 95): %+v", svc.Thresholds)
	}
	svc.Thresholds = model.Thresholds{VRAMPercent: 80, KVCachePercent: 70, QueueDepth: 3, GPUTempCelsius: 75, GPUUtilPercent: 60}
	d, err := Build(plan.New(svc))
	if err != nil {
		t.Fatal(err)
	}
	for title, want := range map[string]float64{
		"VRAM used per GPU, and projected 4h ahead": 0.8,
		"KV cache usage":                                  0.7,
		"Running and waiting requests":                    3,
		"GPU temperature and power":                       75,
		"GPU utilisation, tensor cores, memory bandwidth": 0.6,
	} {
		if got := thresholdValues(d, title); !slices.Equal(got, []float64{want}) {
			t.Errorf("panel %q thresholds %v, want [%v]", title, got, want)
		}
	}
}

// TestLayout: every panel fits the 24-column grid, none overlaps another,
// and ids are unique.
func TestLayout(t *testing.T) {
	for _, svc := range services(t, specFiles(t)...) {
		d, _ := build(t, svc.Name)
		var boxes []dashboard.GridPos
		ids := map[uint32]bool{}
		for _, p := range d.Panels {
			var pos *dashboard.GridPos
			var id uint32
			if p.Panel != nil {
				pos, id = p.Panel.GridPos, deref32(p.Panel.Id)
			} else {
				pos, id = p.RowPanel.GridPos, p.RowPanel.Id
			}
			if pos.X+pos.W > gridWidth || pos.W == 0 || pos.H == 0 {
				t.Errorf("%s: panel %d at %+v leaves the grid", svc.Name, id, *pos)
			}
			if id == 0 || ids[id] {
				t.Errorf("%s: panel id %d is zero or repeated", svc.Name, id)
			}
			ids[id] = true
			for _, b := range boxes {
				if pos.X < b.X+b.W && b.X < pos.X+pos.W && pos.Y < b.Y+b.H && b.Y < pos.Y+pos.H {
					t.Errorf("%s: panel %d at %+v overlaps %+v", svc.Name, id, *pos, b)
				}
			}
			boxes = append(boxes, *pos)
		}
	}
}

func deref32(p *uint32) uint32 {
	if p == nil {
		return 0
	}
	return *p
}

// TestOptionalPanelsFollowTheMetrics: a panel is there exactly when the
// runtime exports what it needs, or the spec has what it compares with.
func TestOptionalPanelsFollowTheMetrics(t *testing.T) {
	withFragmentation := service(t, "rerank-app")
	withFragmentation.Metrics.GPUMemoryReserved = model.Metric("inference_gpu_memory_reserved_bytes")
	noAvailability := service(t, "chat-llama")
	noAvailability.SLOs = slices.DeleteFunc(slices.Clone(noAvailability.SLOs), func(slo model.SLO) bool { return slo.Kind == model.Availability })
	const errorsCounted, vllmEngine = "Errors the availability SLO counts", "Engine: preemptions and prefix-cache hit ratio"
	const notCounted = "Errors: not counted"
	cases := []struct {
		svc       model.Service
		has, lack []string
	}{
		{service(t, "chat-llama"), []string{"Diagnosis now", "Firing alerts", "KV cache usage", "Token latency", vllmEngine, errorsCounted},
			[]string{"Batch utilisation", "OOM events (24h)", "Allocator fragmentation", "Error ratio by class"}},
		{service(t, "summarize-mistral"), []string{"Batch utilisation", "Token latency", errorsCounted},
			[]string{"KV cache usage", vllmEngine}},
		{service(t, "ranker-triton"), []string{"Request latency", "Running and waiting requests", "KV cache usage"},
			[]string{"Token latency", vllmEngine}},
		{service(t, "qwen-sglang"), []string{"Engine: requests retracted now and prefix-cache hit ratio"}, []string{vllmEngine}},
		{withFragmentation, []string{"OOM events (24h)", "Allocator fragmentation", errorsCounted, "Throughput: requests/s"}, nil},
		{noAvailability, []string{"Error ratio by class"}, []string{errorsCounted}},
		{service(t, "llama-nim"), []string{errorsCounted, "Batch utilisation", "KV cache usage", "Token latency"}, []string{"Error ratio by class", notCounted}},
		{service(t, "internlm-lmdeploy"), []string{"Error ratio by class", "Engine: prefix-cache hit ratio"}, []string{errorsCounted, notCounted}},
		{service(t, "iris-kserve"), []string{notCounted, "Throughput: requests/s"}, []string{errorsCounted, "Error ratio by class", "KV cache usage", "Token latency"}},
	}
	for _, c := range cases {
		d, err := Build(plan.New(c.svc))
		if err != nil {
			t.Fatal(err)
		}
		var titles []string
		for _, p := range grafanatest.Panels(d) {
			titles = append(titles, grafanatest.Deref(p.Title))
		}
		for _, title := range c.has {
			if !slices.Contains(titles, title) {
				t.Errorf("%s lacks panel %q", c.svc.Name, title)
			}
		}
		for _, title := range c.lack {
			if slices.Contains(titles, title) {
				t.Errorf("%s has panel %q, which its runtime cannot fill", c.svc.Name, title)
			}
		}
		if len(d.Panels) > maxPanels {
			t.Errorf("%s has %d panels", c.svc.Name, len(d.Panels))
		}
	}
}

// TestQuadrantsShareTheFirstScreen: under the diagnosis and the firing
// alerts, latency is top left, throughput top right, errors bottom left
// and VRAM bottom right, each quadrant's panels inside its half-width
// block, all within the first 28 grid rows.
func TestQuadrantsShareTheFirstScreen(t *testing.T) {
	half, top := uint32(gridWidth/2), uint32(stripHeight)
	for _, svc := range services(t, specFiles(t)...) {
		p := plan.New(svc)
		s := scope{svc: svc, alerts: p.GPU, runtime: p.Runtime}
		d, _ := build(t, svc.Name)
		blocks := []struct {
			name   string
			panels builders
			x, y   uint32
		}{
			{"latency", latencyPanels(s), 0, top},
			{"throughput", throughputPanels(s), half, top},
			{"errors", errorPanels(s), 0, top + quadrantHeight},
			{"VRAM", memoryPanels(s), half, top + quadrantHeight},
			{"strip", compact(diagnosisNow(s), firingAlerts(s)), 0, 0},
		}
		for _, b := range blocks {
			w, h := half, uint32(quadrantHeight)
			if b.name == "strip" {
				w, h = gridWidth, stripHeight
			}
			if len(b.panels) == 0 {
				t.Errorf("%s: the %s quadrant is empty", svc.Name, b.name)
			}
			for _, p := range b.panels {
				built, err := p.Build()
				if err != nil {
					t.Fatal(err)
				}
				pos := gridPos(d, grafanatest.Deref(built.Title))
				if pos == nil || pos.X < b.x || pos.X+pos.W > b.x+w || pos.Y < b.y || pos.Y+pos.H > b.y+h {
					t.Errorf("%s: %s panel %q at %+v, outside its block at %d,%d", svc.Name, b.name, grafanatest.Deref(built.Title), pos, b.x, b.y)
				}
			}
		}
	}
}

func gridPos(d dashboard.Dashboard, title string) *dashboard.GridPos {
	for _, p := range grafanatest.Panels(d) {
		if grafanatest.Deref(p.Title) == title {
			return p.GridPos
		}
	}
	return nil
}
