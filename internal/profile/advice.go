package profile

// Advice is what a runbook tells the on-call engineer about the runtime,
// in Markdown. A text of several lines breaks them where the runbook
// does; the runbook indents the lines after the first. Empty where the
// runtime has nothing to add.
type Advice struct {
	// MetricsGone says why the runtime may stop exporting a metric an
	// SLO reads (SLOMetricsAbsent).
	MetricsGone string
	// LazyCounter is a counter the SLIs read that the runtime's client
	// library creates with the first request, so that it is missing after
	// a restart until a request comes.
	LazyCounter string
	// QueueLimits are the settings that cap how many requests the engine
	// runs at once, which hold requests in the queue (InferenceQueueBacklog).
	QueueLimits string
	// KVCacheLimits are the settings that let fewer or shorter requests
	// run at once, so that their KV cache fits (KVCacheHigh).
	KVCacheLimits string
	// PrefixCacheOff is the flag that switches prefix caching off
	// (PrefixCacheColdStart).
	PrefixCacheOff string
	// Reservation explains a GPU's memory held by the runtime's
	// Preallocation (GPUMemoryHigh).
	Reservation string
	// SuccessOnly says which latency histograms see successful requests
	// alone, and what that means in an outage (SLOErrorBudgetBurn).
	SuccessOnly string
}
