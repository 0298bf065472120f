package profile

import (
	"maps"
	"slices"

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
		inputs[i] = slomodel.Input{Series: s.labels(in), Good: in.Good, Bad: in.Bad, Native: in.Native}
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
		term := sumRate(s.selector(sel), sel.Native)
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

// LatencySLI counts requests slower than the bound as bad: all
// observations minus those at or below it.
func (h *Histogram) LatencySLI(s Scope, bound float64) slomodel.SLI {
	if h.Native {
		return h.nativeLatencySLI(s, bound)
	}
	count := s.selector(Selector{Name: h.Name + "_count", HasModel: h.HasModel, Matchers: h.Matchers})
	good := s.selector(Selector{Name: h.Name + "_bucket", HasModel: h.HasModel, Matchers: append(slices.Clone(h.Matchers), LeMatcher(bound))})
	total := sumRate(count, false)
	bad := call("clamp_min", binary(parser.SUB, total, sumRate(good, false)), number(0))
	return slomodel.SLI{
		Errors:   bad,
		Requests: total,
		Inputs:   h.inputs(s, bound),
	}
}

// nativeLatencySLI reads a native histogram: its observations are
// histogram_count, those at or below the bound that count times
// histogram_fraction(0, bound), per series. A series with no observation
// in the window has a fraction of NaN, which would poison every sum of
// the recording; the product keeps only series that observed something.
func (h *Histogram) nativeLatencySLI(s Scope, bound float64) slomodel.SLI {
	sel := func() *parser.VectorSelector {
		return s.selector(Selector{Name: h.Name, HasModel: h.HasModel, Matchers: h.Matchers, Native: true})
	}
	perSeries := func(f string, args ...parser.Expr) parser.Expr {
		rate := call("rate", &parser.MatrixSelector{VectorSelector: sel(), Range: slomodel.BaseWindow})
		return call(f, append(args, rate)...)
	}
	observed := &parser.ParenExpr{Expr: binary(parser.GTR, perSeries("histogram_count"), number(0))}
	good := sum(binary(parser.MUL, perSeries("histogram_fraction", number(0), number(bound)), observed))
	total := sumRate(sel(), true)
	return slomodel.SLI{
		Errors:   call("clamp_min", binary(parser.SUB, total, orZero(good)), number(0)),
		Requests: sumRate(sel(), true),
		Inputs:   h.inputs(s, bound),
	}
}

// inputs are the series a test needs: the count, the threshold's bucket in
// the exporter's own le format, and +Inf. A native histogram's are the
// count and the bucket that stand for it (model.Input.Native).
func (h *Histogram) inputs(s Scope, bound float64) []slomodel.Input {
	series := func(suffix string, extra map[string]string, good, bad float64) slomodel.Input {
		in := Input{Name: h.Name + suffix, Labels: merged(h.Labels, extra), HasModel: h.HasModel}
		return slomodel.Input{Series: s.labels(in), Good: good, Bad: bad, Native: h.Native}
	}
	le := series("_bucket", map[string]string{"le": h.Le(bound)}, 1, 0)
	if h.Native {
		return []slomodel.Input{series("_count", nil, 1, 1), le}
	}
	return []slomodel.Input{series("_count", nil, 1, 1), le, series("_bucket", map[string]string{"le": "+Inf"}, 1, 1)}
}

func merged(a, b map[string]string) map[string]string {
	if len(a) == 0 {
		return b
	}
	out := maps.Clone(a)
	maps.Copy(out, b)
	return out
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
