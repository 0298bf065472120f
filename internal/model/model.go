// Package model is the validated form of a slogen spec: the one structure
// every generator reads. The spec package builds it; nothing else does.
package model

import (
	"math/big"
	"slices"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"
)

// Spec is every service from every spec file, sorted by name.
type Spec struct {
	Services []Service
}

// Service is one inference service and its SLOs. Services built from one
// spec share slices and maps (a shape's placeholder services share their
// members', and services derived from one stand-in share its), so a
// Service is read-only once built.
type Service struct {
	Name    string
	File    string // the spec file that declared it
	Team    string
	Runtime string // a name of the runtime table (internal/profile)
	// Version is the runtime's release as the spec gives it, which picks
	// the generation of its metric names; empty for the newest.
	Version string
	Model   string
	// Selector holds the spec's label matchers, sorted by name.
	Selector []labels.Label
	GPU      GPU
	SLOs     []SLO // sorted by name
	// Traffic counts every request the service gets, failed or not: the
	// runtime's availability SLI, whether or not an SLO uses it. Nil when
	// the runtime counts no requests.
	Traffic  *SLI
	Alerting Alerting
	// Metrics are what the runtime exports, resolved from its profile.
	Metrics    Metrics
	Thresholds Thresholds
	DCGM       DCGM
	Scrape     Scrape
	// Operator is how prometheus-operator and Grafana's sidecar find
	// what --target operator writes.
	Operator Operator
	// Global is set for a service that runs in several clusters, whose
	// SLOs a global ruler evaluates over every cluster's recordings.
	Global *Global
	// Behind names the gateway service (an endpoint picker's) that
	// routes to this one, in the same build; empty when none does.
	Behind string
	// OwnDashboard asks, in a fleet, for the service's own dashboard in
	// its directory besides its kind's.
	OwnDashboard bool
	// Shape is shared by the services that differ from this one only in
	// their identity; nil when its identity is not one a shape can stand
	// for (see spec's shapes).
	Shape *Shape
	// Collector asks for the service's OpenTelemetry Collector
	// configuration; nil when the spec does not.
	Collector *Collector
	// Loki asks for Loki ruler rules on the runtime's fatal log lines;
	// nil when the spec does not.
	Loki *Loki
}

// Loki is how the service's log streams are found in Loki: a stream
// selector built from its Kubernetes identity.
type Loki struct {
	// Streams select the service's log streams: its namespace, pods and
	// container where the spec knows them, under the log agent's label
	// names. One of them never matches an empty value, as Loki asks.
	Streams []*labels.Matcher
	// Namespace and Pod are the label names of a line's namespace and
	// pod, by which each alert tells the pods apart.
	Namespace, Pod string
}

// Collector is how the service's traces are sampled and its logs counted
// by an OpenTelemetry Collector.
type Collector struct {
	// RequestsPerSecond is the service's peak request rate.
	RequestsPerSecond float64
	// SampleFloor is the share of traces kept whatever they show.
	SampleFloor float64
	// DecisionWait is how long a trace is held before it is decided.
	DecisionWait time.Duration
	// TracesDatasource is the UID of the Grafana data source (Tempo)
	// holding the kept traces, where alerts link them.
	TracesDatasource string
}

// Global is how a service spans clusters.
type Global struct {
	// Label is the external label that tells the clusters apart.
	Label string
}

// Thresholds of the GPU and serving alerts and dashboards.
type Thresholds struct {
	VRAMPercent    float64 `json:"vram_percent"`
	KVCachePercent float64 `json:"kv_cache_percent"`
	QueueDepth     float64 `json:"queue_depth"`
	GPUTempCelsius float64 `json:"gpu_temp_celsius"`
	GPUUtilPercent float64 `json:"gpu_util_percent"`
	OOMPerDay      int     `json:"oom_per_day"`
	// ThrottlePercent is the share of the time a GPU's clocks may be held
	// down (power, heat, board limits) before GPUThrottled fires.
	ThrottlePercent float64 `json:"gpu_throttle_percent"`
	// PCIeReplaysPerMinute is the PCIe retry rate GPUPCIeReplays allows.
	PCIeReplaysPerMinute float64 `json:"pcie_replays_per_minute"`
	// PreemptionsPerMinute is the preemption rate InferencePreemptions
	// allows.
	PreemptionsPerMinute float64 `json:"preemptions_per_minute"`
	// QueueSeconds is the mean wait before scheduling that
	// InferenceQueueTimeHigh allows.
	QueueSeconds float64 `json:"queue_seconds"`
	// PrefixCacheHitVsYesterday is the share of the prefix-cache hit
	// ratio at the same hour yesterday below which PrefixCacheColdStart
	// fires, between 0 and 1.
	PrefixCacheHitVsYesterday float64 `json:"prefix_cache_hit_vs_yesterday"`
}

// Metrics names the runtime's metrics for this service.
type Metrics struct {
	// ModelLabel carries the served model name on the metrics that have
	// it; empty when the runtime has none.
	ModelLabel string
	// ModelCase is how the runtime writes the served model into
	// ModelLabel on each metric.
	ModelCase ModelCase
	// Port and Path are the runtime's metrics endpoint.
	Port int
	Path string
	// Latency, TTFT, ITL, TPOT and Queue are the runtime's histograms;
	// Name is empty when it has none.
	Latency, TTFT, ITL, TPOT, Queue Histogram
	Serving
	// Gateway: the runtime routes requests to a pool of engines and runs
	// no GPU itself; the service's GPUs are the pool's, found by its
	// dcgm mapping, not on the runtime's own pods.
	Gateway bool
}

// MeanLatency is the histogram the diagnosis reads mean latency from: the
// end-to-end one, or else time to first token (Triton's only). Its Name is
// empty when the runtime has neither.
//
// A native histogram has no _sum and _count series for the diagnosis and
// its tests to read, so it is left out: empty when the histogram the mean
// would come from is native.
func (m Metrics) MeanLatency() Histogram {
	h := m.TTFT
	if m.Latency.Name != "" {
		h = m.Latency
	}
	if h.Native {
		return Histogram{}
	}
	return h
}

// Histogram names a histogram and its unit.
type Histogram struct {
	Name string  // without _bucket
	Unit float64 // seconds per unit of le: 1, or 0.001 for milliseconds
	// Native is a native histogram: one series per label set, read with
	// histogram_count, histogram_sum and histogram_fraction; no _bucket,
	// _count or _sum series.
	Native bool
}

// GPU describes the accelerators a service runs on.
type GPU struct {
	Product   string
	Count     int
	MemoryMiB int // 0 when unknown
}

// Alerting holds the alert settings shared by a service's SLOs.
type Alerting struct {
	Labels         []labels.Label // extra labels, sorted by name
	PageSeverity   string
	TicketSeverity string
	RunbookURL     string
	// RunbookBaseURL is where the committed per-service runbooks live;
	// empty when the spec sets none.
	RunbookBaseURL string
	// GrafanaURL is the Grafana the dashboards are loaded into, which
	// every alert links to; empty when the spec sets none.
	GrafanaURL string
	// PageReceiver and TicketReceiver name the Alertmanager receivers.
	PageReceiver, TicketReceiver string
	For                          map[Tier]time.Duration
	NoDataFor                    time.Duration
	// MinEvents is the low-traffic guard: the fewest requests a burn-rate
	// alert's long window must hold before the alert may fire.
	MinEvents int
	// TrafficDropSeverity is SLOTrafficDrop's severity, "" when it is off.
	TrafficDropSeverity string
	// TrafficDropFor is how long traffic must stay at zero.
	TrafficDropFor time.Duration
	// BudgetSeverity is the severity of the error-budget alerts, "" when
	// they are off.
	BudgetSeverity string
	// BudgetWarnRemaining is the share of the budget left at which
	// SLOErrorBudgetLow fires.
	BudgetWarnRemaining float64
	// PageOn are the cause alerts (the GPU and serving alerts, gpualerts.
	// Causes) the spec promotes from ticket to page, sorted.
	PageOn []string
}

// Kind is what an SLO measures.
type Kind string

// The SLO kinds a spec can name.
const (
	Availability Kind = "availability"
	Latency      Kind = "latency"
	TTFT         Kind = "ttft"
	ITL          Kind = "itl"
	// TPOT is time per output token, request-weighted: each request's
	// mean gap between tokens, where ITL weighs every gap.
	TPOT Kind = "tpot"
	// Queue is the time a request waits before it is scheduled.
	Queue Kind = "queue"
	// Goodput counts a request good only when it meets every one of its
	// Bounds: the runtimes export one histogram per latency, not a joint
	// one, so its SLI is an upper bound on the bad requests (Parts).
	Goodput Kind = "goodput"
	Ratio   Kind = "ratio"
)

// Kinds lists every kind in the order documentation shows them.
var Kinds = []Kind{Availability, Latency, TTFT, ITL, TPOT, Queue, Goodput, Ratio}

// LatencyKinds are the kinds read from a histogram against a threshold.
var LatencyKinds = []Kind{Latency, TTFT, ITL, TPOT, Queue}

// SLO is one objective with its SLI already resolved to PromQL.
type SLO struct {
	Name string
	Kind Kind
	// Objective is the target fraction of good events, e.g. 199/200 for 99.5 %.
	Objective *big.Rat
	Period    Period
	// Threshold is the latency bound of the LatencyKinds.
	Threshold time.Duration
	// Bounds are a goodput SLO's latency bounds, in the order ttft, tpot,
	// latency (e2e); SLI.Parts holds each one's SLI.
	Bounds      []Bound
	Description string
	SLI         SLI
	// GroupBy are the labels the SLO is split by: its recordings, alerts
	// and budget are per value of them. Empty for one SLO over the service.
	GroupBy []string
	// MaxGroups is how many values GroupBy may take before
	// SLOTooManyGroups fires; 0 when GroupBy is empty.
	MaxGroups int
}

// GroupLabels are the group_by labels of all the service's SLOs, sorted.
func (s Service) GroupLabels() []string {
	var out []string
	for _, slo := range s.SLOs {
		out = append(out, slo.GroupBy...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Availability is the service's first availability SLO, which the GPU
// diagnosis and its tests read errors and traffic from.
func (s Service) Availability() (SLO, bool) {
	for _, slo := range s.SLOs {
		if slo.Kind == Availability {
			return slo, true
		}
	}
	return SLO{}, false
}

// ErrorBudget is the fraction of events that may fail: exactly 1 - objective.
func (s SLO) ErrorBudget() *big.Rat {
	return new(big.Rat).Sub(big.NewRat(1, 1), s.Objective)
}

// Bound is one latency a goodput SLO's requests must meet.
type Bound struct {
	Kind      Kind // one of LatencyKinds
	Threshold time.Duration
}

// LatencyBounds are the latencies the SLO bounds: a latency SLO's one,
// a goodput SLO's every bound, none for the others.
func (s SLO) LatencyBounds() []Bound {
	if s.Kind == Goodput {
		return s.Bounds
	}
	if slices.Contains(LatencyKinds, s.Kind) {
		return []Bound{{Kind: s.Kind, Threshold: s.Threshold}}
	}
	return nil
}

// BoundField is the spec's name of a goodput bound of kind k: e2e for
// the end-to-end latency, else the kind.
func BoundField(k Kind) string {
	if k == Latency {
		return "e2e"
	}
	return string(k)
}

// SLI is the indicator as PromQL over BaseWindow, plus the raw series that
// feed it so that tests can synthesise traffic.
type SLI struct {
	// Errors and Requests are per-second rates over BaseWindow, each a
	// single series (aggregated without labels), as syntax trees built or
	// parsed once by the spec. Generators print them, and rewrite only a
	// copy of them (pql.Copy).
	Errors   parser.Expr
	Requests parser.Expr
	// Inputs are the counters behind the SLI. Nil when slogen cannot tell
	// how events map onto them (a ratio SLO with a complex query). A
	// goodput SLI's bad events stall its first part alone, so that its
	// upper bound is exact.
	Inputs []Input
	// Parts are a goodput SLI's bounds, one latency SLI each, in the order
	// of SLO.Bounds: Errors adds their bad requests, at most Requests,
	// and the most bad requests of any one part is the lower bound.
	Parts []SLI
}

// BaseWindow is the only window over which slogen reads raw series; every
// longer window is computed from the recordings of this one.
const BaseWindow = 5 * time.Minute

// Input is one counter series behind an SLI and how it grows: it adds Good
// for every good event and Bad for every bad one.
type Input struct {
	Series    labels.Labels // includes __name__
	Good, Bad float64
	// Native marks a part of a native histogram, written as the classic
	// series it stands for: its _count, or its _bucket at one le. A test
	// writes the histogram (the name without the suffix, the labels
	// without le) once, from one SLO's parts.
	Native bool
}

// Period is the SLO period over which the error budget is spent.
type Period struct {
	Name     string // as written in the spec: 30d, 28d or 7d
	Duration time.Duration
}

// Measured are the SLIs whose bad requests this one adds up: a goodput
// SLI's parts, or the SLI itself.
func (s SLI) Measured() []SLI {
	if s.Parts != nil {
		return s.Parts
	}
	return []SLI{s}
}

// Stalling is a goodput SLI's inputs when its bad requests miss the bounds
// of the parts given, by index, and meet every other.
func (s SLI) Stalling(parts ...int) []Input {
	var out []Input
	for i, p := range s.Parts {
		stalled := slices.Contains(parts, i)
		for _, in := range p.Inputs {
			if !stalled {
				in.Bad = in.Good
			}
			out = append(out, in)
		}
	}
	return out
}
