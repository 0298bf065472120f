package importer

import (
	"fmt"
	"slices"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"
)

// Complement writes bad events as one counter where good and total read
// the same counter and good has one matcher more: bad is total with that
// matcher negated, which every series the total reads matches exactly
// when it does not match good's (code!~"5.." and code=~"5.."). ok is
// false for any other pair, and the matcher is returned for the report.
func Complement(good, total string) (bad, matcher string, ok bool) {
	g, err := Parse(good)
	if err != nil {
		return "", "", false
	}
	t, err := Parse(total)
	if err != nil {
		return "", "", false
	}
	gs, ts := selectorsOf(g), selectorsOf(t)
	if len(gs) != 1 || len(ts) != 1 || gs[0].Name != ts[0].Name {
		return "", "", false
	}
	extra := slices.DeleteFunc(slices.Clone(gs[0].LabelMatchers), func(m *labels.Matcher) bool {
		return slices.ContainsFunc(ts[0].LabelMatchers, func(o *labels.Matcher) bool { return o.String() == m.String() })
	})
	if len(extra) != 1 || len(gs[0].LabelMatchers) != len(ts[0].LabelMatchers)+1 {
		return "", "", false
	}
	// The good query must be the total query but for the matcher.
	ts[0].LabelMatchers = append(ts[0].LabelMatchers, extra[0])
	if Print(t) != Print(g) {
		return "", "", false
	}
	neg := Negate(extra[0])
	ts[0].LabelMatchers[len(ts[0].LabelMatchers)-1] = neg
	return Print(t), fmt.Sprint(neg), true
}

// Negate is the matcher that matches exactly the values m does not.
func Negate(m *labels.Matcher) *labels.Matcher {
	t := map[labels.MatchType]labels.MatchType{labels.MatchEqual: labels.MatchNotEqual, labels.MatchNotEqual: labels.MatchEqual, labels.MatchRegexp: labels.MatchNotRegexp, labels.MatchNotRegexp: labels.MatchRegexp}[m.Type]
	return labels.MustNewMatcher(t, m.Name, m.Value)
}

// selectorsOf are e's own vector selectors, not copies (pql.Selectors):
// Complement rewrites the total's in place.
func selectorsOf(e parser.Expr) []*parser.VectorSelector {
	var out []*parser.VectorSelector
	parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
		if vs, ok := n.(*parser.VectorSelector); ok {
			out = append(out, vs)
		}
		return nil
	})
	return out
}
