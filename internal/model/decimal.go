package model

import (
	"math/big"
	"strings"
)

// FormatRat writes r in plain decimal: exactly when the expansion ends
// (0.005, 14.4), else rounded to 12 significant digits (0.933333333333).
// Floating point would write 1-0.999 as 0.0009999999999999432.
func FormatRat(r *big.Rat) string {
	if s, exact := r.FloatPrec(); exact {
		return trimZeros(r.FloatString(s))
	}
	f, _ := r.Float64()
	return trimZeros(big.NewFloat(f).Text('f', significantDecimals(f)))
}

// significantDecimals is how many decimals keep 12 significant digits of f.
func significantDecimals(f float64) int {
	d := 11
	for a := abs(f); a >= 10 && d > 0; a /= 10 {
		d--
	}
	for a := abs(f); a > 0 && a < 1; a *= 10 {
		d++
	}
	return d
}

func abs(f float64) float64 {
	if f < 0 {
		return -f
	}
	return f
}

func trimZeros(s string) string {
	if strings.Contains(s, ".") {
		s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	}
	return s
}
