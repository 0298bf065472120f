package profile

import (
	"slices"

	"github.com/slogen-dev/slogen/internal/model"
)

// Reads are the metrics an SLO of kind k reads from this runtime: the
// request and failure counters, or the histogram's count and bucket. Nil
// for a kind the runtime cannot measure.
func (p Profile) Reads(k model.Kind) []Selector {
	if k == model.Availability {
		if p.Availability == nil {
			return nil
		}
		return slices.Concat(p.Availability.Total, p.Availability.Failed)
	}
	h := p.Histogram(k)
	if h == nil {
		return nil
	}
	if h.Native {
		return []Selector{{Name: h.Name, HasModel: h.HasModel, Matchers: h.Matchers, Native: true}}
	}
	return []Selector{{Name: h.Name + "_count", HasModel: h.HasModel, Matchers: h.Matchers}, {Name: h.Name + "_bucket", HasModel: h.HasModel, Matchers: h.Matchers}}
}

// Carries reports whether the exporter puts label on sel's series: the
// model label and the runtime's other per-model labels are on every
// metric that has the model label; slogen knows of no other label an SLO
// could split by.
func (p Profile) Carries(sel Selector, label string) bool {
	return sel.HasModel && (label == p.ModelLabel && label != "" || slices.Contains(p.ModelLabels, label))
}

// Groupable lists the labels an SLO of kind k can be grouped by.
func (p Profile) Groupable(k model.Kind) []string {
	var out []string
	reads := p.Reads(k)
	for _, l := range append([]string{p.ModelLabel}, p.ModelLabels...) {
		if l == "" {
			continue
		}
		if len(reads) > 0 && !slices.ContainsFunc(reads, func(s Selector) bool { return !p.Carries(s, l) }) {
			out = append(out, l)
		}
	}
	return out
}

// ServesAnyKind reports whether the runtime's metrics serve an SLO kind
// of slogen's own; a runtime that serves none (llama.cpp) may run with
// no SLO, watched by its serving alerts and dashboard alone. Custom's
// entry serves what its spec names, so it counts as serving.
func (p Profile) ServesAnyKind() bool {
	if p.Runtime == CustomRuntime {
		return true
	}
	for _, k := range append([]model.Kind{model.Availability}, model.LatencyKinds...) {
		if len(p.Reads(k)) > 0 {
			return true
		}
	}
	return false
}
