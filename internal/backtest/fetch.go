// Package backtest answers "what would these rules have done last week?":
// it fetches from a Prometheus the raw series a service's SLO rules read,
// evaluates the generated rule groups over them in process, with the
// engine behind slogen test, and reports every alert that would have
// fired.
package backtest

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/value"
	"github.com/prometheus/prometheus/promql"
	"github.com/prometheus/prometheus/promql/parser"

	slomodel "github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
	"github.com/slogen-dev/slogen/internal/promcompat"
	"github.com/slogen-dev/slogen/internal/promtest"
)

// Querier is the part of Prometheus's HTTP API a backtest uses.
type Querier interface {
	Query(ctx context.Context, query string, ts time.Time, opts ...v1.Option) (model.Value, v1.Warnings, v1.Infos, error)
}

// Groups are the service's rule groups a backtest evaluates: the SLO
// rules (rules.yaml), and with gpu the GPU and serving alerts
// (gpu-rules.yaml), which need the history of dcgm-exporter's series.
func Groups(svc slomodel.Service, gpu bool) []rules.Group {
	local, global := rules.Split(svc)
	groups := append(local, global...)
	if gpu {
		groups = append(groups, gpualerts.Build(gpualerts.NewPlan(svc))...)
	}
	return groups
}

// Selectors are the raw series the groups read: every selector of their
// queries' trees but those of series the groups record themselves,
// printed as Prometheus's API takes them. Only these are fetched, and a
// selector whose series another one already fetches (vLLM's status="5xx"
// among all of http_requests_total) is left out.
func Selectors(groups []rules.Group) []string {
	recorded := map[string]bool{"ALERTS": true, "ALERTS_FOR_STATE": true}
	for _, g := range groups {
		for _, r := range g.Rules {
			if r.Record != "" {
				recorded[r.Record] = true
			}
		}
	}
	var all []*parser.VectorSelector
	for _, g := range groups {
		for _, r := range g.Rules {
			for _, vs := range pql.Selectors(r.Expr) {
				if !recorded[vs.Name] {
					all = append(all, vs)
				}
			}
		}
	}
	var out []string
	seen := map[string]bool{}
	for _, vs := range all {
		s := pql.Print(&parser.VectorSelector{Name: vs.Name, LabelMatchers: vs.LabelMatchers}) // without its offset
		if !seen[s] && !slices.ContainsFunc(all, func(o *parser.VectorSelector) bool { return narrower(vs, o) }) {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// narrower reports whether a selects a strict subset of b's series: b's
// matchers are all among a's, and a has more.
func narrower(a, b *parser.VectorSelector) bool {
	if len(a.LabelMatchers) <= len(b.LabelMatchers) {
		return false
	}
	for _, mb := range b.LabelMatchers {
		if !slices.ContainsFunc(a.LabelMatchers, func(ma *labels.Matcher) bool { return ma.String() == mb.String() }) {
			return false
		}
	}
	return true
}

// Chunk is how much history one query fetches: a day of a series scraped
// every 15s is 5760 samples, far below Prometheus's query limits.
const Chunk = 24 * time.Hour

// Fetch reads every selector's raw samples from start to end, a Chunk per
// query, calling progress after each query.
func Fetch(ctx context.Context, q Querier, selectors []string, start, end time.Time, progress func(done, total int)) ([]promtest.Input, error) {
	var ends []time.Time
	for t := start; t.Before(end); t = t.Add(Chunk) {
		ends = append(ends, minTime(t.Add(Chunk), end))
	}
	sels, err := parseSelectors(selectors)
	if err != nil {
		return nil, err
	}
	series := map[string]*promtest.Input{}
	var order []string
	done, total := 0, len(ends)*len(sels)
	for _, sel := range sels {
		from := start
		for _, to := range ends {
			m, err := rangeQuery(ctx, q, sel, from, to)
			if err != nil {
				return nil, err
			}
			for _, s := range m {
				key := s.Metric.String()
				in, ok := series[key]
				if !ok {
					in = &promtest.Input{Labels: toLabels(s.Metric)}
					series[key] = in
					order = append(order, key)
				}
				in.Samples = appendAfter(in.Samples, s.Values)
			}
			from = to
			done++
			if progress != nil {
				progress(done, total)
			}
		}
	}
	out := make([]promtest.Input, 0, len(order))
	for _, k := range order {
		in := *series[k]
		in.Samples = Stale(in.Samples, end.UnixMilli())
		out = append(out, in)
	}
	return out, nil
}

// parseSelectors reads series selectors, as Selectors prints them and
// the CLI shows them, into trees to query their ranges with; one that is
// not a selector is an error.
func parseSelectors(selectors []string) ([]*parser.VectorSelector, error) {
	out := make([]*parser.VectorSelector, len(selectors))
	for i, s := range selectors {
		ms, err := promcompat.Parser().ParseMetricSelector(s)
		if err != nil {
			return nil, fmt.Errorf("series selector %s: %w", s, err)
		}
		out[i] = &parser.VectorSelector{LabelMatchers: ms}
		for _, m := range ms {
			if m.Name == labels.MetricName && m.Type == labels.MatchEqual {
				out[i].Name = m.Value // printed as the name, not as a matcher
			}
		}
	}
	return out, nil
}

// Stale puts back the stale markers the query API leaves out: where a
// series skips more than two of its usual intervals, and where it ends
// that long before end, Prometheus had marked it stale one interval after
// its last sample, so that absent() and the no-data alerts see it go at
// once rather than 5 minutes later.
func Stale(samples []promql.FPoint, end int64) []promql.FPoint {
	if len(samples) < 3 {
		return samples
	}
	gaps := make([]int64, 0, len(samples)-1)
	for i := 1; i < len(samples); i++ {
		gaps = append(gaps, samples[i].T-samples[i-1].T)
	}
	slices.Sort(gaps)
	every := gaps[len(gaps)/2]
	stale := math.Float64frombits(value.StaleNaN)
	out := make([]promql.FPoint, 0, len(samples)+1)
	for i, p := range samples {
		out = append(out, p)
		next := end
		if i+1 < len(samples) {
			next = samples[i+1].T
		}
		if next-p.T > 2*every {
			out = append(out, promql.FPoint{T: p.T + every, F: stale})
		}
	}
	return out
}

// rangeQuery reads sel's raw samples in (from, to] with an instant query
// of a range selector.
func rangeQuery(ctx context.Context, q Querier, sel *parser.VectorSelector, from, to time.Time) (model.Matrix, error) {
	expr := pql.Print(pql.RangeSeconds(sel, to.Sub(from)))
	val, _, _, err := q.Query(ctx, expr, to)
	if err != nil {
		return nil, err
	}
	m, ok := val.(model.Matrix)
	if !ok {
		return nil, fmt.Errorf("query %s: got a %s, want a range vector", expr, val.Type())
	}
	return m, nil
}

// appendAfter adds the samples newer than the last one kept: Prometheus
// 2's ranges are closed at both ends, so consecutive chunks share one.
func appendAfter(kept []promql.FPoint, more []model.SamplePair) []promql.FPoint {
	for _, p := range more {
		t := int64(p.Timestamp)
		if n := len(kept); n > 0 && t <= kept[n-1].T {
			continue
		}
		kept = append(kept, promql.FPoint{T: t, F: float64(p.Value)})
	}
	return kept
}

func toLabels(m model.Metric) labels.Labels {
	b := labels.NewScratchBuilder(len(m))
	for k, v := range m {
		b.Add(string(k), string(v))
	}
	b.Sort()
	return b.Labels()
}

func minTime(a, b time.Time) time.Time {
	if a.Before(b) {
		return a
	}
	return b
}
