// Package budget reads the live state of a service's SLOs from the
// recordings slogen's rules write into Prometheus: each SLO's SLI over its
// period, the share of its error budget left and how much of the period
// that figure covers, and its burn rate over 1h, 6h and 1d. Where the
// recordings cover less of the period than the raw series do (the rules
// are younger than the history), the SLI and budget come from the raw
// series instead, and each row says which.
package budget

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"github.com/prometheus/common/model"

	"github.com/slogen-dev/slogen/internal/genfile"
	slomodel "github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
)

// BurnWindows are the windows whose burn rate a report shows: the page
// tiers' long windows and the fast ticket's.
var BurnWindows = []time.Duration{time.Hour, 6 * time.Hour, 24 * time.Hour}

// SLO is one SLO's live state. A nil figure had no data.
type SLO struct {
	Service string
	SLO     string
	// Group is the values of a split SLO's group_by labels, as PromQL
	// writes them ({model_name="llama"}); empty for an SLO not split.
	Group     string
	Objective float64 // percent
	Period    string
	// Figures are the SLI, budget and coverage from Source.
	Figures
	Source Source
	// Recorded is what the recordings say where Source is the raw
	// history; nil otherwise.
	Recorded *Figures
	// Burn is the burn rate over each of BurnWindows, in order, from the
	// recordings.
	Burn []*float64
	// NoRequests is true when the recordings exist but the period holds
	// no request: a quiet SLO, not a missing one.
	NoRequests bool
}

// Figures are an SLO's figures over its period from one source.
type Figures struct {
	// SLI is the share of good events.
	SLI *float64
	// Remaining is the share of the period's error budget not spent.
	Remaining *float64
	// Coverage is the share of the period the source holds.
	Coverage *float64
}

// Source is where an SLO's figures come from: slogen's recordings, or the
// SLI's raw series, which hold Span of the period.
type Source struct {
	History bool
	Span    time.Duration
}

func (s Source) String() string {
	if !s.History {
		return "recordings"
	}
	return "raw history, " + genfile.Duration(s.Span)
}

// Querier is the part of Prometheus's HTTP API budget uses.
type Querier interface {
	Query(ctx context.Context, query string, ts time.Time, opts ...v1.Option) (model.Value, v1.Warnings, v1.Infos, error)
}

// ErrNoData reports SLOs Prometheus holds no recordings for.
var ErrNoData = errors.New("no data")

// Read queries the state of every SLO of the services at ts, and says on
// progress when it reads an SLO's raw history, which can take a while.
// It reads every recording before any raw history, so that a slow raw
// history costs only its own figures. When some have no budget recording
// it returns what it read and an error wrapping ErrNoData that says which,
// and how to check.
func Read(ctx context.Context, q Querier, svcs []slomodel.Service, ts time.Time, progress io.Writer) ([]SLO, error) {
	if progress == nil {
		progress = io.Discard
	}
	bySvc := make([][]SLO, len(svcs))
	for i, svc := range svcs {
		slos, err := readService(ctx, q, svc, ts)
		if err != nil {
			return nil, err
		}
		bySvc[i] = slos
	}
	var out []SLO
	var missing []string
	var first slomodel.Service // the first service with an SLO missing, for the query to try
	for i, svc := range svcs {
		slos := bySvc[i]
		for _, slo := range svc.SLOs {
			withHistory(ctx, q, svc, slo, rowsOf(slos, slo.Name), ts, progress)
		}
		for _, s := range slos {
			if s.Remaining == nil && !s.NoRequests {
				if missing == nil {
					first = svc
				}
				missing = append(missing, s.Service+"/"+s.SLO+s.Group)
			}
		}
		out = append(out, slos...)
	}
	if len(missing) > 0 {
		return out, fmt.Errorf("%w for %s: no %s series. Were the rules deployed, and have they run for a few minutes? "+
			"Query %s: if it is empty the rule files are not loaded or their selector matches no series; "+
			"if the SLO is missing from it, the deployed rules come from another spec", ErrNoData, joinNames(missing), rules.BudgetRemainingMetric,
			pql.Print(rules.ServiceSeries(rules.Requests(5*time.Minute), first)))
	}
	return out, nil
}

// rowsOf is the rows of one SLO, which readService writes together.
func rowsOf(rows []SLO, slo string) []SLO {
	from := slices.IndexFunc(rows, func(s SLO) bool { return s.SLO == slo })
	if from < 0 {
		return nil
	}
	to := from
	for to < len(rows) && rows[to].SLO == slo {
		to++
	}
	return rows[from:to]
}

func joinNames(names []string) string {
	if len(names) > 5 {
		return fmt.Sprintf("%s and %d more", joinNames(names[:5]), len(names)-5)
	}
	return fmt.Sprint(names)
}

// readService reads one service's recordings with one query per figure,
// each for all its SLOs at once: the recordings carry the slo label.
func readService(ctx context.Context, q Querier, svc slomodel.Service, ts time.Time) ([]SLO, error) {
	get := func(query pql.Expr) (map[key]float64, error) { return bySLO(ctx, q, pql.Print(query), ts) }
	remaining, err := get(rules.ServiceSeries(rules.BudgetRemainingMetric, svc))
	if err != nil {
		return nil, err
	}
	coverage, err := get(rules.ServiceSeries(rules.CoverageMetric, svc))
	if err != nil {
		return nil, err
	}
	sli := map[key]float64{}
	for _, p := range periods(svc) {
		v, err := get(pql.Sub(pql.Num(1), ratio(svc, p)))
		if err != nil {
			return nil, err
		}
		maps.Copy(sli, v)
	}
	burn := make([]map[key]float64, len(BurnWindows))
	for i, w := range BurnWindows {
		if burn[i], err = get(ratio(svc, w)); err != nil {
			return nil, err
		}
	}
	out := make([]SLO, 0, len(svc.SLOs))
	for _, slo := range svc.SLOs {
		objective, _ := slo.Objective.Float64()
		budget, _ := slo.ErrorBudget().Float64()
		for _, k := range groups(slo.Name, remaining, coverage) {
			s := SLO{Service: svc.Name, SLO: slo.Name, Group: k.group, Objective: objective * 100, Period: slo.Period.Name,
				Figures: Figures{SLI: pick(sli, k, 1), Remaining: pick(remaining, k, 1), Coverage: pick(coverage, k, 1)}}
			for i := range BurnWindows {
				s.Burn = append(s.Burn, pick(burn[i], k, 1/budget))
			}
			_, recorded := remaining[k]
			s.NoRequests = recorded && s.Remaining == nil
			out = append(out, s)
		}
	}
	return out, nil
}

// key is one series of an SLO: the SLO, and the values of its group_by
// labels where it is split.
type key struct{ slo, group string }

// groups lists an SLO's series in the recordings, sorted by group; one
// without a group when there are none, for the report to say so.
func groups(slo string, recorded ...map[key]float64) []key {
	var out []key
	for _, r := range recorded {
		for k := range r {
			if k.slo == slo && !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	if len(out) == 0 {
		return []key{{slo: slo}}
	}
	slices.SortFunc(out, func(a, b key) int { return strings.Compare(a.group, b.group) })
	return out
}

// ratio is the service's recorded error ratio over w, one series per SLO
// (and group value), summed over the clusters of a service that spans
// them where the clusters record the window.
func ratio(svc slomodel.Service, w time.Duration) pql.Expr {
	return pql.Paren(pql.Div(rules.ServiceRates(rules.Errors(w), w, svc), rules.ServiceRates(rules.Requests(w), w, svc)))
}

func periods(svc slomodel.Service) []time.Duration {
	var ps []time.Duration
	for _, slo := range svc.SLOs {
		ps = append(ps, slo.Period.Duration)
	}
	slices.Sort(ps)
	return slices.Compact(ps)
}

// pick is the series' value times scale, or nil when it has none or it
// is not a number (a ratio of no requests).
func pick(values map[key]float64, k key, scale float64) *float64 {
	v, ok := values[k]
	if !ok || v != v {
		return nil
	}
	v *= scale
	return &v
}

// bySLO runs an instant query and keys its samples by their slo label
// and the rest of their labels but the service: a split SLO's group.
func bySLO(ctx context.Context, q Querier, query string, ts time.Time) (map[key]float64, error) {
	vec, err := vector(ctx, q, query, ts)
	if err != nil {
		return nil, err
	}
	out := map[key]float64{}
	for _, s := range vec {
		out[key{slo: string(s.Metric["slo"]), group: groupOf(s.Metric)}] = float64(s.Value)
	}
	return out, nil
}

// vector runs an instant query.
func vector(ctx context.Context, q Querier, query string, ts time.Time) (model.Vector, error) {
	val, _, _, err := q.Query(ctx, query, ts)
	if err != nil {
		return nil, err
	}
	vec, ok := val.(model.Vector)
	if !ok {
		return nil, fmt.Errorf("query %s: got a %s, want an instant vector", query, val.Type())
	}
	return vec, nil
}

// groupOf is a series' group: its labels but the name, service, slo and
// any more given, as PromQL writes them; empty when there are none.
func groupOf(m model.Metric, more ...model.LabelName) string {
	group := m.Clone()
	for _, l := range append([]model.LabelName{model.MetricNameLabel, "service", "slo"}, more...) {
		delete(group, l)
	}
	if len(group) == 0 {
		return ""
	}
	return group.String()
}
