package suggest

import "testing"

func TestDistance(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want int
	}{{"treshold", "threshold", 1}, {"selectors", "selector", 1}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"same", "same", 0}} {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
	}
}
