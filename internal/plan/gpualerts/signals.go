package gpualerts

import (
	"fmt"
	"time"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/dcgm"
	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
)

// signal is one quadrant of the diagnosis over the diagnosis window,
// read from raw series so that its value a day earlier needs no day of
// recorded history.
type signal struct {
	record string
	expr   func(offset time.Duration) string
}

// quadrants are the diagnosis signals a service has; a missing one is nil.
type quadrants struct {
	latency, throughput, errors, memory *signal
	// hitRatio is the prefix cache's, no quadrant: PrefixCacheColdStart
	// reads it against the throughput quadrant.
	hitRatio *signal
	// budget is the availability SLO's error budget: errors above it burn
	// faster than the SLO allows.
	budget string
}

func readQuadrants(svc model.Service) quadrants {
	var q quadrants
	q.memory = &signal{MemoryUsed, func(off time.Duration) string {
		return fmt.Sprintf("sum(avg_over_time(%s[%s]%s))", gpuSelector(svc, dcgm.FBUsed), genfile.Duration(DiagnosisWindow), offset(off))
	}}
	q.latency = latencySignal(svc)
	slo, ok := svc.Availability()
	if ok {
		q.errors = &signal{ErrorRatio, func(off time.Duration) string {
			return divide(rewindow(slo.SLI.Errors, off), rewindow(slo.SLI.Requests, off)).String()
		}}
		q.budget = model.FormatRat(slo.ErrorBudget())
	}
	q.throughput = throughputSignal(svc, slo, ok)
	q.hitRatio = hitRatioSignal(svc)
	return q
}

func latencySignal(svc model.Service) *signal {
	h := svc.Metrics.MeanLatency()
	if h.Name == "" {
		return nil
	}
	sum := runtimeSelector(svc, model.Metric(h.Name+"_sum"))
	count := runtimeSelector(svc, model.Metric(h.Name+"_count"))
	unit := ""
	if h.Unit != 1 {
		unit = " * " + num(h.Unit)
	}
	return &signal{LatencyMean, func(off time.Duration) string {
		w := genfile.Duration(DiagnosisWindow)
		return fmt.Sprintf("sum(rate(%s[%s]%s)) / sum(rate(%s[%s]%s))%s", sum, w, offset(off), count, w, offset(off), unit)
	}}
}

func throughputSignal(svc model.Service, slo model.SLO, haveSLO bool) *signal {
	if !svc.Metrics.Completed.IsZero() {
		sel := runtimeSelector(svc, svc.Metrics.Completed)
		return &signal{Throughput, func(off time.Duration) string {
			return fmt.Sprintf("sum(rate(%s[%s]%s))", sel, genfile.Duration(DiagnosisWindow), offset(off))
		}}
	}
	if haveSLO {
		return &signal{Throughput, func(off time.Duration) string { return rewindow(slo.SLI.Requests, off).String() }}
	}
	return nil
}

// rewindow reads the SLI over the diagnosis window, offset by off.
func rewindow(e parser.Expr, off time.Duration) parser.Expr {
	return rules.Rewindow(e, DiagnosisWindow, off)
}

// divide is a / b, parenthesising only an operand that needs it.
func divide(a, b parser.Expr) parser.Expr {
	return &parser.BinaryExpr{Op: parser.DIV, LHS: operand(a), RHS: operand(b), VectorMatching: &parser.VectorMatching{Card: parser.CardOneToOne}}
}

func operand(e parser.Expr) parser.Expr {
	if _, ok := e.(*parser.BinaryExpr); ok {
		return &parser.ParenExpr{Expr: e}
	}
	return e
}

func offset(d time.Duration) string {
	if d == 0 {
		return ""
	}
	return " offset " + genfile.Duration(d)
}
