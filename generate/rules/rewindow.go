package rules

import (
	"fmt"
	"time"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/promcompat"
)

// Rewindow rewrites every range selector of q to read window, offset by
// offset, on its syntax tree: an SLI written over the base window becomes
// the same SLI over an hour, or over the same hour yesterday.
func Rewindow(q string, window, offset time.Duration) (string, error) {
	r, err := NewRewindower(q)
	if err != nil {
		return "", err
	}
	return r.At(window, offset), nil
}

// Rewindower parses a query once and prints it over any window, for the
// many windows of one SLI.
type Rewindower struct {
	expr parser.Expr
	sels []*parser.MatrixSelector
}

// NewRewindower parses q as Prometheus 2.42 would.
func NewRewindower(q string) (*Rewindower, error) {
	e, err := promcompat.Parser().ParseExpr(q)
	if err != nil {
		return nil, fmt.Errorf("rewindow %q: %w", q, err)
	}
	return rewindowerOf(e), nil
}

// rewindowerOf prints e over any window. It changes e's ranges in place.
func rewindowerOf(e parser.Expr) *Rewindower {
	r := &Rewindower{expr: e}
	parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
		if ms, ok := n.(*parser.MatrixSelector); ok {
			r.sels = append(r.sels, ms)
		}
		return nil
	})
	return r
}

// At prints the query with every range over window, offset by offset.
func (r *Rewindower) At(window, offset time.Duration) string {
	for _, ms := range r.sels {
		ms.Range = window
		if vs, ok := ms.VectorSelector.(*parser.VectorSelector); ok {
			vs.OriginalOffset = offset
		}
	}
	return r.expr.String()
}
