package model

// Serving names the runtime's saturation and throughput metrics, for GPU
// and serving alerts and for dashboards. An empty name means the runtime
// does not export that signal; generators leave out what needs it.
type Serving struct {
	Running string // gauge: requests being executed
	Waiting string // gauge: requests queued
	// KVCache is a 0–1 gauge of KV-cache (token pool) usage.
	KVCache string
	// PromptTokens and GenerationTokens are counters of tokens.
	PromptTokens     string
	GenerationTokens string
	// Completed counts finished requests, for throughput.
	Completed string
	// Preemptions counts requests evicted for lack of KV cache.
	Preemptions string
	// Aborts is a selector counting aborted requests.
	Aborts string
	// Failures is a counter of failed requests and FailureClass the label
	// that classifies them (vLLM's HTTP status class, TGI's err, Triton's
	// reason).
	Failures     string
	FailureClass string
	// PromptLength is a histogram of prompt tokens per request, for
	// latency by request length.
	PromptLength string
	// QueueTime is a histogram of seconds spent waiting.
	QueueTime string
	// BatchSize and BatchMax give batch utilisation as their ratio.
	BatchSize, BatchMax string
	// OOM counts out-of-memory events; only apps that export one have it
	// (DCGM has none).
	OOM string
	// GPUMemory is bytes of GPU memory allocated by the runtime itself.
	GPUMemory string
	// GPUMemoryReserved is bytes reserved by the runtime's allocator, for
	// fragmentation against GPUMemory.
	GPUMemoryReserved string
}
