package gpualerts

import (
	"fmt"
	"slices"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/dcgm"
	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
	"github.com/slogen-dev/slogen/internal/profile"
)

// memoryRatio records GPUMemoryHigh's input, MemoryRatio over the
// service's GPUs.
func memoryRatio(svc model.Service) rules.Rule {
	return rules.Rule{
		Record: MemoryUsedRatio,
		Expr:   MemoryRatio(svc, func(field string) *parser.VectorSelector { return gpuSelector(svc, field) }),
		Labels: map[string]string{"service": svc.Name},
	}
}

// MemoryRatio is GPUMemoryHigh's formula: VRAM in use over VRAM usable,
// per GPU. field selects a DCGM field of the service's GPUs: the alert's
// selector, or the dashboard's narrowed by its filters, so that the VRAM
// panel draws what the alert reads and the two cannot drift. FB_RESERVED
// (the driver's own reserve) is left out of the denominator: memory the
// application can never get does not bring it closer to an OOM, the
// ratio reaches 1 exactly when FB_FREE reaches 0, and dcgm-exporter
// exports FB_RESERVED only from 4.3 on, so adding it would silence the
// alert on older exporters.
func MemoryRatio(svc model.Service, field func(name string) *parser.VectorSelector) pql.Expr {
	used, free := field(dcgm.FBUsed), field(dcgm.FBFree)
	return pql.Max(pql.Div(used, pql.Add(used, free)), perGPU(svc))
}

func memoryHigh(svc model.Service) (alertDef, *Skip) {
	pct := num(svc.Thresholds.VRAMPercent)
	return alertDef{
		keeps: gpuIdentity(svc), from: dcgm.FBUsed,
		expr:        pql.Gt(recorded(svc, MemoryUsedRatio), ratio(svc.Thresholds.VRAMPercent)),
		summary:     fmt.Sprintf("GPU memory above %s%%", pct),
		title:       text("%s has %s of its memory in use (over %s%%)", gpuName(svc), valuePercent, pct),
		description: text("%s, serving %s, has had more than %s%% of its usable memory in use for %s, %s now; the next large batch or long prompt can run out of memory.", gpuName(svc), svc.Name, pct, genfile.Duration(memoryFor), valuePercent),
	}, nil
}

func kvCacheHigh(svc model.Service) (alertDef, *Skip) {
	m := svc.Metrics.KVCache
	if m.IsZero() {
		why := fmt.Sprintf("runtime %s exports no KV-cache usage", svc.Runtime)
		if svc.Runtime == profile.CustomRuntime {
			why += "; name the 0–1 gauge in metrics.kv_cache"
		}
		return alertDef{}, &Skip{KVCacheHigh, why}
	}
	sel := runtimeSelector(svc, m)
	pct := num(svc.Thresholds.KVCachePercent)
	return alertDef{
		keeps: replicaIdentity, from: m.String(),
		expr:        pql.Gt(pql.Max(sel, pql.By(replicaIdentity...)), ratio(svc.Thresholds.KVCachePercent)),
		summary:     fmt.Sprintf("KV cache above %s%%", pct),
		title:       text("KV cache of %s %s full (over %s%%)", replicaName(svc), valuePercent, pct),
		description: text("On %s of %s, more than %s%% of the KV cache has been in use for %s, %s now: new requests wait or preempt running ones.", replicaName(svc), svc.Name, pct, genfile.Duration(kvCacheFor), valuePercent),
	}, nil
}

func queueBacklog(svc model.Service) (alertDef, *Skip) {
	m := svc.Metrics.Waiting
	if m.IsZero() {
		return alertDef{}, &Skip{QueueBacklog, fmt.Sprintf("runtime %s exports no queue length; name it in metrics.waiting", svc.Runtime)}
	}
	sel := runtimeSelector(svc, m)
	n := num(svc.Thresholds.QueueDepth)
	return alertDef{
		keeps: replicaIdentity, from: m.String(),
		expr:        pql.Gt(pql.Max(sel, pql.By(replicaIdentity...)), pql.Num(svc.Thresholds.QueueDepth)),
		summary:     fmt.Sprintf("more than %s requests queued", n),
		title:       text("%s requests queued on %s (over %s)", valueNumber, replicaName(svc), n),
		description: text("On %s of %s, more than %s requests have been waiting for %s, %s now: it is at capacity.", replicaName(svc), svc.Name, n, genfile.Duration(queueFor), valueNumber),
	}, nil
}

func temperatureHigh(g gpus) alertDef {
	c := num(g.svc.Thresholds.GPUTempCelsius)
	return alertDef{
		keeps: g.id, from: dcgm.GPUTemp,
		expr:        pql.Gt(pql.Max(g.field(dcgm.GPUTemp), g.per()), pql.Num(g.svc.Thresholds.GPUTempCelsius)),
		summary:     fmt.Sprintf("GPU above %s °C", c),
		title:       text("%s at %s °C (over %s °C)", g.name, valueNumber, c),
		description: text("%s%s has been hotter than %s °C for %s, %s °C now; it will throttle its clocks. Check the node's cooling.", g.name, g.serving, c, genfile.Duration(temperatureFor), valueNumber),
	}
}

func utilizationHigh(svc model.Service) (alertDef, *Skip) {
	pct := num(svc.Thresholds.GPUUtilPercent)
	return alertDef{
		expr:        pql.Gt(pql.Avg(gpuSelector(svc, dcgm.GPUUtil)), pql.Num(svc.Thresholds.GPUUtilPercent)),
		summary:     fmt.Sprintf("GPUs above %s%% busy", pct),
		title:       text("GPUs %s%% busy on average (over %s%%)", valueNumber, pct),
		description: text("The GPUs of %s have averaged more than %s%% utilisation for %s, %s%% now: there is no headroom for more traffic. Plan capacity.", svc.Name, pct, genfile.Duration(utilizationFor), valueNumber),
	}, nil
}

// xidErrors fires on a new XID. Since dcgm-exporter PR #309 (2024-05)
// each code is a series of its own, labelled err_code: an XID is new when
// no series of the same GPU (its UUID, whatever pod or exporter instance
// reports it, across scrape gaps) had its code in the hour before the
// last HealthWindow. Older exporters change one series' value: a change
// within HealthWindow is new. dcgm-exporter reports the last XID until
// the driver reloads, so an alert on the value alone would fire until
// then; this one resolves HealthWindow after the XID came, and keeps the
// code as its value and err_code label. The same code twice in a row is
// one XID to it.
func xidErrors(g gpus) alertDef {
	id := append(slices.Clip(g.id), "err_code")
	x := g.field(dcgm.XIDErrors)
	w := genfile.Duration(HealthWindow)
	seen := pql.Call("last_over_time", pql.Offset(pql.Range(x, xidMemory), HealthWindow))
	isNew := pql.Or(pql.Gt(pql.Call("changes", pql.Range(x, HealthWindow)), pql.Num(0)), pql.Unless(x, seen, pql.On("UUID", "err_code")))
	return alertDef{
		keeps: id, from: dcgm.XIDErrors,
		expr:        pql.Max(pql.Spread(pql.Chain(parser.LAND, pql.Match{}, pql.Gt(x, pql.Num(0)), pql.Paren(isNew))), pql.By(id...)),
		summary:     "GPU XID error",
		title:       text("%s reported XID %s", g.name, valueNumber),
		description: text("%s%s reported XID %s in the last %s (the node's kernel log says more). The alert resolves %s after the last one; dcgm-exporter keeps reporting the code until the GPU is reset.", g.name, g.serving, valueNumber, w, w),
	}
}

// oomEvents compares the day's count with N + 0.5: increase()
// extrapolates to the window's edges, so N events can read as slightly
// more than N, but never as N + 1.
func oomEvents(svc model.Service) (alertDef, *Skip) {
	m := svc.Metrics.OOM
	if m.IsZero() {
		return alertDef{}, &Skip{OOMEvents, "DCGM exports no OOM metric and neither does runtime " + svc.Runtime + "; an app that counts its OOMs can name the counter in metrics.oom (runtime custom)"}
	}
	sel := runtimeSelector(svc, m)
	n := svc.Thresholds.OOMPerDay
	return alertDef{
		expr:        pql.Gt(pql.Sum(pql.Increase(sel, 24*time.Hour)), pql.Num(float64(n)+0.5)),
		summary:     fmt.Sprintf("more than %d GPU OOMs in a day", n),
		title:       text("%s GPU OOMs in the last day (over %d)", valueNumber, n),
		description: text("%s ran out of GPU memory %s times in the last 24h, more than %d. Lower the batch size or context length, or give it more memory.", svc.Name, valueNumber, n),
	}, nil
}

// exporterDown fires when dcgm-exporter's scrape fails or the service's
// GPU series are missing, which also catches a pod or host mapping that
// matches nothing. With static targets only the exporters the service
// uses count.
func exporterDown(svc model.Service) (alertDef, *Skip) {
	ms := []*labels.Matcher{pql.Eq("job", svc.DCGM.Job)}
	if ts := svc.Scrape.DCGM.Targets; svc.Scrape.Mode == model.ScrapeStatic && len(ts) > 0 {
		ms = append(ms, pql.OneOf("instance", ts...))
	}
	up := pql.Metric("up", ms...)
	fb := gpuSelector(svc, dcgm.FBUsed)
	servedLately := pql.Group(pql.Call("last_over_time", pql.Range(fb, ExporterMemory)), pql.By("instance"))
	down := pql.Gt(pql.Count(pql.And(pql.EqOp(up, pql.Num(0)), servedLately, pql.On("instance"))), pql.Num(0))
	return alertDef{
		expr:    pql.Chain(parser.LOR, pql.On(), down, pql.Max(pql.Call("absent", fb))),
		summary: "GPU metrics missing",
		description: text("A dcgm-exporter of job %s that served the GPUs of %s in the last %s is down, or none of its series match the service's GPUs: the service's GPU alerts are blind. Check the exporter's pods and the spec's dcgm mapping.",
			svc.DCGM.Job, svc.Name, genfile.Duration(ExporterMemory)),
	}, nil
}
