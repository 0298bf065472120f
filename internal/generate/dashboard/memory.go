package dashboard

import (
	"fmt"
	"time"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/units"

	"github.com/slogen-dev/slogen/internal/dcgm"
	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/pql"
)

// memoryPanels are the VRAM quadrant; the stat goes last, below the
// timeseries.
func memoryPanels(s scope) builders {
	return compact(vram(s), kvCache(s), timeUntilFull(s))
}

// vram plots each GPU's used share of its memory exactly as GPUMemoryHigh
// reads it (gpualerts.MemoryRatio, narrowed by the dashboard's filters),
// against the alert's threshold, and, dashed, where the linear trend puts
// it dcgm.LeakHorizon from now over the same usable memory: a dashed
// line crossing 100 % is memory running out.
func vram(s scope) cog.Builder[dashboard.Panel] {
	h := genfile.Duration(dcgm.LeakHorizon)
	used, free := s.gpu(dcgm.FBUsed), s.gpu(dcgm.FBFree)
	projected := pql.Div(pql.Call("predict_linear", pql.Range(used, dcgm.TrendWindow), pql.Num(dcgm.LeakHorizon.Seconds())), pql.Paren(pql.Add(used, free)))
	p := timeseriesPanel("VRAM used per GPU, and projected "+h+" ahead",
		fmt.Sprintf("DCGM frame buffer used over usable (used + free) per GPU, the formula of the %s alert; its threshold is the dashed line. "+
			"Dashed series: predict_linear over the last %s, %s ahead. VRAM climbing while the other signs stay flat is a leak.",
			gpualerts.MemoryHigh, genfile.Duration(dcgm.TrendWindow), h),
		units.PercentUnit,
		plot(memoryRatio(s), s.gpuLegend("")),
		plot(projected, s.gpuLegend("in "+h)),
	).Min(0).OverrideByQuery(refID(1), dashed())
	return withLines(p, "green", step{s.svc.Thresholds.VRAMPercent / 100, "red"})
}

// timeUntilFull divides each GPU's free memory by the slope of its use,
// the same least-squares slope predict_linear extrapolates. GPUs whose
// use is not growing have no value.
func timeUntilFull(s scope) cog.Builder[dashboard.Panel] {
	return statPanel("Time until VRAM full",
		fmt.Sprintf("Free frame buffer divided by the growth of used memory over the last %s (deriv, the slope predict_linear uses), per GPU. "+
			"Empty when no GPU's memory is growing.", genfile.Duration(dcgm.TrendWindow)),
		units.Seconds,
		plot(pql.Div(s.gpu(dcgm.FBFree), pql.Paren(pql.Gt(pql.Call("deriv", pql.Range(s.gpu(dcgm.FBUsed), dcgm.TrendWindow)), pql.Num(0)))), s.gpuLegend("")),
	).NoValue("not growing").
		Thresholds(thresholds("red", step{dcgm.LeakHorizon.Seconds(), "orange"}, step{(24 * time.Hour).Seconds(), "green"}))
}

// kvCache plots KV-cache use per process against the alert threshold
// and, where the app exports its allocator's memory, the share of what
// the allocator reserved that no tensor uses: the memory inside the
// runtime, one panel, so that a custom app with every metric stays
// within the dashboard's panels.
func kvCache(s scope) cog.Builder[dashboard.Panel] {
	kv, frag := s.svc.Metrics.KVCache, fragmentation(s)
	switch {
	case kv.IsZero() && frag == nil:
		return nil
	case kv.IsZero():
		return timeseriesPanel("Allocator fragmentation", fragmentationText, units.PercentUnit, *frag).Min(0).Max(1)
	}
	title, text := "KV cache usage", "Share of the KV cache (token pool) in use, per process. Near full, the runtime queues or preempts requests."
	qs := []query{plot(pql.Max(s.app(kv), pql.By(s.target())), s.targetLegend(""))}
	if frag != nil {
		title, text = "KV cache usage and allocator fragmentation", text+" "+fragmentationText
		qs = append(qs, *frag)
	}
	p := timeseriesPanel(title, text+" The dashed line is KVCacheHigh's threshold.", units.PercentUnit, qs...).Min(0).Max(1)
	if frag != nil {
		p.OverrideByQuery(refID(1), append(dashed(), noThresholdLine()...))
	}
	return withLines(p, "green", step{s.svc.Thresholds.KVCachePercent / 100, "red"})
}

const fragmentationText = "Allocator fragmentation: memory the allocator reserved but did not allocate, as a share of reserved, per process."

// fragmentation is the share of the allocator's reserved memory not
// allocated to tensors, where the app exports both; nil otherwise.
func fragmentation(s scope) *query {
	m := s.svc.Metrics.Serving
	if m.GPUMemory.IsZero() || m.GPUMemoryReserved.IsZero() {
		return nil
	}
	t := s.target()
	q := plot(pql.Sub(pql.Num(1), pql.Div(sumBy(s.app(m.GPUMemory), t), sumBy(s.app(m.GPUMemoryReserved), t))), s.targetLegend("fragmentation"))
	return &q
}
