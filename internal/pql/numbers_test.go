package pql

import "testing"

func TestDecimalWritesTheNumberAsGiven(t *testing.T) {
	means(t, Call("vector", Decimal("1e-05")), "vector(1e-05)")
	means(t, Div(Paren(Metric("a")), Decimal("0.0005")), "(a) / 0.0005")
	means(t, Call("vector", Decimal("-1")), "vector(-1)")
	means(t, Div(Metric("a"), Decimal("1e9")), "a / 1e9")
}

func TestDecimalRefusesText(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a word was taken for a number")
		}
	}()
	Decimal("$budget")
}
