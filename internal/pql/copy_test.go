package pql

import (
	"testing"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"
)

// A rewritten copy leaves the model's tree as it was.
func TestCopyIsDeep(t *testing.T) {
	q := `-sum by (a) (rate(x{b="c"}[5m] offset 1h)) / on (a) group_left (d) (topk(2, y) or vector(1))` +
		` + max_over_time(z[10m:1m]) + label_replace(w, "e", "$1", "f", "(.*)")`
	orig, err := parser.NewParser(parser.Options{}).ParseExpr(q)
	if err != nil {
		t.Fatal(err)
	}
	before := orig.String()
	c := Copy(orig)
	if c.String() != before {
		t.Fatalf("copy prints\n%s\nnot\n%s", c, before)
	}
	parser.Inspect(c, func(n parser.Node, _ []parser.Node) error {
		switch n := n.(type) {
		case *parser.MatrixSelector:
			n.Range *= 2
		case *parser.VectorSelector:
			n.Name = "renamed"
			n.LabelMatchers[0] = labels.MustNewMatcher(labels.MatchEqual, "h", "i")
		case *parser.AggregateExpr:
			n.Grouping = append(n.Grouping[:0], "g")
		case *parser.BinaryExpr:
			if n.VectorMatching != nil {
				n.VectorMatching.MatchingLabels = append(n.VectorMatching.MatchingLabels[:0], "m")
			}
		case *parser.Call:
			n.Args[0] = &parser.NumberLiteral{Val: 7}
		case *parser.NumberLiteral:
			n.Val = 42
		case *parser.StringLiteral:
			n.Val = "changed"
		}
		return nil
	})
	if after := orig.String(); after != before {
		t.Errorf("rewriting the copy changed the original:\n%s\nwas\n%s", after, before)
	}
}
