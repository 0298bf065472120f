package spec

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/profile"
)

// The schema's runtimes are the profile table's: each loads, with its
// scrape defaults and VRAM threshold from its entry, and a name not in
// the table is refused with every one of them listed.
func TestSchemaTakesTheRuntimeTable(t *testing.T) {
	for _, p := range profile.Runtimes() {
		metrics := ""
		if p.Runtime == profile.CustomRuntime {
			metrics = `metrics: {requests: "r_total", errors: "e_total"}, `
		}
		if p.Since != "" {
			metrics += fmt.Sprintf("version: %q, ", p.Since)
		}
		if p.Gateway {
			metrics += `dcgm: pod: "engine-.*", `
		}
		src := fmt.Sprintf(`services: s: {runtime: %q, %sselector: {namespace: "ns", job: "j"}, slos: %s}`, p.Runtime, metrics, servedSLO(p))
		res, err := LoadSources(Source{Name: "s.cue", Data: []byte(src)})
		if err != nil {
			t.Errorf("%s: %v", p.Runtime, err)
			continue
		}
		svc := res.Spec.Services[0]
		if svc.Scrape.Runtime.Port != p.Port || svc.Scrape.Runtime.Path != p.Path {
			t.Errorf("%s: scraped at :%d%s, want its entry's :%d%s", p.Runtime, svc.Scrape.Runtime.Port, svc.Scrape.Runtime.Path, p.Port, p.Path)
		}
		if want := map[bool]float64{true: preallocatedVRAMPercent, false: defaultVRAMPercent}[p.Preallocation != ""]; svc.Thresholds.VRAMPercent != want {
			t.Errorf("%s: vram_percent defaults to %v, want %v", p.Runtime, svc.Thresholds.VRAMPercent, want)
		}
	}
	sorted := slices.Sorted(slices.Values(profile.Names()))
	want := fmt.Sprintf(`s.cue:1:24: services.s.runtime: must be one of %s (got "vlm")`, strings.Join(sorted, ", "))
	_, err := LoadSources(Source{Name: "s.cue", Data: []byte(`services: s: {runtime: "vlm", slos: availability: objective: 99}`)})
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("unknown runtime: %v\nwant %s", err, want)
	}
}

// servedSLO is an SLO the runtime can serve: availability, or where it
// counts no failures, its first histogram's kind at one of its bounds;
// none where it serves no kind.
func servedSLO(p profile.Profile) string {
	if p.Availability != nil || p.Runtime == profile.CustomRuntime {
		return "availability: objective: 99"
	}
	for _, k := range model.LatencyKinds {
		if h := p.Histogram(k); h != nil {
			return fmt.Sprintf("%s: {objective: 99, threshold: %q}", k, h.Seconds(h.Buckets[0]))
		}
	}
	return "{}" // a runtime that serves no kind (llama.cpp) declares no SLO
}

// A gateway's spec names no model: its pool gauges carry the pool's
// name, so a model matcher would silence them. The error says so at the
// field, with the group_by that splits SLOs per model instead.
func TestAGatewayNamesNoModel(t *testing.T) {
	for _, runtime := range []string{"gaie", "llm-d-router"} {
		src := fmt.Sprintf(`services: gw: {runtime: %q, model: "llama", dcgm: pod: "engine-.*", slos: availability: objective: 99}`, runtime)
		_, err := LoadSources(Source{Name: "gw.cue", Data: []byte(src)})
		want := fmt.Sprintf(`services.gw.model: runtime %s: an endpoint picker routes every model of its pool`, runtime)
		if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), `group_by: ["target_model_name"]`) {
			t.Errorf("%s with a model: %v\nwant %s", runtime, err, want)
		}
	}
}

// A runtime that serves no SLO kind builds with an empty slos, watched
// by its serving alerts and dashboard; one that serves kinds still needs
// an SLO.
func TestOnlyARuntimeWithoutSLIsMayHaveNoSLO(t *testing.T) {
	res, err := LoadSources(Source{Name: "l.cue", Data: []byte(`services: l: {runtime: "llamacpp", slos: {}}`)})
	if err != nil || len(res.Spec.Services[0].SLOs) != 0 {
		t.Errorf("llamacpp with slos: {}: %v", err)
	}
	_, err = LoadSources(Source{Name: "v.cue", Data: []byte(`services: v: {runtime: "vllm", slos: {}}`)})
	if err == nil || !strings.Contains(err.Error(), "services.v.slos: declare at least one SLO") {
		t.Errorf("vllm with slos: {}: %v, want the SLO required", err)
	}
}

// Every SLO kind of llama.cpp fails, saying there is no histogram or no
// counter to read, and what to write instead.
func TestLlamaCppRefusesEveryKindSayingWhy(t *testing.T) {
	for kind, why := range map[string]string{
		"availability": "llama-server counts no requests and no failures",
		"latency":      "llama-server exports no histogram",
		"ttft":         "llama-server exports no histogram",
		"itl":          "llama-server exports no histogram",
		"tpot":         "llama-server exports no histogram",
		"queue":        "llama-server exports no histogram",
	} {
		threshold := ""
		if kind != "availability" {
			threshold = `, threshold: "1s"`
		}
		src := fmt.Sprintf(`services: l: {runtime: "llamacpp", slos: s: {sli: %q, objective: 99%s}}`, kind, threshold)
		_, err := LoadSources(Source{Name: "l.cue", Data: []byte(src)})
		if err == nil || !strings.Contains(err.Error(), "llamacpp cannot measure "+kind+": "+why) || !strings.Contains(err.Error(), "ratio SLO") {
			t.Errorf("llamacpp %s SLO: %v\nwant %q and what to write instead", kind, err, why)
		}
	}
}

// A gateway's pods run no GPU: its spec points the GPU mapping at the
// pool's engine pods, or its GPU alerts would watch pods without GPUs
// and GPUExporterDown would fire for ever.
func TestAGatewayNamesItsEnginePods(t *testing.T) {
	_, err := LoadSources(Source{Name: "gw.cue", Data: []byte(`services: gw: {runtime: "gaie", slos: availability: objective: 99}`)})
	if err == nil || !strings.Contains(err.Error(), "services.gw.dcgm: runtime gaie is a gateway") || !strings.Contains(err.Error(), "set dcgm.pod") {
		t.Errorf("gateway without dcgm.pod: %v", err)
	}
	if _, err := LoadSources(Source{Name: "gw.cue", Data: []byte(`services: gw: {runtime: "gaie", dcgm: {mapping: "host", hosts: ["gpu-1"]}, slos: availability: objective: 99}`)}); err != nil {
		t.Errorf("gateway under host mapping: %v", err)
	}
}

// behind names a gateway of the same build, and only an engine has one.
func TestBehindNamesAGatewayOfTheBuild(t *testing.T) {
	for src, want := range map[string]string{
		`services: a: {runtime: "vllm", behind: "gw", slos: availability: objective: 99}`:                                                                                                         `services.a.behind: "gw" is no service of this build`,
		`services: a: {runtime: "vllm", behind: "b", slos: availability: objective: 99}, services: b: {runtime: "tgi", slos: availability: objective: 99}`:                                        `services.a.behind: "b" is a tgi service, not a gateway`,
		`services: g: {runtime: "gaie", behind: "h", dcgm: pod: "x-.*", slos: availability: objective: 99}, services: h: {runtime: "gaie", dcgm: pod: "x-.*", slos: availability: objective: 99}`: `services.g.behind: g is a gateway itself`,
	} {
		_, err := LoadSources(Source{Name: "b.cue", Data: []byte(src)})
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v\nwant %s", src, err, want)
		}
	}
}
