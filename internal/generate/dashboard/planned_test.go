package dashboard

import (
	"testing"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/pql"
)

func TestNarrowedLeavesThePlansTreeAlone(t *testing.T) {
	a := pql.Metric("a", pql.Eq("job", "dcgm"))
	plan := pql.Max(pql.Div(a, pql.Add(a, pql.Metric("b"))), pql.By("gpu"))
	got := narrowed(plan, []*labels.Matcher{re("gpu", "$gpu")})
	if want := `max by (gpu) (a{gpu=~"$gpu",job="dcgm"} / (a{gpu=~"$gpu",job="dcgm"} + b{gpu=~"$gpu"}))`; pql.Print(got) != want {
		t.Errorf("narrowed to\n%s\nwant\n%s", pql.Print(got), want)
	}
	if want := `max by (gpu) (a{job="dcgm"} / (a{job="dcgm"} + b))`; pql.Print(plan) != want {
		t.Errorf("narrowing changed the plan's tree to %s", pql.Print(plan))
	}
}
