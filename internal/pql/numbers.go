package pql

import (
	"strconv"

	"github.com/prometheus/prometheus/promql/parser"
)

// Num is a number, printed with as many digits as it needs and no
// exponent: 0.001, 1.5, 86400.
func Num(f float64) *parser.NumberLiteral { return &parser.NumberLiteral{Val: f} }

// Decimal is a number written as text says, where Num would write it
// otherwise: an exact figure as model.FormatRat writes it (12
// significant digits at most, where the float may need 16), a float as
// Go's %g writes it (1e-05, where Num writes 0.00001), or with the
// exponent a reader reads best (1e9 nanoseconds in a second). Its tree
// holds the number; text that is not a number is a bug.
func Decimal(text string) Expr {
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		panic("pql.Decimal: " + err.Error())
	}
	return &laid{Expr: Num(f), write: func(dst []byte) []byte { return append(dst, text...) }}
}
