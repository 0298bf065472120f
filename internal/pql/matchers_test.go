package pql

import "testing"

func TestOneOfMatchesValuesLiterally(t *testing.T) {
	means(t, Metric("ALERTS", OneOf("slo", "ttft", "a.b|c")), `ALERTS{slo=~"ttft|a\\.b\\|c"}`)
	means(t, Metric("ALERTS", NoneOf("tier", "page")), `ALERTS{tier!~"page"}`)
	m := OneOf("slo", "a.b", "c")
	for v, want := range map[string]bool{"a.b": true, "c": true, "axb": false, "a.b|c": false} {
		if m.Matches(v) != want {
			t.Errorf("OneOf(a.b, c) matches %q: %v, want %v", v, !want, want)
		}
	}
}
