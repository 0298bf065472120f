package rules

import (
	"time"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/pql"
)

// Rewindow is e with every range selector over window, offset by offset,
// on a copy of its syntax tree: an SLI written over the base window
// becomes the same SLI over an hour, or over the same hour yesterday.
func Rewindow(e parser.Expr, window, offset time.Duration) parser.Expr {
	c := pql.Copy(e)
	parser.Inspect(c, func(n parser.Node, _ []parser.Node) error {
		if ms, ok := n.(*parser.MatrixSelector); ok {
			ms.Range = window
			if vs, ok := ms.VectorSelector.(*parser.VectorSelector); ok {
				vs.OriginalOffset = offset
			}
		}
		return nil
	})
	return c
}
