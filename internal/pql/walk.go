package pql

import "github.com/prometheus/prometheus/promql/parser"

// Selectors are copies of the vector selectors of e, in the order printed.
func Selectors(e Expr) []*parser.VectorSelector {
	var out []*parser.VectorSelector
	parser.Inspect(Copy(e), func(n parser.Node, _ []parser.Node) error {
		if vs, ok := n.(*parser.VectorSelector); ok {
			out = append(out, vs)
		}
		return nil
	})
	return out
}
