package dashboard

import (
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/grafana/grafanatest"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
)

// TestGoodputPanelDrawsBothBounds: 30 % of requests slow to their first
// token and 20 % slow per token. Exactly how many miss either bound the
// metrics cannot say: between 30 % (the slow ones overlap) and 50 % (they
// do not). The panel draws 50 % and 70 % good, its lower line the SLI the
// alerts burn on.
func TestGoodputPanelDrawsBothBounds(t *testing.T) {
	vllm := `job="vllm-stream-chat",model_name="meta-llama/Llama-3.1-70B-Instruct",namespace="inference"`
	svc := service(t, "stream-chat")
	r, at := replay(t, rules.Build(svc), counters(t, map[string]float64{
		`vllm:time_to_first_token_seconds_count{` + vllm + `}`:                      10,
		`vllm:time_to_first_token_seconds_bucket{` + vllm + `,le="1.0"}`:            7,
		`vllm:request_time_per_output_token_seconds_count{` + vllm + `}`:            10,
		`vllm:request_time_per_output_token_seconds_bucket{` + vllm + `,le="0.05"}`: 8,
	}))
	d, _ := build(t, "stream-chat")
	want := map[string]float64{"goodput at least (the SLI)": 0.5, "goodput at most": 0.7, "goodput objective: 99%": 0.99}
	qs := panelQueries(d, "Goodput")
	if len(qs) != len(want) {
		t.Fatalf("Goodput panel has %d queries, want %d: %v", len(qs), len(want), qs)
	}
	for _, q := range qs {
		got := only(t, r, grafanatest.Expand(q.expr, AllSelected(d, genfile.Duration(model.BaseWindow))), at)
		if w, ok := want[q.legend]; !ok || !close(got, w) {
			t.Errorf("%s: %v, want %v", q.legend, got, w)
		}
		if strings.Contains(q.legend, "the SLI") && !strings.Contains(q.expr, rules.Errors(burnWindow)) {
			t.Errorf("%s does not read the SLO's recording: %s", q.legend, q.expr)
		}
	}
}
