package gpualerts

import (
	"time"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/dcgm"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
)

// signal is one quadrant of the diagnosis over the diagnosis window,
// read from raw series so that its value a day earlier needs no day of
// recorded history.
type signal struct {
	record string
	expr   func(offset time.Duration) pql.Expr
}

// quadrants are the diagnosis signals a service has; a missing one is nil.
type quadrants struct {
	latency, throughput, errors, memory *signal
	// hitRatio is the prefix cache's, no quadrant: PrefixCacheColdStart
	// reads it against the throughput quadrant.
	hitRatio *signal
	// budget is the availability SLO's error budget: errors above it burn
	// faster than the SLO allows. Compare with it on the service
	// (overBudget, withinBudget): it may be a series.
	budget pql.Expr
}

func readQuadrants(svc model.Service) quadrants {
	var q quadrants
	q.memory = &signal{MemoryUsed, func(off time.Duration) pql.Expr {
		return pql.Sum(pql.Call("avg_over_time", ranged(gpuSelector(svc, dcgm.FBUsed), DiagnosisWindow, off)))
	}}
	q.latency = latencySignal(svc)
	slo, ok := svc.Availability()
	if ok {
		q.errors = &signal{ErrorRatio, func(off time.Duration) pql.Expr {
			return pql.Div(operand(rewindow(slo.SLI.Errors, off)), operand(rewindow(slo.SLI.Requests, off)))
		}}
		q.budget = errorBudget(svc, slo)
	}
	q.throughput = throughputSignal(svc, slo, ok)
	q.hitRatio = hitRatioSignal(svc)
	return q
}

// errorBudget is read from the SLO's recorded objective where the
// Prometheus that evaluates these alerts records it (a service in one
// cluster), so that services of different objective tiers share one GPU
// rule template; a service across clusters records it on the global
// ruler, and keeps the budget as a number.
func errorBudget(svc model.Service, slo model.SLO) pql.Expr {
	if svc.Global != nil {
		return pql.Decimal(model.FormatRat(slo.ErrorBudget()))
	}
	return pql.Sub(pql.Num(1), rules.SLOSeries(rules.ObjectiveMetric, svc, slo))
}

// overBudget and withinBudget compare a service's series with its
// budget, matching the two on the service alone: the objective's series
// also carries its SLO's name.
func (q quadrants) overBudget(e pql.Expr) pql.Expr   { return pql.Gt(e, q.budget, pql.On("service")) }
func (q quadrants) withinBudget(e pql.Expr) pql.Expr { return pql.Le(e, q.budget, pql.On("service")) }

func latencySignal(svc model.Service) *signal {
	h := svc.Metrics.MeanLatency()
	if h.Name == "" {
		return nil
	}
	return &signal{LatencyMean, func(off time.Duration) pql.Expr { return meanOf(svc, h, DiagnosisWindow, off) }}
}

// meanOf is histogram h's mean over w, offset by off, in seconds.
func meanOf(svc model.Service, h model.Histogram, w, off time.Duration) pql.Expr {
	rate := func(suffix string) pql.Expr {
		return pql.Sum(pql.Call("rate", ranged(runtimeSelector(svc, model.Metric(h.Name+suffix)), w, off)))
	}
	mean := pql.Div(rate("_sum"), rate("_count"))
	if h.Unit != 1 {
		return pql.Mul(mean, pql.Num(h.Unit))
	}
	return mean
}

func throughputSignal(svc model.Service, slo model.SLO, haveSLO bool) *signal {
	if !svc.Metrics.Completed.IsZero() {
		sel := runtimeSelector(svc, svc.Metrics.Completed)
		return &signal{Throughput, func(off time.Duration) pql.Expr {
			return pql.Sum(pql.Call("rate", ranged(sel, DiagnosisWindow, off)))
		}}
	}
	if haveSLO {
		return &signal{Throughput, func(off time.Duration) pql.Expr { return rewindow(slo.SLI.Requests, off) }}
	}
	return nil
}

// rewindow reads the SLI over the diagnosis window, offset by off.
func rewindow(e parser.Expr, off time.Duration) parser.Expr {
	return rules.Rewindow(e, DiagnosisWindow, off)
}

// operand parenthesises a side of the error ratio that is itself an
// operation, whatever its operator: an SLI reads as a unit.
func operand(e parser.Expr) parser.Expr {
	if _, ok := e.(*parser.BinaryExpr); ok {
		return pql.Paren(e)
	}
	return e
}

// ranged is v over w, offset by off when off is not zero.
func ranged(v *parser.VectorSelector, w, off time.Duration) pql.Expr {
	r := pql.Range(v, w)
	if off == 0 {
		return r
	}
	return pql.Offset(r, off)
}
