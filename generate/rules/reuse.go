package rules

import (
	"github.com/prometheus/prometheus/promql/parser"
	"github.com/slogen-dev/slogen/internal/promcompat"
)

// readingRequests rewrites an errors query, already over its window, to
// read the SLO's request rate over that window from its recording wherever
// it repeats the requests query, as a latency SLI does: all requests
// minus the fast ones. The group records the requests first, so at the
// same timestamp the recording holds exactly what the query would
// compute, and the raw series are read once instead of twice.
//
// Only an operand of arithmetic between two vectors is replaced, and only
// with the default one-to-one matching, which becomes on(): the recording's
// service and slo labels then match the query's none.
func readingRequests(errs, reqs string, requests *parser.VectorSelector) string {
	tree, err := promcompat.Parser().ParseExpr(errs)
	if err != nil {
		panic(err) // printed by slogen from a parsed SLI: a slogen bug
	}
	parser.Inspect(tree, func(n parser.Node, _ []parser.Node) error {
		be, ok := n.(*parser.BinaryExpr)
		if !ok || !plainArithmetic(be) {
			return nil
		}
		if be.LHS.String() == reqs {
			be.LHS, be.VectorMatching.On = requests, true
		}
		if be.RHS.String() == reqs {
			be.RHS, be.VectorMatching.On = requests, true
		}
		return nil
	})
	return tree.String()
}

// plainArithmetic reports whether be is arithmetic between two vectors
// matched one-to-one on all their labels.
func plainArithmetic(be *parser.BinaryExpr) bool {
	vm := be.VectorMatching
	return !be.Op.IsComparisonOperator() && !be.Op.IsSetOperator() &&
		be.LHS.Type() == parser.ValueTypeVector && be.RHS.Type() == parser.ValueTypeVector &&
		vm != nil && vm.Card == parser.CardOneToOne && !vm.On && len(vm.MatchingLabels) == 0
}
