package profile

import (
	"fmt"
	"strings"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	slomodel "github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/pql"
	"github.com/slogen-dev/slogen/internal/promcompat"
)

// WindowVar is what ratio queries write for their range: slogen reads raw
// series over one base window only and builds the rest from recordings.
const WindowVar = "$window"

// RatioSLI turns user PromQL for bad and total events per second into an
// SLI, adding the scope's selector to every metric it reads.
func RatioSLI(s Scope, bad, total string) (slomodel.SLI, error) {
	badExpr, err := ratioExpr("bad", bad, s)
	if err != nil {
		return slomodel.SLI{}, err
	}
	totalExpr, err := ratioExpr("total", total, s)
	if err != nil {
		return slomodel.SLI{}, err
	}
	return slomodel.SLI{
		Errors:   sum(badExpr),
		Requests: sum(totalExpr),
		Inputs:   ratioInputs(badExpr, totalExpr),
	}, nil
}

func ratioExpr(field, q string, s Scope) (parser.Expr, error) {
	e, err := promcompat.Parser().ParseExpr(strings.ReplaceAll(q, WindowVar, window()))
	if err != nil {
		return nil, fmt.Errorf("%s: not valid PromQL for Prometheus 2.42: %w", field, err)
	}
	if err := promcompat.LegacyNames(e); err != nil {
		return nil, fmt.Errorf("%s: %w", field, err)
	}
	if e.Type() != parser.ValueTypeVector {
		return nil, fmt.Errorf("%s: must return an instant vector of events per second, like sum(rate(requests_total{code=~\"5..\"}[$window])); got a %s", field, e.Type())
	}
	var errs []string
	parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
		switch n := n.(type) {
		case *parser.MatrixSelector:
			if n.Range != slomodel.BaseWindow {
				errs = append(errs, fmt.Sprintf("%s: range %s: write [%s]; slogen reads raw series over %s and builds longer windows from recordings", field, n.Range, WindowVar, window()))
			}
		case *parser.VectorSelector:
			for _, l := range s.Selector {
				n.LabelMatchers = append(n.LabelMatchers, eq(l.Name, l.Value))
			}
		}
		return nil
	})
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return e, nil
}

// ratioInputs can synthesise traffic only when each query reads a single
// counter, or bad is total minus a counter of good events (goodCounter);
// anything more complex goes untested, and vet says so.
func ratioInputs(bad, total parser.Expr) []slomodel.Input {
	t, okT := singleSelector(total)
	if !okT {
		return nil
	}
	var ins []Input
	if b, ok := singleSelector(bad); ok {
		ins = eventInputs(t, b)
	} else if g, ok := goodCounter(bad, total, t); ok {
		ins = []Input{
			{Name: t.Name, Labels: equalities(t.Matchers), HasModel: true, Good: 1, Bad: 1},
			{Name: g.Name, Labels: equalities(g.Matchers), HasModel: true, Good: 1},
		}
	}
	var out []slomodel.Input
	for _, in := range ins {
		// The user's queries carry the scope already; add nothing to them.
		out = append(out, slomodel.Input{Series: Scope{}.labels(in), Good: in.Good, Bad: in.Bad})
	}
	return out
}

// goodCounter reads bad written as the total query minus one counter of
// good events of another metric, (total) - (good), such as a histogram's
// count minus its bucket under a threshold: the good counter's selector.
func goodCounter(bad, total parser.Expr, t Selector) (Selector, bool) {
	diff, ok := pql.Unparen(bad).(*parser.BinaryExpr)
	if !ok || diff.Op != parser.SUB || diff.VectorMatching == nil || diff.VectorMatching.On || len(diff.VectorMatching.MatchingLabels) > 0 {
		return Selector{}, false
	}
	if pql.Unparen(diff.LHS).String() != pql.Unparen(total).String() {
		return Selector{}, false
	}
	g, ok := singleSelector(diff.RHS)
	return g, ok && g.Name != t.Name
}

func singleSelector(e parser.Expr) (Selector, bool) {
	var found []*parser.VectorSelector
	parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
		if vs, ok := n.(*parser.VectorSelector); ok {
			found = append(found, vs)
		}
		return nil
	})
	if len(found) != 1 || found[0].Name == "" {
		return Selector{}, false
	}
	var ms []*labels.Matcher
	for _, m := range found[0].LabelMatchers {
		if m.Name != labels.MetricName {
			ms = append(ms, m)
		}
	}
	return Selector{Name: found[0].Name, Matchers: ms}, true
}
