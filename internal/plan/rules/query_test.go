package rules_test

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
	"github.com/slogen-dev/slogen/internal/spec"
)

// Every rule's expression is a tree that code which reads what a rule
// queries (backtest) walks instead of parsing the text back: printed, as
// its file holds it, and parsed, the text is that tree.
func TestEveryRuleIsTheTreeItPrints(t *testing.T) {
	paths, err := filepath.Glob("../../../examples/*/*.cue")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no example specs: %v", err)
	}
	res, err := spec.Load(paths...)
	if err != nil {
		t.Fatal(err)
	}
	svcs := append(res.Spec.Services, load(t, awkward))
	for _, svc := range svcs {
		local, global := rules.Split(svc)
		for _, g := range append(local, global...) {
			for _, r := range g.Rules {
				printed := pql.Print(r.Expr)
				parsed, err := parser.NewParser(parser.Options{}).ParseExpr(printed)
				if err != nil {
					t.Fatalf("%s: rule %s%s: %v", svc.Name, r.Record, r.Alert, err)
				}
				if got, want := parsed.String(), pql.Copy(r.Expr).String(); got != want {
					t.Errorf("%s: rule %s%s prints\n%s\nwhich parses to\n%s\nnot its tree\n%s", svc.Name, r.Record, r.Alert, printed, got, want)
				}
			}
		}
	}
}

// A panel that draws ErrorRatio draws what the burn alerts compare, and
// its narrowing reaches every series it reads.
func TestErrorRatioIsWhatTheBurnAlertsCompare(t *testing.T) {
	svc := load(t, awkward)
	for _, slo := range svc.SLOs {
		ratio := pql.Print(rules.ErrorRatio(svc, slo, time.Hour)) + " > "
		found := false
		for _, r := range rules.Build(svc)[0].Rules {
			if r.Alert == rules.BurnAlert && r.Labels["slo"] == slo.Name && r.Labels["tier"] == model.PageRule.Name {
				found = strings.Contains(pql.Print(r.Expr), ratio)
			}
		}
		if !found {
			t.Errorf("slo %s: the page does not compare %s", slo.Name, ratio)
		}
		for _, vs := range pql.Selectors(rules.ErrorRatio(svc, slo, time.Hour, pql.Eq("model_name", "m"))) {
			if !slices.ContainsFunc(vs.LabelMatchers, func(m *labels.Matcher) bool { return m.Name == "model_name" }) {
				t.Errorf("slo %s: %s is not narrowed", slo.Name, vs)
			}
		}
	}
}
