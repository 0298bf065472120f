package profile

import (
	"fmt"
	"testing"

	"github.com/prometheus/prometheus/model/labels"
)

// A ratio SLO whose bad is its total minus a counter of good events of
// another metric (a histogram's count minus its bucket under a bound)
// gets generated tests: the count counts every request, the bucket the
// good ones. Minus anything else, it gets none.
func TestTotalMinusAGoodCounterIsStaged(t *testing.T) {
	scope := Scope{Selector: []labels.Label{{Name: "job", Value: "api"}}}
	total := `sum(rate(h_count[$window]))`
	sli, err := RatioSLI(scope, total+` - sum(rate(h_bucket{le="0.3"}[$window]))`, total)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, in := range sli.Inputs {
		got[in.Series.String()] = fmt.Sprintf("good %v bad %v", in.Good, in.Bad)
	}
	want := map[string]string{
		`{__name__="h_count", job="api"}`:            "good 1 bad 1",
		`{__name__="h_bucket", job="api", le="0.3"}`: "good 1 bad 0",
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("inputs = %v, want %v", got, want)
	}
	for _, bad := range []string{
		`sum(rate(other_count[$window])) - sum(rate(h_bucket{le="0.3"}[$window]))`,
		total + ` - sum(rate(h_count{code="500"}[$window]))`,
		total + ` - ignoring (le) sum(rate(h_bucket{le="0.3"}[$window]))`,
	} {
		sli, err := RatioSLI(scope, bad, total)
		if err != nil {
			t.Fatal(err)
		}
		if sli.Inputs != nil {
			t.Errorf("bad %s is staged: %v", bad, sli.Inputs)
		}
	}
}
