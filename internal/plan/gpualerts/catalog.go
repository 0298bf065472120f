package gpualerts

import (
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
	PrefixCacheCold   = "PrefixCacheColdStart"
)

// entry is one alert of the catalog: its name, how long its condition
// must hold, whether it reads dcgm-exporter, and write, which makes its
// expression and text for a service or says why the service cannot have
// it. The rest follows from the name: its runbook is the template
// templates/runbooks/<name in lower case>.md.tmpl and the section
// rules.RunbookAnchor(name) of every runbook page; its severity is a
// ticket's, a page's where alerting.page_on names it (a cause: model.
// CauseAlerts lists the names for the spec's check). internal/generate/gputests
// tests it, with a scenario where it fires and one where it stays quiet,
// from its name and the Plan's facts.
//
// Adding an alert is an entry here, its write function beside its kin
// (alerts.go, health.go, engine.go, diagnosis.go, prefixcache.go), its
// runbook template and its test case in internal/generate/gputests; and, until
// they read the catalog, its name in model.CauseAlerts, in DCGMAlerts if
// it reads dcgm-exporter, and in internal/generate/runbooks' list of every alert,
// each held to the catalog by a test that names what is missing.
type entry struct {
	name  string
	hold  time.Duration // its `for`; 0 fires at the first evaluation
	dcgm  bool          // it reads dcgm-exporter, which GPUExporterDown watches
	write func(quadrants, model.Service) (alertDef, *Skip)
}

// catalog is every GPU and serving alert, in the order a rule file has
// them.
var catalog = []entry{
	{MemoryHigh, memoryFor, true, alone(memoryHigh)},
	{KVCacheHigh, kvCacheFor, false, alone(kvCacheHigh)},
	{QueueBacklog, queueFor, false, alone(queueBacklog)},
	{TemperatureHigh, temperatureFor, true, alone(temperatureHigh)},
	{UtilizationHigh, utilizationFor, true, alone(utilizationHigh)},
	{XIDErrors, 0, true, alone(xidErrors)},
	{OOMEvents, 0, false, alone(oomEvents)},
	{ExporterDown, exporterFor, false, alone(exporterDown)},
	{Throttled, throttleFor, true, alone(throttled)},
	{ECCErrors, 0, true, alone(eccErrors)},
	{RowRemapFailure, 0, true, alone(rowRemapFailure)},
	{PCIeReplays, replayFor, true, alone(pcieReplays)},
	{NVLinkErrors, 0, true, alone(nvlinkErrors)},
	{Preemptions, engineFor, false, alone(preemptions)},
	{QueueTimeHigh, engineFor, false, alone(queueTimeHigh)},
	{PrefixCacheCold, coldCacheFor, false, quadrants.prefixCacheCold},
	{MemoryLeak, leakFor, true, quadrants.memoryLeak},
	{Saturated, diagnosisFor, false, quadrants.saturated},
	{InputErrors, diagnosisFor, false, quadrants.inputErrors},
	{MemoryLeakSuspect, diagnosisFor, true, quadrants.leakSuspected},
}

// alone is a write function that needs no diagnosis signal.
func alone(write func(model.Service) (alertDef, *Skip)) func(quadrants, model.Service) (alertDef, *Skip) {
	return func(_ quadrants, svc model.Service) (alertDef, *Skip) { return write(svc) }
}
