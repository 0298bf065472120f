package importer

import (
	"strconv"
	"strings"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/promcompat"
)

// WindowVar is what slogen's ratio SLO writes for the range it fills in
// (profile.WindowVar).
const WindowVar = "$window"

// Parse reads a query slogen writes, $window standing for its 5m base
// window, as Prometheus 2.42 does.
func Parse(q string) (parser.Expr, error) {
	return promcompat.Parser().ParseExpr(strings.ReplaceAll(q, WindowVar, "5m"))
}

// FirstMetric is the metric the first carried SLO counts its events
// with: custom's metrics.requests.
func FirstMetric(slos []SLO) string {
	for _, s := range slos {
		for _, q := range []string{s.Total, s.Bad} {
			if name := QueryMetric(q); !s.Skip && name != "" {
				return name
			}
		}
	}
	return ""
}

// QueryMetric is the first metric q selects, or "" when it selects none
// or does not parse.
func QueryMetric(q string) string {
	e, err := Parse(q)
	if err != nil {
		return ""
	}
	name := ""
	parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
		if vs, ok := n.(*parser.VectorSelector); ok && name == "" {
			name = vs.Name
		}
		return nil
	})
	return name
}

// Percent writes an objective as the spec does.
func Percent(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
