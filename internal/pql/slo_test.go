package pql

import (
	"testing"
	"time"

	"github.com/prometheus/prometheus/promql/parser"
)

func TestLinesIsTheLoneOperandOrAChain(t *testing.T) {
	a, b := Gt(Metric("a"), Num(1)), Gt(Metric("b"), Num(1))
	means(t, Lines(parser.LOR, Match{}, a), "a > 1")
	means(t, Lines(parser.LOR, Match{}, a, b), "a > 1\nor\nb > 1")
}

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

func TestRangeSecondsWritesWholeSeconds(t *testing.T) {
	means(t, RangeSeconds(Metric("up", Eq("job", "a")), 24*time.Hour+1500*time.Millisecond), `up{job="a"}[86401s]`)
}
