package pql

import "testing"

func TestDecimalWritesTheNumberAsGiven(t *testing.T) {
	means(t, Call("vector", Decimal("1e-05")), "vector(1e-05)")
	means(t, Div(Paren(Metric("a")), Decimal("0.0005")), "(a) / 0.0005")
	means(t, Call("vector", Decimal("-1")), "vector(-1)")
}

func TestDecimalRefusesText(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("a word was taken for a number")
		}
	}()
	Decimal("$budget")
}

func TestTightWritesMatchingWithoutSpaces(t *testing.T) {
	a, b := Sum(Metric("a"), By("err")), Sum(Metric("b"))
	means(t, Tight(Div(a, Paren(b), On().GroupLeft())), "sum by (err) (a) / on() group_left() (sum(b))")
	means(t, Tight(Div(Metric("a"), Metric("b"), Ignoring("le").GroupRight("x"))), "a / ignoring(le) group_right(x) b")
	means(t, Tight(Gt(Metric("a"), Num(1), Bool)), "a > bool 1")
	means(t, Tight(Div(Metric("a"), Metric("b"))), "a / b")
}
