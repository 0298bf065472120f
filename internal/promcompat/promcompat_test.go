package promcompat

import (
	"strings"
	"testing"
)

func TestParserKnowsOnly242Functions(t *testing.T) {
	p := Parser()
	for _, ok := range []string{`avg_over_time(x[5m])`, `absent(x{a="b"})`, `predict_linear(x[1h], 3600)`, `clamp_min(x, 0)`} {
		if _, err := p.ParseExpr(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, newer := range []string{`first_over_time(x[5m])`, `histogram_avg(x)`, `sort_by_label(x, "a")`} {
		if _, err := p.ParseExpr(newer); err == nil || !strings.Contains(err.Error(), "unknown function") {
			t.Errorf("%s: got %v, want unknown function", newer, err)
		}
	}
}

func TestLegacyNamesRefusesNames242CannotRead(t *testing.T) {
	for q, want := range map[string]string{
		`{"dotted.metric"}`:                   `metric name "dotted.metric"`,
		`x{"dotted.label"="v"}`:               `label name "dotted.label"`,
		`sum by ("a.b") (x)`:                  `label name "a.b"`,
		`x / on ("c.d") group_left ("e.f") y`: `label name "c.d", label name "e.f"`,
		`sum(rate(ok_total{a="é"}[5m]))`:      "",
	} {
		e, err := Parser().ParseExpr(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		err = LegacyNames(e)
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("%s: got %v, want %q", q, err, want)
		}
	}
}

func TestCheckRulesRejectsGroupFields242DoesNotKnow(t *testing.T) {
	errs := CheckRules("r.yaml", []byte("groups:\n  - name: g\n    labels: {a: b}\n    rules:\n      - record: a:b\n        expr: x\n"))
	if len(errs) == 0 {
		t.Error("group labels passed")
	}
}
