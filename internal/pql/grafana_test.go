package pql

import (
	"testing"
	"time"

	"github.com/prometheus/prometheus/promql/parser"
)

func TestGrafanaRangePrintsTheVariableAndHoldsTheSentinel(t *testing.T) {
	v := Metric("vllm:e2e_request_latency_seconds_bucket", Re("pod", "$pod"))
	e := Sum(Rate(v, time.Minute), By("le"))
	g := Sum(Call("rate", GrafanaRange(v, "$__rate_interval", time.Minute)), By("le"))
	if got, want := Print(g), `sum by (le) (rate(vllm:e2e_request_latency_seconds_bucket{pod=~"$pod"}[$__rate_interval]))`; got != want {
		t.Errorf("printed\n%s\nwant\n%s", got, want)
	}
	if got, want := Copy(g).String(), Print(e); got != want {
		t.Errorf("the tree is\n%s\nnot the sentinel's\n%s", got, want)
	}
	ms, ok := unwrap(Copy(g).(*parser.AggregateExpr).Expr.(*parser.Call).Args[0]).(*parser.MatrixSelector)
	if !ok || ms.Range != time.Minute {
		t.Errorf("the tree holds %v, not a range of 1m", Copy(g))
	}
	if sels := Selectors(g); len(sels) != 1 || sels[0].String() != v.String() {
		t.Errorf("selectors %v, want the one selector", sels)
	}
}

func TestGrafanaRangeRefusesAModifier(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("an offset selector was taken")
		}
	}()
	GrafanaRange(Offset(Metric("a"), time.Hour).(*parser.VectorSelector), "$__range", time.Hour)
}

func TestLabelValuesHoldsASelector(t *testing.T) {
	got := LabelValues(Metric("DCGM_FI_DEV_FB_USED", Eq("job", "dcgm"), Re("pod", "$pod")), "gpu")
	if want := `label_values(DCGM_FI_DEV_FB_USED{job="dcgm",pod=~"$pod"}, gpu)`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
