package rules_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/promtest"
	"github.com/slogen-dev/slogen/internal/testfile"
)

// A global ruler's own recordings may carry labels the clusters' sums do
// not (Thanos Ruler's external labels). The ticket's day window adds the
// clusters' last 5m of errors to the ruler's own day of them: the sum must
// keep the ruler's labels, or the request rate it is divided by matches
// nothing and the fresh errors are dropped. Here they alone bring the day
// window over the fast ticket's 0.015: 0.014 sampled, 0.002 fresh.
func TestGlobalTicketAddsFreshErrorsToTheRulersOwnSeries(t *testing.T) {
	svc := load(t, `services: "chat-clusters": {
		runtime: "vllm"
		selector: {namespace: "inference", job: "vllm-chat-clusters"}
		global: label: "cluster"
		slos: availability: objective: 99.5
	}`)
	_, global := rules.Split(svc)
	var expr string
	for _, g := range global {
		for _, r := range g.Rules {
			if r.Alert == rules.BurnAlert && r.Labels["tier"] == "ticket_fast" {
				expr = r.Expr.String()
			}
		}
	}
	if expr == "" {
		t.Fatal("no fast ticket in the global rules")
	}
	sel := `service="chat-clusters",slo="availability"`
	test := testfile.File{
		RuleFiles:          []string{"none.yaml"},
		EvaluationInterval: "1m",
		Tests: []testfile.Test{{
			Name:     "fresh errors on a ruler with its own labels",
			Interval: "1m",
			InputSeries: []testfile.Series{
				{Series: `slogen:slo_errors:rate1d{` + sel + `,ruler="r1"}`, Values: "0.014x5"},
				{Series: `slogen:slo_requests:rate1d{` + sel + `,ruler="r1"}`, Values: "1x5"},
				{Series: `slogen:slo_errors:rate5m{` + sel + `,cluster="a"}`, Values: "0.576x5"},
				{Series: `slogen:slo_errors:rate2h{` + sel + `,cluster="a"}`, Values: "0.02x5"},
				{Series: `slogen:slo_requests:rate2h{` + sel + `,cluster="a"}`, Values: "1x5"},
			},
			ExprTests: []testfile.ExprTest{{
				Expr:       "round(1000 * (" + expr + "))",
				EvalTime:   "5m",
				ExpSamples: []testfile.ExpSample{{Labels: `{` + sel + `,ruler="r1"}`, Value: 16}},
			}},
		}},
	}
	dir := t.TempDir()
	data, err := testfile.Marshal(test)
	if err != nil {
		t.Fatal(err)
	}
	for name, content := range map[string][]byte{"none.yaml": []byte("groups: []\n"), "test.yaml": data} {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var log bytes.Buffer
	if failed, err := promtest.Run(context.Background(), &log, filepath.Join(dir, "test.yaml")); failed > 0 || err != nil {
		t.Errorf("%d failed (%v):\n%s", failed, err, log.String())
	}
}
