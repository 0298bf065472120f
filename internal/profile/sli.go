package profile

import (
	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	slomodel "github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/pql"
)

// Scope narrows every query to one service: the spec's selector, and the
// model name on metrics that carry the model label, in the case the
// runtime writes it there.
type Scope struct {
	Selector   []labels.Label
	ModelLabel string
	ModelCase  slomodel.ModelCase
	Model      string
}

func (s Scope) matchers(metric string, hasModel bool) []*labels.Matcher {
	var ms []*labels.Matcher
	for _, l := range s.Selector {
		ms = append(ms, eq(l.Name, l.Value))
	}
	if v := s.ModelCase.Value(metric, s.Model); hasModel && s.ModelLabel != "" && v != "" {
		ms = append(ms, eq(s.ModelLabel, v))
	}
	return ms
}

// Labels are the labels a synthetic input series of this scope carries.
func (s Scope) labels(in Input) labels.Labels {
	b := labels.NewScratchBuilder(len(in.Labels) + len(s.Selector) + 2)
	b.Add(labels.MetricName, in.Name)
	for k, v := range in.Labels {
		b.Add(k, v)
	}
	for _, l := range s.Selector {
		b.Add(l.Name, l.Value)
	}
	if v := s.ModelCase.Value(in.Name, s.Model); in.HasModel && s.ModelLabel != "" && v != "" {
		b.Add(s.ModelLabel, v)
	}
	b.Sort()
	return b.Labels()
}

// AvailabilitySLI counts failed requests against all requests.
func (p Profile) AvailabilitySLI(s Scope) slomodel.SLI {
	ev := p.Availability
	inputs := make([]slomodel.Input, len(ev.Inputs))
	for i, in := range ev.Inputs {
		inputs[i] = slomodel.Input{Series: s.labels(in), Good: in.Good, Bad: in.Bad}
	}
	return slomodel.SLI{
		Errors:   sumRates(s, ev.Failed, true),
		Requests: sumRates(s, ev.Total, false),
		Inputs:   inputs,
	}
}

// sumRates adds the per-second rates of the selectors. A failure counter
// appears only with the first failure (vLLM's status="5xx" series, say), so
// missing ones count as zero where zeroIfMissing.
func sumRates(s Scope, sels []Selector, zeroIfMissing bool) parser.Expr {
	var total parser.Expr
	for _, sel := range sels {
		term := sumRate(s.selector(sel))
		if zeroIfMissing || len(sels) > 1 {
			term = orZero(term)
		}
		if total == nil {
			total = term
		} else {
			total = binary(parser.ADD, total, term)
		}
	}
	return total
}

// LatencySLI counts requests slower than the bucket bound as bad: all
// observations minus those in the bound's cumulative bucket.
func (h *Histogram) LatencySLI(s Scope, bound float64) slomodel.SLI {
	count := s.selector(Selector{Name: h.Name + "_count", HasModel: h.HasModel})
	good := s.selector(Selector{Name: h.Name + "_bucket", HasModel: h.HasModel, Matchers: matchers(LeMatcher(bound))})
	total := sumRate(count)
	bad := call("clamp_min", binary(parser.SUB, total, sumRate(good)), number(0))
	return slomodel.SLI{
		Errors:   bad,
		Requests: total,
		Inputs:   h.inputs(s, bound),
	}
}

// inputs are the series a test needs: the count, the threshold's bucket in
// the exporter's own le format, and +Inf.
func (h *Histogram) inputs(s Scope, bound float64) []slomodel.Input {
	series := func(suffix string, extra map[string]string, good, bad float64) slomodel.Input {
		in := Input{Name: h.Name + suffix, Labels: extra, HasModel: h.HasModel}
		return slomodel.Input{Series: s.labels(in), Good: good, Bad: bad}
	}
	return []slomodel.Input{
		series("_count", nil, 1, 1),
		series("_bucket", map[string]string{"le": h.Le(bound)}, 1, 0),
		series("_bucket", map[string]string{"le": "+Inf"}, 1, 1),
	}
}

func window() string { return model.Duration(slomodel.BaseWindow).String() }

// GoodputSLI bounds from above the requests that miss any part's latency:
// every part's bad requests added, and no more than all requests. It is
// min(bad, requests) written as requests - clamp_min(requests - bad, 0),
// arithmetic the rules can read the requests recording into. Requests are
// the first part's count. The histograms need not count alike (vLLM
// observes TTFT at the first token, TPOT when the request ends), so the
// bound holds for the requests the first one has seen.
func GoodputSLI(parts []slomodel.SLI) slomodel.SLI {
	reqs := func() parser.Expr { return pql.Copy(parts[0].Requests) }
	var bad parser.Expr
	for _, p := range parts {
		if bad == nil {
			bad = pql.Copy(p.Errors)
		} else {
			bad = binary(parser.ADD, bad, pql.Copy(p.Errors))
		}
	}
	missed := call("clamp_min", binary(parser.SUB, reqs(), &parser.ParenExpr{Expr: bad}), number(0))
	sli := slomodel.SLI{Errors: binary(parser.SUB, reqs(), missed), Requests: reqs(), Parts: parts}
	sli.Inputs = sli.Stalling(0)
	return sli
}
