package gpualerts

import (
	"strings"
	"time"

	"github.com/slogen-dev/slogen/internal/model"
)

// Alert names, each an entry of the catalog.
const (
	MemoryHigh        = "GPUMemoryHigh"
	KVCacheHigh       = "KVCacheHigh"
	QueueBacklog      = "InferenceQueueBacklog"
	TemperatureHigh   = "GPUTemperatureHigh"
	UtilizationHigh   = "GPUUtilizationHigh"
	XIDErrors         = "GPUXIDErrors"
	OOMEvents         = "GPUOOMEvents"
	ExporterDown      = "GPUExporterDown"
	MemoryLeak        = "GPUMemoryLeak"
	Saturated         = "InferenceSaturated"
	InputErrors       = "InferenceInputErrors"
	MemoryLeakSuspect = "GPUMemoryLeakSuspected"
	Throttled         = "GPUThrottled"
	ECCErrors         = "GPUECCErrors"
	RowRemapFailure   = "GPURowRemapFailure"
	PCIeReplays       = "GPUPCIeReplays"
	NVLinkErrors      = "GPUNVLinkErrors"
	Preemptions       = "InferencePreemptions"
	QueueTimeHigh     = "InferenceQueueTimeHigh"
	EngineStalled     = "InferenceEngineStalled"
	PrefixCacheCold   = "PrefixCacheColdStart"
	// The fatal log lines' (loglines.go).
	CUDAOutOfMemory     = "InferenceCUDAOutOfMemory"
	NCCLTimeout         = "InferenceNCCLTimeout"
	VLLMEngineDead      = "VLLMEngineDead"
	VLLMNoKVCacheMemory = "VLLMNoKVCacheMemory"
	SGLangPrefillOOM    = "SGLangPrefillOutOfMemory"
)

// entry is one alert of the catalog: its name, how long its condition
// must hold, whether it reads dcgm-exporter, write, which makes its
// expression and text for a service or says why the service cannot have
// it, and its row of docs/gpu-alerts.md. The rest follows from the name:
// its runbook is the template templates/runbooks/<name in lower case>.md.tmpl
// and the section rules.RunbookAnchor(name) of every runbook page; its
// severity is a ticket's, a page's where alerting.page_on names it (a
// cause: Causes lists the names for the spec's check); it is in
// DCGMAlerts if it reads dcgm-exporter. internal/generate/gputests tests
// it, with a scenario where it fires and one where it stays quiet, from
// its name and the Plan's facts.
//
// Adding an alert is an entry here, its write function beside its kin
// (alerts.go, health.go, engine.go, diagnosis.go, prefixcache.go), its
// runbook template and its test case in internal/generate/gputests (a
// file of its own, case_*.go, for an alert its shared scenarios do not
// cover). Tests hold the rest to the catalog and name what is missing.
type entry struct {
	name  string
	hold  time.Duration // its `for`; 0 fires at the first evaluation
	dcgm  bool          // it reads dcgm-exporter, which GPUExporterDown watches
	about scope
	write writer
	doc   row
}

// scope is what an alert is about: a GPU's health (heat, errors, its
// link, its exporter) whichever service uses it, or how a service uses its
// GPUs and serves. A fleet's output has the GPU-scoped alerts once per GPU
// pool (pools.go), not in every service's rule file.
type scope int

const (
	ofService scope = iota
	ofGPU
)

// row is an alert's row of the table in docs/gpu-alerts.md, which
// TestDocsTableIsTheCatalogs writes: its condition, thresholds with their
// defaults, and what a service needs for it.
type row struct{ condition, needs string }

// catalog is every GPU and serving alert, in the order a rule file has
// them.
var catalog = []entry{
	{MemoryHigh, memoryFor, true, ofService, alone(memoryHigh), row{
		"a GPU's `FB_USED / (FB_USED + FB_FREE)` above `vram_percent` (95 % for a runtime that claims a share of every GPU's memory at start, 90 % otherwise)",
		"dcgm-exporter",
	}},
	{KVCacheHigh, kvCacheFor, false, ofService, alone(kvCacheHigh), row{
		"a replica's KV cache above `kv_cache_percent` (95 %)",
		"a KV-cache gauge",
	}},
	{QueueBacklog, queueFor, false, ofService, alone(queueBacklog), row{
		"a replica's waiting requests above `queue_depth` (10)",
		"a queue gauge",
	}},
	{TemperatureHigh, temperatureFor, true, ofGPU, onGPUs(temperatureHigh), row{
		"a GPU above `gpu_temp_celsius` (85 °C)",
		"dcgm-exporter",
	}},
	{UtilizationHigh, utilizationFor, true, ofService, alone(utilizationHigh), row{
		"the service's GPUs average above `gpu_util_percent` (95 %): capacity",
		"dcgm-exporter",
	}},
	{XIDErrors, 0, true, ofGPU, onGPUs(xidErrors), row{
		"a new XID on a GPU within the last 10m: a code the GPU had not reported in the hour before",
		"dcgm-exporter",
	}},
	{OOMEvents, 0, false, ofService, alone(oomEvents), row{
		"more than `oom_per_day` (5) OOMs in 24h",
		"an OOM counter: custom `metrics.oom` only",
	}},
	{ExporterDown, exporterFor, false, ofGPU, writer{alone(exporterDown).service, jobExporterDown}, row{
		"a dcgm-exporter that served the service's GPUs in the last hour has `up` 0, or the service's GPU series are absent",
		"–",
	}},
	{Throttled, throttleFor, true, ofGPU, onGPUs(throttled), row{
		"a GPU's clocks held down by one of power, heat, sync boost, board or reliability limits (not idle) over `gpu_throttle_percent` (10 %) of the last 5m",
		"dcgm-exporter's `*_VIOLATION` counters (not collected by default)",
	}},
	{ECCErrors, 0, true, ofGPU, onGPUs(eccErrors), row{
		"double-bit ECC errors on a GPU within the last 10m",
		"`DCGM_FI_DEV_ECC_DBE_VOL_TOTAL` (not collected by default)",
	}},
	{RowRemapFailure, 0, true, ofGPU, onGPUs(rowRemapFailure), row{
		"a GPU's row remapping failed, or rows remapped for uncorrectable errors within the last 10m",
		"dcgm-exporter",
	}},
	{PCIeReplays, replayFor, true, ofGPU, onGPUs(pcieReplays), row{
		"a GPU's PCIe retries over `pcie_replays_per_minute` (10) over 5m",
		"dcgm-exporter",
	}},
	{NVLinkErrors, 0, true, ofGPU, onGPUs(nvlinkErrors), row{
		"NVLink CRC, replay or recovery errors on a GPU within the last 10m",
		"dcgm-exporter's NVLink error counters (not collected by default)",
	}},
	{Preemptions, engineFor, false, ofService, alone(preemptions), row{
		"requests preempted for lack of KV cache, over `preemptions_per_minute` (10) a minute over 5m",
		"a preemption counter",
	}},
	{QueueTimeHigh, engineFor, false, ofService, alone(queueTimeHigh), row{
		"the mean wait before scheduling over 5m, from the queue histogram, above `queue_seconds` (5)",
		"a queue-time histogram",
	}},
	{EngineStalled, engineFor, false, ofService, alone(engineStalled), row{
		"a replica has requests waiting and runs none: its queue gauge above 0 and its running gauge at 0, a stuck scheduler",
		"a queue gauge and a running-requests gauge",
	}},
	{VLLMEngineDead, 0, false, ofService, alone(loggedLine(VLLMEngineDead)), logRow("`EngineDeadError`")},
	{VLLMNoKVCacheMemory, 0, false, ofService, alone(loggedLine(VLLMNoKVCacheMemory)), logRow("`No available memory for the cache blocks`")},
	{SGLangPrefillOOM, 0, false, ofService, alone(loggedLine(SGLangPrefillOOM)), logRow("`Prefill out of memory`")},
	{CUDAOutOfMemory, 0, false, ofService, alone(loggedLine(CUDAOutOfMemory)), logRow("`CUDA out of memory` (PyTorch)")},
	{NCCLTimeout, 0, false, ofService, alone(loggedLine(NCCLTimeout)), logRow("`Watchdog caught collective operation timeout` (PyTorch's NCCL watchdog)")},
	{PrefixCacheCold, coldCacheFor, false, ofService, writer{service: quadrants.prefixCacheCold}, row{
		"the prefix cache's hit ratio over the last hour below `prefix_cache_hit_vs_yesterday` (0.5, strictly between 0 and 1) of the same hour yesterday, with throughput 0.8×–1.25× yesterday's, and yesterday's hour at least 10 % hits and a request a minute",
		"prefix-cache hits, and a throughput signal",
	}},
	{MemoryLeak, leakFor, true, ofService, writer{service: quadrants.memoryLeak}, row{
		"VRAM's trend over both the last hour and the last 10 minutes fills the GPU within 4h, while traffic is flat (0.8×–1.25× the hour before)",
		"a throughput signal",
	}},
	{Saturated, diagnosisFor, false, ofService, writer{service: quadrants.saturated}, row{
		"diagnosis: mean latency > 1.5× and throughput < 0.8× the same hour yesterday",
		"latency histogram, throughput",
	}},
	{InputErrors, diagnosisFor, false, ofService, writer{service: quadrants.inputErrors}, row{
		"diagnosis: error ratio > 2× yesterday's and above the availability budget, latency ≤ 1.2×",
		"availability SLO, latency histogram",
	}},
	{MemoryLeakSuspect, diagnosisFor, true, ofService, writer{service: quadrants.leakSuspected}, row{
		"diagnosis: VRAM > 1.1× yesterday's, latency ≤ 1.2×, throughput 0.8×–1.25×, errors not up",
		"latency histogram, throughput",
	}},
}

// logRow is the docs' row of an alert on a fatal log line.
// needsText adds the runtimes that write the line.
func logRow(line string) row {
	return row{"a pod logged " + line + " within the last 10m: its count went up, or appeared", "a `collector` block"}
}

// Causes are the names of every alert of the catalog, in its order. Each
// says why a service may be failing, not that its users see it: a full
// KV cache or a GPU at 95 % VRAM is how vLLM runs under load. So each is a
// ticket, and pages only where alerting.page_on names it, which the spec
// checks against this list; pages are for symptoms, the SLO burn-rate,
// traffic-drop and missing-metrics alerts.
var Causes = names(func(entry) bool { return true })

// GPUScoped are the alerts about a GPU rather than a service, in the
// catalog's order: a fleet's pools have them (Pools), its services not.
var GPUScoped = names(func(e entry) bool { return e.about == ofGPU })

// DCGMAlerts are the alerts that read dcgm-exporter's series, which a
// missing exporter (ExporterDown) leaves without data, in the catalog's
// order.
var DCGMAlerts = names(func(e entry) bool { return e.dcgm })

func names(keep func(entry) bool) []string {
	var out []string
	for _, e := range catalog {
		if keep(e) {
			out = append(out, e.name)
		}
	}
	return out
}

// writer makes an alert's expression and text for a service, or says
// why the service cannot have it; an alert about GPUs is also written for
// a pool's GPUs (gpus), the way a fleet's output has it.
type writer struct {
	service func(quadrants, model.Service) (alertDef, *Skip)
	gpus    func(gpus) alertDef
}

// alone writes an alert that needs no diagnosis signal.
func alone(write func(model.Service) (alertDef, *Skip)) writer {
	return writer{service: func(_ quadrants, svc model.Service) (alertDef, *Skip) { return write(svc) }}
}

// onGPUs writes a per-GPU alert: for a service, on its own GPUs.
func onGPUs(write func(gpus) alertDef) writer {
	return writer{
		service: func(_ quadrants, svc model.Service) (alertDef, *Skip) { return write(serviceGPUs(svc)), nil },
		gpus:    write,
	}
}

// feed is which metric of a runtime feeds an alert, as the alert reads
// it ("" for none), and the field of custom's metrics block that does.
type feed struct {
	reads  func(model.Metrics) string
	custom string
}

// feeds are the alerts that read a runtime's engine metrics: the docs'
// table lists, from the profile table, the runtimes that feed each.
var feeds = map[string]feed{
	KVCacheHigh:     {func(m model.Metrics) string { return m.KVCache.Name }, "metrics.kv_cache"},
	QueueBacklog:    {func(m model.Metrics) string { return m.Waiting.Name }, "metrics.waiting"},
	Preemptions:     {preemptionCounter, "metrics.preemptions"},
	QueueTimeHigh:   {func(m model.Metrics) string { return m.Queue.Name }, "metrics.queue"},
	EngineStalled:   {runningBesideQueue, "metrics.waiting` and `metrics.running"},
	PrefixCacheCold: {prefixCacheHits, "metrics.prefix_cache_hits` and `prefix_cache_queries"},
}

func preemptionCounter(m model.Metrics) string {
	if strings.HasSuffix(m.Preemptions.Name, "_total") {
		return m.Preemptions.Name
	}
	return ""
}

func runningBesideQueue(m model.Metrics) string {
	if m.Waiting.IsZero() {
		return ""
	}
	return m.Running.Name
}

func prefixCacheHits(m model.Metrics) string {
	switch {
	case m.PrefixCacheHitRatio.Name != "":
		return m.PrefixCacheHitRatio.Name
	case m.PrefixCacheQueries.Name != "":
		return m.PrefixCacheHits.Name
	}
	return ""
}
