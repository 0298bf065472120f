package promtest

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/timestamp"
	"github.com/prometheus/prometheus/promql"

	"github.com/slogen-dev/slogen/generate/rules"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/spec"
)

// BenchmarkRuleEvaluationCost times one evaluation cycle of a service's
// SLO rules over 30 days of data: slogen's rules against rules of the
// shape Sloth v0.16 writes for the same SLOs (an SLI ratio recorded from
// raw series over each of seven windows, the period from the 5m ratio,
// seven metadata recordings and two alerts per SLO). Both read the same
// raw series, scraped every 30s from two pods, and the same 30 days of
// recorded history, evaluated every 30s.
func BenchmarkRuleEvaluationCost(b *testing.B) {
	svc := costService(b)
	st := newMemStorage()
	end := fillHistory(b, st, svc)
	slogen := rules.Build(svc)
	sets := []struct {
		name   string
		groups []rules.Group
	}{
		// The period group runs every rules.PeriodInterval (4m), an eighth
		// as often as the 30s cycle: weigh its figure by that.
		{"slogen/every-cycle", slogen[:1]},
		{"slogen/period-every-4m", slogen[1:]},
		{"sloth-shaped", slothShaped(svc)},
	}
	for _, set := range sets {
		groups := set.groups
		b.Run(set.name, func(b *testing.B) {
			ng := promql.NewEngine(promql.EngineOpts{MaxSamples: 1e9, Timeout: time.Minute, LookbackDelta: 5 * time.Minute})
			query := engineQuery(ng, st)
			for b.Loop() {
				for _, g := range groups {
					for _, r := range g.Rules {
						if _, err := query(context.Background(), r.Expr, end); err != nil {
							b.Fatalf("%s%s: %v", r.Record, r.Alert, err)
						}
					}
				}
			}
		})
	}
}

func costService(b *testing.B) model.Service {
	res, err := spec.LoadSources(spec.Source{Name: "cost.cue", Data: []byte(`package slo
services: "chat-llama": {
	runtime: "vllm"
	model:   "meta-llama/Llama-3.1-8B-Instruct"
	selector: {namespace: "inference", job: "vllm-chat"}
	slos: {
		availability: {objective: 99.5}
		latency: {objective: 99, threshold: "2.5s"}
		ttft: {objective: 99, threshold: "1s"}
	}
}`)})
	if err != nil {
		b.Fatal(err)
	}
	return res.Spec.Services[0]
}

const (
	scrape  = 30 * time.Second
	history = 30 * 24 * time.Hour
)

// fillHistory writes 30 days of the raw counters from two pods, of the
// base-window recordings both rule sets read their long windows from, and
// of slogen's 4m samples of them.
func fillHistory(b *testing.B, st *memStorage, svc model.Service) time.Time {
	start := time.Unix(0, 0).UTC()
	n := int(history / scrape)
	// Base recordings and raw series alike: every 30s for 30 days.
	var series []labels.Labels
	for _, slo := range svc.SLOs {
		for _, in := range slo.SLI.Inputs {
			for _, pod := range []string{"vllm-0", "vllm-1"} {
				series = append(series, labels.NewBuilder(in.Series).Set("pod", pod).Labels())
			}
		}
		for _, name := range []string{rules.Errors(model.BaseWindow), rules.Requests(model.BaseWindow), "slo:sli_error:ratio_rate5m"} {
			series = append(series, labels.FromStrings("__name__", name, "service", svc.Name, "slo", slo.Name,
				"sloth_id", svc.Name+"-"+slo.Name, "sloth_service", svc.Name, "sloth_slo", slo.Name, "sloth_window", "5m"))
		}
	}
	end := start.Add(time.Duration(n-1) * scrape)
	for _, ls := range series {
		appendEvery(b, st, ls, start, end, scrape)
	}
	for _, slo := range svc.SLOs {
		for _, name := range []string{rules.DownsampledErrorsMetric, rules.DownsampledRequestsMetric} {
			appendEvery(b, st, labels.FromStrings("__name__", name, "service", svc.Name, "slo", slo.Name), start, end, 4*time.Minute)
		}
	}
	return end
}

// slothShaped writes, per SLO, the rules Sloth v0.16 generates.
func slothShaped(svc model.Service) []rules.Group {
	var sli, meta, alerts rules.Group
	for _, slo := range svc.SLOs {
		id := fmt.Sprintf(`sloth_id="%s-%s", sloth_service="%s", sloth_slo="%s"`, svc.Name, slo.Name, svc.Name, slo.Name)
		for _, w := range []string{"5m", "30m", "1h", "2h", "6h", "1d", "3d"} {
			q := fmt.Sprintf("(%s) / (%s)", strings.ReplaceAll(slo.SLI.Errors, "[5m]", "["+w+"]"), strings.ReplaceAll(slo.SLI.Requests, "[5m]", "["+w+"]"))
			sli.Rules = append(sli.Rules, rules.Rule{Record: "slo:sli_error:ratio_rate" + w, Expr: q})
		}
		sli.Rules = append(sli.Rules, rules.Rule{Record: "slo:sli_error:ratio_rate30d", Expr: fmt.Sprintf(
			"sum_over_time(slo:sli_error:ratio_rate5m{%s}[30d]) / ignoring (sloth_window) count_over_time(slo:sli_error:ratio_rate5m{%s}[30d])", id, id)})
		for _, m := range []string{
			"vector(0.995)", "vector(1 - 0.995)", "vector(30)",
			fmt.Sprintf("slo:sli_error:ratio_rate5m{%s} / on(sloth_id, sloth_slo, sloth_service) group_left slo:error_budget:ratio{%s}", id, id),
			fmt.Sprintf("slo:sli_error:ratio_rate30d{%s} / on(sloth_id, sloth_slo, sloth_service) group_left slo:error_budget:ratio{%s}", id, id),
			fmt.Sprintf("1 - slo:period_burn_rate:ratio{%s}", id),
			"vector(1)",
		} {
			meta.Rules = append(meta.Rules, rules.Rule{Record: "slo:meta", Expr: m})
		}
		pair := func(short, long, factor string) string {
			return fmt.Sprintf("(max(slo:sli_error:ratio_rate%s{%s} > (%s * 0.005)) without (sloth_window) and max(slo:sli_error:ratio_rate%s{%s} > (%s * 0.005)) without (sloth_window))", short, id, factor, long, id, factor)
		}
		alerts.Rules = append(alerts.Rules,
			rules.Rule{Alert: "Page", Expr: pair("5m", "1h", "14.4") + " or " + pair("30m", "6h", "6")},
			rules.Rule{Alert: "Ticket", Expr: pair("2h", "1d", "3") + " or " + pair("6h", "3d", "1")})
	}
	return []rules.Group{sli, meta, alerts}
}

func appendEvery(b *testing.B, st *memStorage, ls labels.Labels, start, end time.Time, every time.Duration) {
	for t, i := start, 0; !t.After(end); t, i = t.Add(every), i+1 {
		if err := st.append(ls, timestamp.FromTime(t), float64(i)); err != nil {
			b.Fatal(err)
		}
	}
}
