package model

import "slices"

// CauseAlerts are the names of the GPU and serving alerts (generate/
// gpualerts). Each says why a service may be failing, not that its users
// see it: a full KV cache or a GPU at 95 % VRAM is how vLLM runs under
// load. So each is a ticket, and pages only where alerting.page_on names
// it; pages are for symptoms, the SLO burn-rate, traffic-drop and
// missing-metrics alerts.
var CauseAlerts = []string{
	"GPUMemoryHigh", "KVCacheHigh", "InferenceQueueBacklog", "GPUTemperatureHigh", "GPUUtilizationHigh",
	"GPUXIDErrors", "GPUOOMEvents", "GPUExporterDown", "GPUThrottled", "GPUECCErrors", "GPURowRemapFailure",
	"GPUPCIeReplays", "GPUNVLinkErrors", "InferencePreemptions", "InferenceQueueTimeHigh", "PrefixCacheColdStart",
	"GPUMemoryLeak", "InferenceSaturated", "InferenceInputErrors", "GPUMemoryLeakSuspected",
}

// CauseSeverity is the severity of the cause alert named alert: the page
// severity where the spec promotes it, the ticket severity otherwise.
func (a Alerting) CauseSeverity(alert string) string {
	if slices.Contains(a.PageOn, alert) {
		return a.PageSeverity
	}
	return a.TicketSeverity
}
