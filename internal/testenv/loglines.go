package testenv

// FatalLine is a fatal log line as its project's source writes it, with
// the runtime that writes it and the event slogen counts it as
// (profile.LogLine), and an ordinary line of the same runtime that
// shares its words but means nothing is wrong: what a condition on the
// fatal line must not match.
type FatalLine struct {
	Runtime, Event, Line, Neighbour string
}

// FatalLines are each event's line per runtime that writes it: vLLM's
// v1/core/kv_cache_utils.py and v1/engine/exceptions.py, SGLang's
// scheduler.py and its prefill allocation, PyTorch's
// CUDACachingAllocator.cpp and ProcessGroupNCCL.cpp. The Collector's
// count connector and the Loki rules are tested on the same lines.
var FatalLines = []FatalLine{
	{"vllm", "vllm_no_kv_cache_memory",
		"ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.",
		"INFO 12-02 05:00:00 gpu_worker.py:227] Available KV cache memory: 20.50 GiB"},
	{"vllm", "vllm_engine_dead",
		"vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack trace (above) for the root cause.",
		"INFO 12-02 05:00:00 core.py:61] Initializing a V1 LLM engine (v0.11.0) with config: model='meta-llama/Llama-3.1-8B-Instruct'"},
	{"vllm", "cuda_oom",
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB. GPU 0 has a total capacity of 79.19 GiB of which 1.06 GiB is free.",
		"INFO 12-02 05:00:00 gpu_model_runner.py:1901] Model loading took 14.99 GiB of CUDA memory and 5.1 seconds"},
	{"vllm", "nccl_watchdog_timeout",
		"[rank0]:[E1218 20:27:21.426415540 ProcessGroupNCCL.cpp:629] [Rank 0] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=1, OpType=BROADCAST, NumelIn=131072000, NumelOut=131072000, Timeout(ms)=600000) ran for 600081 milliseconds before timing out.",
		"[rank0]:[I1218 20:17:21.426415540 ProcessGroupNCCL.cpp:2016] [PG ID 0 PG GUID 0 Rank 0] ProcessGroupNCCL broadcast unique ID through store took 0.1 ms"},
	{"sglang", "sglang_kv_cache_full",
		"KV cache pool is full. Retract requests. #retracted_reqs: 1, #new_token_ratio: 0.9998 -> 1.0000",
		"KV Cache is allocated. #tokens: 480000, K size: 28.12 GB, V size: 28.12 GB"},
	{"sglang", "sglang_prefill_oom",
		"Prefill out of memory. Try to lower your batch size.\nTry to allocate 4096 tokens.",
		"Prefill batch. #new-seq: 1, #new-token: 512, #cached-token: 0, token usage: 0.01, #running-req: 0, #queue-req: 0"},
	{"sglang", "nccl_watchdog_timeout",
		"[rank1]:[E1218 20:27:21.426415540 ProcessGroupNCCL.cpp:629] [Rank 1] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=7, OpType=ALLREDUCE, NumelIn=8192, NumelOut=8192, Timeout(ms)=600000) ran for 600012 milliseconds before timing out.",
		"[rank1]:[I1218 20:17:21.426415540 ProcessGroupNCCL.cpp:2016] [PG ID 0 PG GUID 0 Rank 1] ProcessGroupNCCL broadcast unique ID through store took 0.1 ms"},
	{"sglang", "cuda_oom",
		"torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 512.00 MiB.",
		"Load weight end. type=Qwen2ForCausalLM, dtype=torch.bfloat16, avail mem=60.12 GB, mem usage=15.34 GB."},
}
