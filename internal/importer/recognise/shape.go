package recognise

import (
	"slices"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/importer"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/pql"
)

// ratio is an SLO's queries read as counters: total, and the good or the
// bad events' counter.
type ratio struct {
	total, part *parser.VectorSelector
	good        bool // part counts good events: bad is total minus part
}

// shape reads bad and total as sum(rate(counter[$window])) each, or bad
// as total minus such a sum of good events; ok is false for anything else.
func shape(bad, total string) (ratio, bool) {
	t, err := importer.Parse(total)
	if err != nil {
		return ratio{}, false
	}
	b, err := importer.Parse(bad)
	if err != nil {
		return ratio{}, false
	}
	tsel, ok := counted(t)
	if !ok {
		return ratio{}, false
	}
	if sel, ok := counted(b); ok {
		return ratio{total: tsel, part: sel}, true
	}
	diff, ok := pql.Unparen(b).(*parser.BinaryExpr)
	if !ok || diff.Op != parser.SUB || diff.VectorMatching != nil && (len(diff.VectorMatching.MatchingLabels) > 0 || diff.VectorMatching.Card != parser.CardOneToOne) {
		return ratio{}, false
	}
	lhs, okL := counted(diff.LHS)
	rhs, okR := counted(diff.RHS)
	if !okL || !okR || lhs.String() != tsel.String() {
		return ratio{}, false
	}
	return ratio{total: tsel, part: rhs, good: true}, true
}

// counted is the selector of sum(rate(selector[$window])), with no
// grouping, offset or @.
func counted(e parser.Expr) (*parser.VectorSelector, bool) {
	agg, ok := pql.Unparen(e).(*parser.AggregateExpr)
	if !ok || agg.Op != parser.SUM || len(agg.Grouping) > 0 || agg.Without {
		return nil, false
	}
	call, ok := pql.Unparen(agg.Expr).(*parser.Call)
	if !ok || call.Func.Name != "rate" || len(call.Args) != 1 {
		return nil, false
	}
	ms, ok := call.Args[0].(*parser.MatrixSelector)
	if !ok || ms.Range != model.BaseWindow {
		return nil, false
	}
	vs, ok := ms.VectorSelector.(*parser.VectorSelector)
	if !ok || vs.OriginalOffset != 0 || vs.Timestamp != nil || vs.StartOrEnd != 0 || vs.Name == "" {
		return nil, false
	}
	return vs, true
}

// rest is a selector's matchers but its name and the ones given; ok is
// false when one given is not among them.
func rest(vs *parser.VectorSelector, drop ...*labels.Matcher) ([]*labels.Matcher, bool) {
	var out []*labels.Matcher
	found := 0
	for _, m := range vs.LabelMatchers {
		switch {
		case m.Name == labels.MetricName:
		case slices.ContainsFunc(drop, func(d *labels.Matcher) bool { return d.String() == m.String() }):
			found++
		default:
			out = append(out, m)
		}
	}
	return out, found == len(drop)
}

// same says two lists of matchers hold the same matchers.
func same(a, b []*labels.Matcher) bool {
	key := func(ms []*labels.Matcher) []string {
		var out []string
		for _, m := range ms {
			out = append(out, m.String())
		}
		slices.Sort(out)
		return out
	}
	return slices.Equal(key(a), key(b))
}
