package budget_test

import (
	"context"
	"errors"
	"math"
	"strings"
	"testing"
	"time"

	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/budget"
	slomodel "github.com/slogen-dev/slogen/internal/model"
)

// historyPrometheus answers budget's queries for one ratio SLO: its
// recordings say the budget is whole over coverage of the period, and the
// raw-history query gets raw, or err; asked counts those queries.
type historyPrometheus struct {
	coverage float64
	raw      map[string]float64 // by part: requests, errors, hours
	err      error
	asked    *int
}

func (p historyPrometheus) Query(_ context.Context, q string, ts time.Time, _ ...v1.Option) (model.Value, v1.Warnings, v1.Infos, error) {
	sample := func(v float64, ls ...model.LabelName) *model.Sample {
		m := model.Metric{"service": "chat", "slo": "availability"}
		for i := 0; i < len(ls); i += 2 {
			m[ls[i]] = model.LabelValue(ls[i+1])
		}
		return &model.Sample{Metric: m, Value: model.SampleValue(v), Timestamp: model.TimeFromUnixNano(ts.UnixNano())}
	}
	switch {
	case strings.Contains(q, "slogen_budget_part"):
		*p.asked++
		var vec model.Vector
		for part, v := range p.raw {
			vec = append(vec, sample(v, "slogen_budget_part", model.LabelName(part)))
		}
		return vec, nil, nil, p.err
	case strings.Contains(q, "slo_period_coverage"):
		return model.Vector{sample(p.coverage)}, nil, nil, nil
	case strings.HasPrefix(q, "1 - ("):
		return model.Vector{sample(1)}, nil, nil, nil
	}
	return model.Vector{sample(1)}, nil, nil, nil // the budget left, and no errors in any window
}

// The raw history replaces the recordings' figures only where it holds
// more of the period than they do, and only an SLO whose recordings miss
// part of it is read.
func TestRawHistoryWhereTheRecordingsCoverLess(t *testing.T) {
	svc := load(t, `services: chat: {runtime: "vllm", selector: {job: "chat", namespace: "ml"}, slos: availability: objective: 99.5}`)
	tenDays := map[string]float64{"requests": 10, "errors": 0.02, "hours": 240} // 0.2 % errors over 10 of 30 days
	for name, c := range map[string]struct {
		prom    historyPrometheus
		asked   int
		source  string
		left    float64
		message string
	}{
		"Recordings of 2 days and raw history of 10 read the raw history, its errors against the whole period's budget.": {
			prom: historyPrometheus{coverage: 2.0 / 30, raw: tenDays}, asked: 1, source: "raw history, 10d", left: 1 - 0.002*10/30/0.005,
			message: "chat/availability: the recordings cover 7% of 30d; reading its SLI from the raw series"},
		"Raw history no longer than the recordings leaves the recordings.": {
			prom:  historyPrometheus{coverage: 10.0 / 30, raw: tenDays},
			asked: 1, source: "recordings", left: 1},
		"Recordings of the whole period are read alone.": {
			prom: historyPrometheus{coverage: 1, raw: tenDays}, asked: 0, source: "recordings", left: 1},
		"A raw history that cannot be read leaves the recordings, and says why.": {
			prom:  historyPrometheus{coverage: 0, raw: tenDays, err: errors.New("query processing would load too many samples")},
			asked: 1, source: "recordings", left: 1, message: "could not read the raw series (query processing would load too many samples)"},
	} {
		t.Run(name, func(t *testing.T) {
			asked := 0
			c.prom.asked = &asked
			var progress strings.Builder
			slos, err := budget.Read(context.Background(), c.prom, []slomodel.Service{svc}, time.Now(), &progress)
			if err != nil {
				t.Fatal(err)
			}
			s := slos[0]
			if asked != c.asked || s.Source.String() != c.source || math.Abs(*s.Remaining-c.left) > 1e-9 {
				t.Errorf("asked %d, from %s, %v left; want %d, %s, %v", asked, s.Source, *s.Remaining, c.asked, c.source, c.left)
			}
			if s.Source.History && (s.Recorded == nil || *s.Recorded.Remaining != 1 || budget.Below(slos, 0.9) == nil) {
				t.Errorf("the recordings' figures are lost, or --min-remaining 0.9 passes: %+v", s)
			}
			if !strings.Contains(progress.String(), c.message) {
				t.Errorf("progress %q lacks %q", progress.String(), c.message)
			}
		})
	}
}

// queriesPrometheus keeps the raw-history queries it is asked, and
// answers every query as a service whose recordings cover nothing yet.
type queriesPrometheus struct{ history *[]string }

func (p queriesPrometheus) Query(_ context.Context, q string, ts time.Time, _ ...v1.Option) (model.Value, v1.Warnings, v1.Infos, error) {
	if strings.Contains(q, "slogen_budget_part") {
		*p.history = append(*p.history, q)
	}
	var vec model.Vector
	for _, slo := range []string{"availability", "ttft"} {
		vec = append(vec, &model.Sample{Metric: model.Metric{"service": "chat", "slo": model.LabelValue(slo)}, Timestamp: model.TimeFromUnixNano(ts.UnixNano())})
	}
	return vec, nil, nil, nil
}

// Each SLO's raw history is one query Prometheus's parser takes, reading
// the SLI's own raw series over the period, split as the SLO is.
func TestRawHistoryQueries(t *testing.T) {
	svc := load(t, `services: chat: {runtime: "vllm", selector: {job: "chat", namespace: "ml"}, slos: {
		availability: objective: 99.5
		ttft: {objective: 99, threshold: "1s", group_by: ["model_name"]}}}`)
	var history []string
	if _, err := budget.Read(context.Background(), queriesPrometheus{&history}, []slomodel.Service{svc}, time.Now(), nil); err != nil {
		t.Fatal(err)
	}
	if len(history) != 2 {
		t.Fatalf("%d raw-history queries, want one per SLO: %q", len(history), history)
	}
	for i, want := range []string{`http_requests_total{job="chat",namespace="ml"}[30d]`, `by (model_name) (rate(vllm:time_to_first_token_seconds_bucket{`} {
		if _, err := parser.NewParser(parser.Options{}).ParseExpr(history[i]); err != nil || !strings.Contains(history[i], want) || !strings.Contains(history[i], "[30d:1h]") {
			t.Errorf("query %d (%v) lacks %q or the hours over the period:\n%s", i, err, want, history[i])
		}
	}
}
