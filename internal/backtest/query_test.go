package backtest_test

import (
	"slices"
	"testing"

	"github.com/slogen-dev/slogen/internal/backtest"
	"github.com/slogen-dev/slogen/internal/spec"
)

// The SLO rules' selectors come off the trees the plan builds, not off
// their printed text: with the text gone, the selectors are the same.
func TestSelectorsReadTheRulesTrees(t *testing.T) {
	res, err := spec.LoadSources(spec.Source{Name: "s.cue", Data: []byte(`package slo
services: chat: {runtime: "vllm", selector: {job: "chat", namespace: "ml"}
	slos: {availability: objective: 99.5, latency: {objective: 99, threshold: "2.5s", group_by: ["model_name"]}}}
`)})
	if err != nil {
		t.Fatal(err)
	}
	groups := backtest.Groups(res.Spec.Services[0], false)
	want, err := backtest.Selectors(groups)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range groups {
		for i := range g.Rules {
			g.Rules[i].Expr = "not PromQL"
		}
	}
	got, err := backtest.Selectors(groups)
	if err != nil {
		t.Fatalf("selectors read the rules' text: %v", err)
	}
	if !slices.Equal(got, want) || len(got) == 0 {
		t.Errorf("selectors without the text %q, want %q", got, want)
	}
}
