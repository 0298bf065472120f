package model

import (
	"testing"

	"github.com/prometheus/prometheus/model/labels"
)

// The PrometheusRules carry the operator labels, or scrape.monitor_labels
// without them; the monitors carry both, sorted, an operator label (a
// flag's) winning a name both set.
func TestOperatorLabels(t *testing.T) {
	ls := func(kv ...string) []labels.Label {
		var out []labels.Label
		for i := 0; i < len(kv); i += 2 {
			out = append(out, labels.Label{Name: kv[i], Value: kv[i+1]})
		}
		return out
	}
	tests := map[string]struct {
		operator, monitor, rules, monitors []labels.Label
	}{
		"Monitor labels alone label both.":        {nil, ls("release", "a"), ls("release", "a"), ls("release", "a")},
		"Operator labels alone label both.":       {ls("release", "a"), nil, ls("release", "a"), ls("release", "a")},
		"Monitors carry both, sorted.":            {ls("release", "a"), ls("app", "x"), ls("release", "a"), ls("app", "x", "release", "a")},
		"An operator label wins a name both set.": {ls("release", "flag"), ls("release", "spec"), ls("release", "flag"), ls("release", "flag")},
		"No labels at all.":                       {nil, nil, nil, nil},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			svc := Service{Operator: Operator{Labels: tc.operator}, Scrape: Scrape{MonitorLabels: tc.monitor}}
			if got := svc.RuleLabels(); !labels.Equal(labels.New(got...), labels.New(tc.rules...)) {
				t.Errorf("rule labels %v, want %v", got, tc.rules)
			}
			got := svc.MonitorLabels()
			if len(got) != len(tc.monitors) {
				t.Fatalf("monitor labels %v, want %v", got, tc.monitors)
			}
			for i := range got {
				if got[i] != tc.monitors[i] {
					t.Errorf("monitor labels %v, want %v in order", got, tc.monitors)
				}
			}
		})
	}
}
