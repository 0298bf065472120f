package rules

import (
	"time"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/pql"
)

// sliQuery is one SLO's SLI over any window.
//
// Its errors read the SLO's request recording wherever they repeat the
// requests query, as a latency SLI does: all requests minus the fast ones.
// The group records the requests first, so at the same timestamp the
// recording holds exactly what the query would compute, and the raw series
// are read once instead of twice. Only an operand of arithmetic between two
// vectors with the default one-to-one matching is replaced, and the
// matching becomes on(), or on() the SLO's group_by labels: the
// recording's service and slo labels then match the query's none.
type sliQuery struct {
	svc        model.Service
	slo        model.SLO
	errs, reqs parser.Expr
	// recorded stands for the requests query in the errors query; it is
	// pointed at the window's recording before each copy.
	recorded *parser.VectorSelector
}

func newSLIQuery(svc model.Service, slo model.SLO) *sliQuery {
	errs, grouped := groupedSLI(slo)
	q := &sliQuery{svc: svc, slo: slo, reqs: grouped, recorded: &parser.VectorSelector{}}
	reqs := grouped.String()
	parser.Inspect(errs, func(n parser.Node, _ []parser.Node) error {
		if be, ok := n.(*parser.BinaryExpr); ok && plainArithmetic(be) {
			be.LHS = q.standIn(be, be.LHS, reqs)
			be.RHS = q.standIn(be, be.RHS, reqs)
		}
		return nil
	})
	if slo.Kind == model.Ratio && len(slo.GroupBy) > 0 {
		errs = q.zeroFilled(errs)
	}
	q.errs = errs
	return q
}

// zeroFilled is a split ratio SLO's errors, or zero for each value its
// requests recording has: a user's failure counter appears with the first
// failure, and its query sits inside an aggregation groupedSLI leaves to
// the user, so nothing else fills in the values that never failed.
func (q *sliQuery) zeroFilled(errs parser.Expr) parser.Expr {
	return pql.Or(errs, pql.Mul(q.recorded, pql.Num(0)), pql.On(q.slo.GroupBy...))
}

// standIn returns the request recording in place of operand when operand
// is the requests query, and operand otherwise.
func (q *sliQuery) standIn(be *parser.BinaryExpr, operand parser.Expr, reqs string) parser.Expr {
	if operand.String() != reqs {
		return operand
	}
	be.VectorMatching.On = true
	be.VectorMatching.MatchingLabels = q.slo.GroupBy
	return q.recorded
}

func (q *sliQuery) requests(w time.Duration) pql.Expr { return Rewindow(q.reqs, w, 0) }

// errors copies the errors tree with the stand-in pointing at the window's
// request recording: the copy keeps it when the stand-in moves on.
func (q *sliQuery) errors(w time.Duration) pql.Expr {
	*q.recorded = *SLOSeries(Requests(w), q.svc, q.slo)
	return Rewindow(q.errs, w, 0)
}

// plainArithmetic reports whether be is arithmetic between two vectors
// matched one-to-one on all their labels.
func plainArithmetic(be *parser.BinaryExpr) bool {
	vm := be.VectorMatching
	return !be.Op.IsComparisonOperator() && !be.Op.IsSetOperator() &&
		be.LHS.Type() == parser.ValueTypeVector && be.RHS.Type() == parser.ValueTypeVector &&
		vm != nil && vm.Card == parser.CardOneToOne && !vm.On && len(vm.MatchingLabels) == 0
}
