package recognise

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/importer"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/profile"
)

// match is an SLO whose queries are a runtime's SLI.
type match struct {
	p         profile.Profile
	kind      model.Kind
	threshold string
	model     string
	selector  []importer.Label
	// generic: the counters are ones any HTTP app may export
	// (http_requests_total), which alone do not tell the runtime.
	generic bool
	// hasModel: the metrics carry the model label, so the model the
	// queries match must be the service's.
	hasModel bool
	what     string // the metrics, for the report
}

// fits says the match's SLO can be one of a service scoped by the other.
func (m match) fits(service match) bool {
	return m.p.Runtime == service.p.Runtime && m.p.Since == service.p.Since &&
		selector(m.selector) == selector(service.selector) && (!m.hasModel || m.model == service.model)
}

// scope is the service a match asks for: runtime, generation, model and
// selector.
func (m match) scope() string {
	var sel []string
	for _, l := range m.selector {
		sel = append(sel, fmt.Sprintf("%s=%q", l.Key, l.Value))
	}
	return fmt.Sprintf("%s %s model %q selector {%s}", m.p.Runtime, m.p.Since, m.model, strings.Join(sel, ", "))
}

// find is the first runtime generation in the profile table whose SLI
// the queries are; why says why a histogram of the table did not fit, ""
// when none is near.
func find(bad, total string) (m match, ok bool, why string) {
	r, ok := shape(bad, total)
	if !ok {
		return match{}, false, ""
	}
	for _, p := range profile.Runtimes() {
		if m, ok, w := histogram(p, r); ok {
			return m, true, ""
		} else if why == "" {
			why = w
		}
		if m, ok := availability(p, r); ok {
			return m, true, ""
		}
	}
	return match{}, false, why
}

// histogram matches sum(rate(h_bucket{le="x"})) over sum(rate(h_count)):
// a latency kind with threshold x, which must be one of h's buckets.
func histogram(p profile.Profile, r ratio) (match, bool, string) {
	base, isCount := strings.CutSuffix(r.total.Name, "_count")
	if !isCount || !r.good || r.part.Name != base+"_bucket" {
		return match{}, false, ""
	}
	for _, k := range model.LatencyKinds {
		h := p.Histogram(k)
		if h == nil || h.Native || h.Name != base {
			continue
		}
		le := leOf(r.part)
		if le == nil {
			return match{}, false, ""
		}
		totalRest, okT := rest(r.total, h.Matchers...)
		partRest, okP := rest(r.part, append(slices.Clone(h.Matchers), le)...)
		if !okT || !okP || !same(totalRest, partRest) {
			return match{}, false, ""
		}
		v, err := strconv.ParseFloat(le.Value, 64)
		if err != nil {
			return match{}, false, ""
		}
		bound, ok, below, above := h.Boundary(time.Duration(v * h.Unit * float64(time.Second)))
		if !ok {
			return match{}, false, fmt.Sprintf("its queries read %s's %s histogram %s, but le=%q is not one of its buckets (nearest: %s and %s), so slogen keeps the queries", p.Title, k, h.Name, le.Value, h.Le(below), h.Le(above))
		}
		m := match{p: p, kind: k, threshold: h.Seconds(bound), what: fmt.Sprintf("%s's %s histogram %s under le=%q over its count", p.Title, k, h.Name, le.Value)}
		return m, m.scoped(totalRest, h.HasModel), ""
	}
	return match{}, false, ""
}

// availability matches sum(rate(failed)) over sum(rate(total)), or total
// minus the requests that did not fail, for a runtime with one counter of
// each.
func availability(p profile.Profile, r ratio) (match, bool) {
	ev := p.Availability
	if ev == nil || len(ev.Total) != 1 || len(ev.Failed) != 1 || ev.Total[0].Native {
		return match{}, false
	}
	total, failed := ev.Total[0], ev.Failed[0]
	if r.total.Name != total.Name || r.part.Name != failed.Name {
		return match{}, false
	}
	partMatchers := failed.Matchers
	if r.good {
		// Good is the total's counter without the failures: only a
		// single matcher can be negated.
		if failed.Name != total.Name || len(failed.Matchers) != 1 {
			return match{}, false
		}
		partMatchers = []*labels.Matcher{importer.Negate(failed.Matchers[0])}
	}
	totalRest, okT := rest(r.total, total.Matchers...)
	partRest, okP := rest(r.part, partMatchers...)
	if !okT || !okP || !same(totalRest, partRest) {
		return match{}, false
	}
	m := match{p: p, kind: model.Availability, generic: strings.HasPrefix(total.Name, "http_"),
		what: fmt.Sprintf("%s's availability SLI, %s over %s", p.Title, r.part, r.total)}
	return m, m.scoped(totalRest, total.HasModel)
}

// scoped reads the model and the selector from what the queries match
// besides the SLI's own matchers: equalities only.
func (m *match) scoped(ms []*labels.Matcher, hasModel bool) bool {
	m.hasModel = hasModel && m.p.ModelLabel != ""
	for _, l := range ms {
		switch {
		case l.Type != labels.MatchEqual:
			return false
		case hasModel && l.Name == m.p.ModelLabel && m.p.ModelLabel != "":
			m.model = l.Value
		default:
			m.selector = append(m.selector, importer.Label{Key: l.Name, Value: l.Value})
		}
	}
	slices.SortFunc(m.selector, func(a, b importer.Label) int { return strings.Compare(a.Key, b.Key) })
	return true
}

// leOf is a bucket selector's le="x" matcher; nil for any other.
func leOf(vs *parser.VectorSelector) *labels.Matcher {
	for _, m := range vs.LabelMatchers {
		if m.Name == "le" && m.Type == labels.MatchEqual {
			return m
		}
	}
	return nil
}
