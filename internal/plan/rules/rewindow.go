package rules

import (
	"time"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/model"
)

// Rewindow is e with every range selector over window, offset by offset,
// on a copy of its syntax tree: an SLI written over the base window
// becomes the same SLI over an hour, or over the same hour yesterday.
func Rewindow(e parser.Expr, window, offset time.Duration) parser.Expr {
	c := model.CopyExpr(e)
	rewindowerOf(c).set(window, offset)
	return c
}

// rewindower prints one tree over any window, for the many windows of one
// SLI.
type rewindower struct {
	expr parser.Expr
	sels []*parser.MatrixSelector
}

// rewindowerOf prints e over any window. It changes e's ranges in place.
func rewindowerOf(e parser.Expr) *rewindower {
	r := &rewindower{expr: e}
	parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
		if ms, ok := n.(*parser.MatrixSelector); ok {
			r.sels = append(r.sels, ms)
		}
		return nil
	})
	return r
}

// At prints the query with every range over window, offset by offset.
func (r *rewindower) At(window, offset time.Duration) string {
	r.set(window, offset)
	return r.expr.String()
}

func (r *rewindower) set(window, offset time.Duration) {
	for _, ms := range r.sels {
		ms.Range = window
		if vs, ok := ms.VectorSelector.(*parser.VectorSelector); ok {
			vs.OriginalOffset = offset
		}
	}
}
