package gputests

import (
	"context"
	"fmt"
	"testing"

	"github.com/prometheus/prometheus/template"
)

// humanize writes what Prometheus's own humanize writes, across its
// prefixes: a queue_depth of 1000 puts 1005 requests in the annotation.
func TestHumanizeIsPrometheus(t *testing.T) {
	for _, x := range []float64{0, 1, 97.5, 999.96, 1005, 1234567, 0.5, 0.000123, -2500} {
		want, err := template.NewTemplateExpander(context.Background(), fmt.Sprintf("{{ %g | humanize }}", x), "t", nil, 0, nil, nil, nil).Expand()
		if err != nil {
			t.Fatal(err)
		}
		if got := humanize(x); got != want {
			t.Errorf("humanize(%g) = %q, Prometheus writes %q", x, got, want)
		}
	}
}
