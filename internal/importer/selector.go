package importer

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	prommodel "github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/model"
)

// Scope gives each service the selector its queries share, and takes the
// selector's matchers out of its ratio SLOs' queries, since slogen adds
// the service's selector to every metric they read. A custom service's
// selector is the equality matchers every metric of every carried query
// has (job, namespace): slogen's traffic-drop alert and scrape config
// read it too, and its generated tests need it out of the queries.
func Scope(services []Service) {
	for i := range services {
		s := &services[i]
		if s.Runtime == CustomRuntime && len(s.Selector) == 0 {
			s.Selector = shared(s.SLOs)
			if len(s.Selector) > 0 {
				s.Notes.Changed = append(s.Notes.Changed, fmt.Sprintf("selector {%s}: the matchers every metric of its SLOs' queries has", selectorString(s.Selector)))
			}
		}
		for j := range s.SLOs {
			unscope(&s.SLOs[j], s.Selector)
		}
	}
}

// shared are the equality matchers on every selector of every carried
// ratio SLO's queries.
func shared(slos []SLO) []Label {
	var common map[string]string
	for _, slo := range slos {
		if slo.Skip || slo.Kind != "ratio" {
			continue
		}
		for _, q := range []string{slo.Bad, slo.Total} {
			for _, vs := range selectors(q) {
				mine := map[string]string{}
				for _, m := range vs.LabelMatchers {
					if m.Type == labels.MatchEqual && m.Name != labels.MetricName {
						mine[m.Name] = m.Value
					}
				}
				if common == nil {
					common = mine
					continue
				}
				maps.DeleteFunc(common, func(k, v string) bool { return mine[k] != v })
			}
		}
	}
	var out []Label
	for _, k := range slices.Sorted(maps.Keys(common)) {
		out = append(out, Label{Key: k, Value: common[k]})
	}
	return out
}

// unscope takes the selector's matchers out of a ratio SLO's queries,
// and says so, or that slogen adds them where a metric lacked them.
func unscope(slo *SLO, selector []Label) {
	if slo.Skip || slo.Kind != "ratio" || len(selector) == 0 {
		return
	}
	all := true
	for _, q := range []*string{&slo.Bad, &slo.Total} {
		e, err := Parse(*q)
		if err != nil {
			return
		}
		removed := false
		parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
			vs, ok := n.(*parser.VectorSelector)
			if !ok {
				return nil
			}
			before := len(vs.LabelMatchers)
			vs.LabelMatchers = slices.DeleteFunc(vs.LabelMatchers, func(m *labels.Matcher) bool {
				return m.Type == labels.MatchEqual && slices.Contains(selector, Label{Key: m.Name, Value: m.Value})
			})
			all = all && before-len(vs.LabelMatchers) == len(selector)
			removed = removed || before != len(vs.LabelMatchers)
			return nil
		})
		if removed {
			*q = Print(e)
		}
	}
	note := "the queries' matchers {%s} are the service's selector, which slogen adds to every metric they read"
	if !all {
		note = "slogen adds the service's selector {%s} to every metric the queries read, which not all of them matched"
	}
	slo.Notes.Changed = append(slo.Notes.Changed, fmt.Sprintf(note, selectorString(selector)))
}

func selectors(q string) []*parser.VectorSelector {
	e, err := Parse(q)
	if err != nil {
		return nil
	}
	return selectorsOf(e)
}

// Print writes an expression Parse read, its 5m ranges as $window.
func Print(e parser.Expr) string {
	base := "[" + prommodel.Duration(model.BaseWindow).String() + "]"
	return strings.ReplaceAll(e.String(), base, "["+WindowVar+"]")
}

func selectorString(ls []Label) string {
	var out []string
	for _, l := range ls {
		out = append(out, fmt.Sprintf("%s=%q", l.Key, l.Value))
	}
	return strings.Join(out, ", ")
}
