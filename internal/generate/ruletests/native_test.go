package ruletests_test

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/promtest"
	"github.com/slogen-dev/slogen/internal/testfile"
)

// Native histograms are tested in process only: promtool 2.42's series
// notation has none ({{schema:...}}), so none of these runs under it.
var nativeSpecs = map[string]string{
	"otel native":   `services: s: {runtime: "otel-genai", histograms: "native", model: "m", slos: {availability: objective: 99.5, latency: {objective: 99, threshold: "15s"}, ttft: {objective: 99, threshold: "800ms"}, tpot: {objective: 99, threshold: "60ms"}}}`,
	"native shared": `services: s: {runtime: "otel-genai", histograms: "native", slos: {latency: {objective: 99, threshold: "10s"}, "latency-loose": {sli: "latency", objective: 95, threshold: "30s"}, goodput: {objective: 99, bounds: {ttft: "1s", tpot: "50ms"}}}}`,
	"native split":  `services: s: {runtime: "otel-genai", histograms: "native", slos: {availability: {objective: 99.5, group_by: ["gen_ai_request_model"], max_groups: 3}, ttft: {objective: 99, threshold: "1s", group_by: ["gen_ai_request_model"]}}}`,
}

func TestGeneratedNativeTestsPassInProcess(t *testing.T) { passInProcess(t, nativeSpecs) }

// TestNativePageFiresWhenDue: a TTFT SLO healthy for the page's longest
// window, then every first token slow, written twice: as a classic
// histogram and as a native one as an OpenTelemetry SDK sends it
// (exponential, scale 3, each observation in one of two buckets on either
// side of the threshold). The page fires at the same minute on both, a
// minute the predictor allows, and is quiet the minute before, in
// Prometheus's own engine.
func TestNativePageFiresWhenDue(t *testing.T) {
	classic := load(t, `services: s: {runtime: "otel-genai", model: "m", slos: ttft: {objective: 99, threshold: "500ms"}}`)
	native := load(t, `services: s: {runtime: "otel-genai", histograms: "native", model: "m", slos: ttft: {objective: 99, threshold: "500ms"}}`)
	slo := native.SLOs[0]
	earliest, latest := rules.FirstPage(native, slo)
	const history = 6 * 60 // the page_slow tier's long window, as FirstPage has it
	perMinute, healthy := rules.HealthyPerMinute(native), rules.HealthyRatio(slo)
	// runs writes a series from its value at n requests, fast and slow:
	// healthy for history minutes, then all slow for two hours.
	runs := func(at func(fast, slow float64) string) string {
		fast, slow := perMinute*(1-healthy)*history, perMinute*healthy*history
		return fmt.Sprintf("%s+%sx%d %s+%sx120", at(0, 0), at(perMinute*(1-healthy), perMinute*healthy), history,
			at(fast, slow+perMinute), at(0, perMinute))
	}
	// At scale 3 bucket i holds (2^((i-1)/8), 2^(i/8)]: 0.25 s closes
	// bucket -16 and the threshold, 0.5 s, bucket -8; slow ones fall in
	// buckets 8 and 9, about 2 s.
	exponential := func(fast, slow float64) string {
		b := make([]string, 27) // buckets -17 to 9
		for i := range b {
			b[i] = "0"
		}
		b[0], b[1], b[25], b[26] = num(fast/2), num(fast/2), num(slow/2), num(slow/2)
		return fmt.Sprintf("{{schema:3 sum:%s count:%s offset:-17 buckets:[%s]}}", num(0.24*fast+2*slow), num(fast+slow), strings.Join(b, " "))
	}
	const ls = `gen_ai_operation_name="chat", gen_ai_request_model="m"`
	series := map[string][]testfile.Series{
		"classic": {
			{Series: `gen_ai_server_time_to_first_token_seconds_count{` + ls + `}`, Values: runs(func(f, s float64) string { return num(f + s) })},
			{Series: `gen_ai_server_time_to_first_token_seconds_bucket{` + ls + `, le="0.5"}`, Values: runs(func(f, _ float64) string { return num(f) })},
		},
		"native": {{Series: `gen_ai_server_time_to_first_token_seconds{` + ls + `}`, Values: runs(exponential)}},
	}
	from, to := history+int(math.Ceil(earliest)), history+int(math.Ceil(latest))
	due := map[string]int{}
	for name, svc := range map[string]model.Service{"classic": classic, "native": native} {
		for m := from; m <= to && due[name] == 0; m++ {
			if pagesAt(t, svc, series[name], m) {
				due[name] = m
			}
		}
	}
	t.Logf("the predictor allows the page %.1fm to %.1fm into the outage; it fires %dm in on classic data, %dm on native", earliest, latest, due["classic"]-history, due["native"]-history)
	if due["native"] == 0 || due["native"] != due["classic"] {
		t.Errorf("the page fires at minute %d on native data, at %d on classic; want the same minute, within %d to %d", due["native"], due["classic"], from, to)
	}
}

// pagesAt reports whether the page is quiet at minute m-1 and firing at m.
func pagesAt(t *testing.T, svc model.Service, series []testfile.Series, m int) bool {
	t.Helper()
	page := `count(ALERTS{alertname="SLOErrorBudgetBurn", tier="page", alertstate="firing"})`
	test := testfile.Test{
		Name:        fmt.Sprintf("the page fires at minute %d", m),
		Interval:    "1m",
		InputSeries: series,
		ExprTests: []testfile.ExprTest{
			{Expr: page, EvalTime: genfile.Duration(minute(m - 1))},
			{Expr: page, EvalTime: genfile.Duration(minute(m)), ExpSamples: []testfile.ExpSample{{Labels: "{}", Value: 1}}},
		},
	}
	var out bytes.Buffer
	failed, err := promtest.Run(context.Background(), &out, writeOne(t, rules.Build(svc), "1m", test))
	if err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	return failed == 0
}

func num(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func minute(m int) time.Duration { return time.Duration(m) * time.Minute }
