package spec

import (
	"errors"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	promodel "github.com/prometheus/common/model"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/profile"
)

var periods = map[string]time.Duration{"30d": 30 * 24 * time.Hour, "28d": 28 * 24 * time.Hour, "7d": 7 * 24 * time.Hour}

// profile picks the runtime's metrics, with the spec's bucket overrides.
func (r *resolver) profile(raw rawService) (profile.Profile, bool) {
	var p profile.Profile
	if raw.Runtime == profile.CustomRuntime {
		if raw.Metrics == nil {
			r.errorf(fields("runtime"), `runtime "custom" needs a metrics block naming your counters and histograms, e.g. metrics: {requests: "inference_requests_total", errors: "inference_errors_total", latency: "inference_latency_seconds"}`)
			return p, false
		}
		if raw.Version != "" {
			r.errorf(fields("version"), "version picks the metric names of a runtime slogen knows; runtime \"custom\" reads the names its metrics block gives: leave version out")
		}
		m := raw.Metrics
		var err error
		p, err = profile.Custom(profile.CustomMetrics{
			Requests: m.Requests, Errors: m.Errors, Latency: m.Latency, TTFT: m.TTFT, ITL: m.ITL, TPOT: m.TPOT, Queue: m.Queue, ModelLabel: m.ModelLabel,
			Serving: profile.CustomServing{
				Running: m.Running, Waiting: m.Waiting, KVCache: m.KVCache, PromptTokens: m.PromptTokens,
				GenerationTokens: m.GenerationTokens, OOM: m.OOM, GPUMemory: m.GPUMemory, GPUMemoryReserved: m.GPUMemoryReserved,
				Preemptions: m.Preemptions, PrefixCacheHits: m.PrefixHits, PrefixCacheQueries: m.PrefixQueries,
			},
		})
		if err != nil {
			r.metricsErrors(err)
			return p, false
		}
		if m.Port != 0 {
			p.Port = m.Port
		}
		if m.Path != "" {
			p.Path = m.Path
		}
	} else {
		var err error
		if p, err = profile.For(raw.Runtime, raw.Version); err != nil {
			r.errorf(fields("version"), "%v", err)
			return p, false
		}
		if raw.Metrics != nil {
			r.errorf(fields("metrics"), "metrics is only for runtime \"custom\"; slogen knows what %s exports", raw.Runtime)
		}
		if raw.Model != "" && p.NoModel != "" {
			r.errorf(fields("model"), "runtime %s: %s", raw.Runtime, p.NoModel)
		}
	}
	if raw.Histograms == "native" {
		p = r.native(p, raw.Buckets)
	}
	p.Latency = r.withBuckets(p.Latency, raw.Buckets.Latency, "latency")
	p.TTFT = r.withBuckets(p.TTFT, raw.Buckets.TTFT, "ttft")
	p.ITL = r.withBuckets(p.ITL, raw.Buckets.ITL, "itl")
	p.TPOT = r.withBuckets(p.TPOT, raw.Buckets.TPOT, "tpot")
	p.Queue = r.withBuckets(p.Queue, raw.Buckets.Queue, "queue")
	return p, true
}

// native switches the profile to native histograms, where the runtime can
// send them; a native histogram has no le buckets to declare.
func (r *resolver) native(p profile.Profile, b rawBuckets) profile.Profile {
	n, ok := p.Native()
	if !ok {
		var can []string
		for _, q := range profile.Runtimes() {
			if q.NativeHistograms {
				can = append(can, q.Runtime)
			}
		}
		r.errorf(fields("histograms"), "runtime %s exports classic histograms only; remove histograms: \"native\" (runtimes that can send native histograms: %s)", p.Runtime, strings.Join(can, ", "))
		return p
	}
	if len(b.Latency)+len(b.TTFT)+len(b.ITL)+len(b.TPOT)+len(b.Queue) > 0 {
		r.errorf(fields("buckets"), "a native histogram has no le buckets: remove buckets, or set histograms: \"classic\" if Prometheus stores these histograms with le")
	}
	return n
}

func (r *resolver) withBuckets(h *profile.Histogram, buckets []float64, field string) *profile.Histogram {
	if len(buckets) == 0 {
		return h
	}
	if h == nil {
		r.errorf(fields("buckets", field), "this runtime has no %s histogram to declare buckets for", field)
		return nil
	}
	if !strictlyAscending(buckets) {
		r.errorf(fields("buckets", field), "bucket bounds must be positive and strictly ascending, as the exporter's le values are")
		return h
	}
	c := *h
	c.Buckets = buckets
	return &c
}

// slo resolves one SLO: its kind, objective, period and SLI.
func (r *resolver) slo(name string, raw rawSLO, p profile.Profile, scope profile.Scope) (model.SLO, bool) {
	at := func(f ...string) []string { return append([]string{"slos", name}, f...) }
	r.checkName(sloNameRe, name, "SLO", at())
	kind, ok := r.kind(name, raw, at)
	if !ok {
		return model.SLO{}, false
	}
	if raw.Objective <= 1 {
		r.errorf(at("objective"), "%s", ratioObjective(raw.Objective))
		return model.SLO{}, false
	}
	slo := model.SLO{
		Name:        name,
		Kind:        kind,
		Objective:   objective(raw.Objective),
		Period:      model.Period{Name: raw.Window, Duration: periods[raw.Window]},
		Description: raw.Description,
	}
	if !r.checkFields(kind, raw, at) {
		return slo, false
	}
	var sli model.SLI
	switch kind {
	case model.Ratio:
		var err error
		if sli, err = profile.RatioSLI(scope, raw.Bad, raw.Total); err != nil {
			r.errorf(at(), "%v", err)
			return slo, false
		}
	case model.Availability:
		if p.Availability == nil {
			r.errorf(at(), "%s cannot measure availability: %s", p.Runtime, p.Unsupported[kind])
			return slo, false
		}
		sli = p.AvailabilitySLI(scope)
	case model.Goodput:
		var ok bool
		if slo.Bounds, sli, ok = r.goodput(raw.Bounds, p, scope, at); !ok {
			return slo, false
		}
	default:
		var ok bool
		if slo.Threshold, sli, ok = r.latency(kind, raw.Threshold, p, scope, at); !ok {
			return slo, false
		}
	}
	if sli.Inputs == nil {
		r.warnf(at(), "slogen cannot tell how events map onto this SLO's series, so its alerts get no generated unit tests; read a single counter in bad and in total, or make bad your total minus one counter of good events, to get them")
	}
	slo.SLI = sli
	slo.GroupBy, slo.MaxGroups = r.groupBy(slo, raw, p, scope, at)
	r.warnImpossibleTiers(slo, at)
	return slo, true
}

// objective turns a percentage into an exact fraction: 99.9 → 999/1000.
// The shortest decimal that round-trips is what the user wrote.
// ratioObjective explains an objective of 1 or below: almost surely a
// ratio where slogen wants a percentage, and an SLO that would page only
// on a total outage.
func ratioObjective(got float64) string {
	const why = "objective is a percentage, so %s %% would let %s %% of requests fail and page only on a total outage"
	hundred := big.NewRat(100, 1)
	percent := new(big.Rat).Mul(objective(got), hundred) // exactly as written
	msg := fmt.Sprintf(why, model.FormatRat(percent), model.FormatRat(new(big.Rat).Sub(hundred, percent)))
	if got < 1 {
		return msg + fmt.Sprintf("; did you mean %s?", model.FormatRat(new(big.Rat).Mul(percent, hundred)))
	}
	return msg + "; write the percentage of good events, e.g. 99.9"
}

func objective(percent float64) *big.Rat {
	r, _ := new(big.Rat).SetString(strconv.FormatFloat(percent, 'f', -1, 64))
	return r.Quo(r, big.NewRat(100, 1))
}

func (r *resolver) kind(name string, raw rawSLO, at func(...string) []string) (model.Kind, bool) {
	known := slices.Contains(model.Kinds, model.Kind(name)) && name != string(model.Ratio)
	switch {
	case raw.SLI == "" && known:
		return model.Kind(name), true
	case raw.SLI == "":
		r.errorf(at(), "the SLO key %q is not a kind, so say what it measures: set sli: to one of %s", name, kindList())
		return "", false
	case known && raw.SLI != name:
		r.errorf(at("sli"), "the key %q already names the kind %s; drop sli: or rename the SLO", name, name)
		return "", false
	}
	return model.Kind(raw.SLI), true
}

// checkFields rejects fields that do not belong to the kind and asks for
// those it needs.
func (r *resolver) checkFields(kind model.Kind, raw rawSLO, at func(...string) []string) bool {
	ok := true
	isLatency := slices.Contains(model.LatencyKinds, kind)
	switch {
	case isLatency && raw.Threshold == "":
		r.errorf(at(), "a %s SLO needs a threshold, e.g. threshold: \"2.5s\"; it must be a bucket boundary of the histogram", kind)
		ok = false
	case kind == model.Goodput && raw.Threshold != "":
		r.errorf(at("threshold"), `a goodput SLO has a bound per latency, not one threshold: bounds: {ttft: "1s", tpot: "50ms"}`)
		ok = false
	case !isLatency && raw.Threshold != "":
		r.errorf(at("threshold"), "threshold applies to latency, ttft, itl, tpot and queue SLOs only; remove it")
		ok = false
	}
	if kind != model.Goodput && raw.Bounds != (rawBounds{}) {
		r.errorf(at("bounds"), "bounds apply to goodput SLOs only (sli: \"goodput\"); a %s SLO takes one threshold", kind)
		ok = false
	}
	switch {
	case kind == model.Ratio && (raw.Bad == "" || raw.Total == ""):
		r.errorf(at(), "a ratio SLO needs bad and total: PromQL for bad and for all events per second, e.g. bad: \"sum(rate(low_confidence_total[$window]))\"")
		ok = false
	case kind != model.Ratio && (raw.Bad != "" || raw.Total != ""):
		r.errorf(at(), "bad and total apply to ratio SLOs only (sli: \"ratio\"); remove them")
		ok = false
	}
	return ok
}

// latency resolves a histogram SLO; the threshold must be a bucket bound,
// or the selector would match nothing and the SLO be silently broken.
func (r *resolver) latency(kind model.Kind, threshold string, p profile.Profile, scope profile.Scope, at func(...string) []string) (time.Duration, model.SLI, bool) {
	h := p.Histogram(kind)
	if h == nil {
		r.errorf(at(), "%s cannot measure %s: %s", p.Runtime, kind, p.Unsupported[kind])
		return 0, model.SLI{}, false
	}
	d, err := time.ParseDuration(threshold)
	if err != nil || d <= 0 {
		r.errorf(at("threshold"), "%q is not a latency such as 250ms or 2.5s", threshold)
		return 0, model.SLI{}, false
	}
	if h.Native {
		return r.nativeLatency(kind, d, h, scope, at)
	}
	bound, ok, below, above := h.Boundary(d)
	if !ok {
		r.errorf(at("threshold"), "%s is not a bucket boundary of %s, so no series would match it; %s, or declare the exporter's buckets in buckets.%s", threshold, h, nearest(h, below, above), kind)
		return 0, model.SLI{}, false
	}
	if h.Note != "" {
		r.notef(at(), "%s", h.Note)
	}
	return d, h.LatencySLI(scope, bound), true
}

// nearest names the bounds around a threshold that is none; beyond the
// histogram's ends it says that nothing finer (or coarser) can be told
// apart.
func nearest(h *profile.Histogram, below, above float64) string {
	switch {
	case below > 0 && above > 0:
		return fmt.Sprintf("the nearest boundaries are %s and %s", h.Seconds(below), h.Seconds(above))
	case above > 0:
		return fmt.Sprintf("its smallest boundary is %s, so it cannot tell faster requests apart: use %[1]s", h.Seconds(above))
	case below > 0:
		return fmt.Sprintf("its largest boundary is %s, so it cannot tell slower requests apart: use %[1]s", h.Seconds(below))
	}
	return "pick a bucket boundary"
}

// warnImpossibleTiers reports tiers whose burn rate needs an error ratio
// above 100 %; the rules cap them to fire on a total outage.
func (r *resolver) warnImpossibleTiers(slo model.SLO, at func(...string) []string) {
	for _, t := range model.Tiers {
		if _, capped := slo.ErrorRatioThreshold(t); capped {
			r.warnf(at("objective"), "at %s %% the %s tier (burn rate %s over %s) would need more than 100 %% errors and could never fire; it is capped to fire only when every request fails",
				model.FormatRat(new(big.Rat).Mul(slo.Objective, big.NewRat(100, 1))), t, model.FormatRat(t.BurnRate(slo.Period)), promodel.Duration(model.TierWindows[t].Long))
		}
	}
}

func strictlyAscending(bs []float64) bool {
	for i, b := range bs {
		if b <= 0 || i > 0 && b <= bs[i-1] {
			return false
		}
	}
	return true
}

// metricsErrors reports each problem of a custom app's metrics block at
// the field it is about.
func (r *resolver) metricsErrors(err error) {
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		for _, err := range joined.Unwrap() {
			r.metricsErrors(err)
		}
		return
	}
	var fe *profile.FieldError
	if errors.As(err, &fe) {
		r.errorf(strings.Split(fe.Field, "."), "%s", fe.Message)
		return
	}
	r.errorf(fields("metrics"), "%v", err)
}

// kindList names every kind, comma-separated, in documentation order.
func kindList() string {
	names := make([]string, len(model.Kinds))
	for i, k := range model.Kinds {
		names[i] = string(k)
	}
	return strings.Join(names, ", ")
}

// nativeLatency resolves a histogram SLO on a native histogram. It has no
// bucket bounds to hold the threshold to: histogram_fraction answers for
// any, exactly at a bound of the exponential buckets and interpolated
// within one. So the loader checks only that the threshold is a positive
// latency (latency did), and says how close the answer is.
func (r *resolver) nativeLatency(kind model.Kind, d time.Duration, h *profile.Histogram, scope profile.Scope, at func(...string) []string) (time.Duration, model.SLI, bool) {
	r.notef(at("threshold"), "%s is a native histogram: histogram_fraction estimates the share under %s within the exponential bucket that holds it "+
		"(an OpenTelemetry SDK's default of 160 buckets over five decades of latency makes each about 9%% wide); no bucket check applies", h.Name, d)
	if h.Note != "" {
		r.notef(at(), "%s", h.Note)
	}
	return d, h.LatencySLI(scope, d.Seconds()/h.Unit), true
}
