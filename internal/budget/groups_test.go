package budget_test

import (
	"bytes"
	"context"
	"strings"
	"testing"
	"time"

	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/common/model"

	"github.com/slogen-dev/slogen/internal/budget"
	slomodel "github.com/slogen-dev/slogen/internal/model"
)

// splitPrometheus answers every query with two values of model_name for
// the split SLO and one series for the other: what slogen's recordings
// hold for a service with one SLO split by group_by.
type splitPrometheus struct{}

func (splitPrometheus) Query(_ context.Context, _ string, ts time.Time, _ ...v1.Option) (model.Value, v1.Warnings, v1.Infos, error) {
	sample := func(slo, modelName string, v float64) *model.Sample {
		m := model.Metric{"service": "fleet", "slo": model.LabelValue(slo)}
		if modelName != "" {
			m["model_name"] = model.LabelValue(modelName)
		}
		return &model.Sample{Metric: m, Value: model.SampleValue(v), Timestamp: model.TimeFromUnixNano(ts.UnixNano())}
	}
	return model.Vector{sample("ttft", "b", 0.5), sample("ttft", "a", 0.9), sample("availability", "", 0.7)}, nil, nil, nil
}

func TestSplitSLOsReadOneRowPerValue(t *testing.T) {
	svc := load(t, `services: fleet: {runtime: "vllm", slos: {availability: objective: 99.5, ttft: {objective: 99, threshold: "1s", group_by: ["model_name"]}}}`)
	slos, err := budget.Read(context.Background(), splitPrometheus{}, []slomodel.Service{svc}, time.Now(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range slos {
		got = append(got, s.SLO+s.Group)
	}
	if want := []string{"availability", `ttft{model_name="a"}`, `ttft{model_name="b"}`}; strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("rows %q, want %q", got, want)
	}
	if *slos[1].Remaining != 0.9 || *slos[2].Remaining != 0.5 {
		t.Errorf("budget left a %v, b %v; want 0.9, 0.5", *slos[1].Remaining, *slos[2].Remaining)
	}
	var table bytes.Buffer
	if err := budget.WriteTable(&table, slos); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table.String(), `fleet    ttft{model_name="b"}`) {
		t.Errorf("the table does not name the value:\n%s", table.String())
	}
}
