package profile

import (
	"slices"
	"strings"

	"github.com/slogen-dev/slogen/internal/model"
)

// Native is the profile with its histograms arriving as Prometheus native
// histograms, as OTLP's exponential histograms do: one series per label
// set, named without a suffix, and no le buckets, so no bucket list either.
// Counters read from a histogram's _count become its histogram_count.
// ok is false for a runtime whose exporter sends only classic histograms.
func (p Profile) Native() (Profile, bool) {
	if !p.NativeHistograms {
		return p, false
	}
	names := map[string]bool{}
	for _, h := range []**Histogram{&p.Latency, &p.TTFT, &p.ITL, &p.TPOT, &p.Queue} {
		if *h == nil {
			continue
		}
		c := **h
		c.Native, c.Buckets = true, nil
		*h = &c
		names[c.Name] = true
	}
	if p.Availability != nil {
		ev := *p.Availability
		ev.Total = nativeSelectors(ev.Total, names)
		ev.Failed = nativeSelectors(ev.Failed, names)
		ev.Inputs = slices.Clone(ev.Inputs)
		for i, in := range ev.Inputs {
			ev.Inputs[i].Native = names[strings.TrimSuffix(in.Name, "_count")]
		}
		p.Availability = &ev
	}
	p.Serving = withoutCounts(p.Serving, names)
	return p, true
}

// withoutCounts drops the serving metrics read from a histogram's _count,
// which a native histogram does not have: the dashboard's panels read
// counters with rate, not histogram_count.
func withoutCounts(s model.Serving, histograms map[string]bool) model.Serving {
	for _, sel := range []*model.Selector{&s.Completed, &s.Failures} {
		if name, ok := strings.CutSuffix(sel.Name, "_count"); ok && histograms[name] {
			*sel = model.Selector{}
		}
	}
	if s.Failures.IsZero() {
		s.FailureClass = ""
	}
	return s
}

// nativeSelectors reads each histogram's _count as the native histogram.
func nativeSelectors(sels []Selector, histograms map[string]bool) []Selector {
	out := slices.Clone(sels)
	for i, s := range out {
		if name, ok := strings.CutSuffix(s.Name, "_count"); ok && histograms[name] {
			out[i].Name, out[i].Native = name, true
		}
	}
	return out
}
