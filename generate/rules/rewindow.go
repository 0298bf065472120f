package rules

import (
	"fmt"
	"time"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/promcompat"
)

// Rewindow rewrites every range selector of q to read window, offset by
// offset, on its syntax tree: an SLI written over the base window becomes
// the same SLI over an hour, or over the same hour yesterday.
func Rewindow(q string, window, offset time.Duration) (string, error) {
	e, err := promcompat.Parser().ParseExpr(q)
	if err != nil {
		return "", fmt.Errorf("rewindow %q: %w", q, err)
	}
	parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
		if ms, ok := n.(*parser.MatrixSelector); ok {
			ms.Range = window
			if vs, ok := ms.VectorSelector.(*parser.VectorSelector); ok {
				vs.OriginalOffset = offset
			}
		}
		return nil
	})
	return e.String(), nil
}
