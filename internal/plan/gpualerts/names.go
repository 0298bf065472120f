// Package gpualerts writes a service's GPU and serving alerts and their
// recordings (gpu-rules.yaml): VRAM, KV cache, queue depth, GPU
// temperature and utilisation, XID errors, OOM events, a missing
// dcgm-exporter, a predicted memory leak, a prefix cache gone cold, and
// three diagnosis alerts that read the four quadrants (latency,
// throughput, errors, VRAM) against the same hour a day earlier. It reads the service's thresholds, metrics,
// DCGM mapping and availability SLO from the model.
//
// The catalog (catalog.go) lists every alert with what is known of it
// before a service is. A Plan is the service's alerts worked out once
// from it, for the rule file, for
// vet and, as plain facts, for internal/generate/gputests, whose generated tests
// prove the rules (its TestGeneratedTestsPassInProcess and
// TestGeneratedTestsPassPromtool); gpualerts_test.go proves the rules load
// in Prometheus 2.42 and carry their labels.
package gpualerts

import (
	"time"
)

// ExporterMemory is how long GPUExporterDown remembers which exporters
// served the service's GPUs: a scrape target that is down counts only if
// the service's GPU series came from it within that time, so one dead
// exporter does not blind every service's alerts.
const ExporterMemory = time.Hour

// Recorded series. MemoryUsedRatio is per GPU; the diagnosis signals are
// one series per service, each beside its value a day earlier.
const (
	MemoryUsedRatio = "slogen:gpu_memory_used:ratio"
	LatencyMean     = "slogen:diag_latency:mean1h"    // seconds
	Throughput      = "slogen:diag_throughput:rate1h" // requests per second
	ErrorRatio      = "slogen:diag_errors:ratio1h"    // failed / all requests
	MemoryUsed      = "slogen:diag_memory_used:mib1h" // MiB, summed over the service's GPUs
	// PrefixCacheHitRatio is the share of prompt tokens found in the
	// prefix cache, 0–1: no quadrant, but read like one.
	PrefixCacheHitRatio = "slogen:prefix_cache_hit:ratio1h"
	dayAgo              = "_1d_ago"
)

// How long each condition must hold; a Plan's alerts carry them.
const (
	memoryFor      = 5 * time.Minute
	kvCacheFor     = time.Minute
	queueFor       = 2 * time.Minute
	temperatureFor = 5 * time.Minute
	utilizationFor = 5 * time.Minute
	exporterFor    = 5 * time.Minute
	leakFor        = 15 * time.Minute
	diagnosisFor   = 15 * time.Minute
	// coldCacheFor is short beside the hour the hit ratio is read over,
	// which already holds a cache that warms again in minutes to a dip.
	coldCacheFor = 15 * time.Minute
)

// The windows behind the diagnosis and the leak alert, exported for the
// tests' predictor. A day of baseline makes "up" mean "up on the same hour
// yesterday", which daily traffic cycles cannot fake.
const (
	DiagnosisWindow = time.Hour
	Baseline        = 24 * time.Hour
	// LeakShortWindow is the recent trend that must agree with the leak
	// alert's dcgm.TrendWindow: a step up (a restart, a second model
	// loaded) tilts the hour's trend, but the last ten minutes' only
	// briefly, never for the alert's whole `for`.
	LeakShortWindow = 10 * time.Minute
)

// Diagnosis factors against the same hour a day earlier. Latency "up" is
// 1.5× and "normal" at most 1.2×; throughput "down" is below 0.8× and
// "flat" within 0.8× to 1.25×; errors are "up" above 2× and above the
// availability SLO's budget, so that a clean yesterday cannot make one
// error an incident; VRAM is "up" above 1.1×.
const (
	LatencyUp      = 1.5
	LatencyNormal  = 1.2
	ThroughputLow  = 0.8
	ThroughputHigh = 1.25
	ErrorsUp       = 2.0
	MemoryUp       = 1.1
)

// PrefixCacheColdStart compares only an hour that means something:
// yesterday's hit ratio was at least PrefixCacheHitFloor, below which the
// cache saved too little prefill for its loss to be worth a ticket, and
// yesterday's hour served at least PrefixCacheMinPerMinute requests a
// minute, so an idle service's stale gauge or a handful of requests
// cannot open one. Traffic is "normal" within ThroughputLow to
// ThroughputHigh of yesterday's, as for GPUMemoryLeakSuspected: a cache
// whose ratio falls with a change in traffic has new prompts to learn.
const (
	PrefixCacheHitFloor     = 0.1
	PrefixCacheMinPerMinute = 1.0
)
