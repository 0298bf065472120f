package rules

import (
	"math/big"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/pql"
)

// RecordedPrefix begins the name of every series slogen records.
const RecordedPrefix = "slogen:"

// Recorded series. Every one carries the service and slo labels and
// nothing else, so label changes on the source metrics cannot split them.
const (
	ErrorsMetric   = "slogen:slo_errors:rate"   // + window, e.g. rate1h
	RequestsMetric = "slogen:slo_requests:rate" // + window
	// DownsampledErrorsMetric and DownsampledRequestsMetric copy the base
	// rates every PeriodInterval, for the long windows and the period.
	DownsampledErrorsMetric   = "slogen:slo_errors_downsampled:rate5m"
	DownsampledRequestsMetric = "slogen:slo_requests_downsampled:rate5m"
	// BudgetRemainingMetric is the fraction of the period's error budget left.
	BudgetRemainingMetric = "slogen:slo_error_budget_remaining:ratio"
	// CoverageMetric is the share of the SLO's period that the period
	// recordings hold samples for.
	CoverageMetric = "slogen:slo_period_coverage:ratio"
	// ObjectiveMetric is the objective as a ratio, for dashboards.
	ObjectiveMetric = "slogen:slo_objective:ratio"
)

// Alert names.
const (
	BurnAlert        = "SLOErrorBudgetBurn"
	NoDataAlert      = "SLOMetricsAbsent"
	TrafficDropAlert = "SLOTrafficDrop"
	BudgetGoneAlert  = "SLOErrorBudgetExhausted"
	BudgetLowAlert   = "SLOErrorBudgetLow"
	// TooManyGroupsAlert is the ticket for an SLO split into more values
	// of its group_by labels than it allows.
	TooManyGroupsAlert = "SLOTooManyGroups"
)

// trafficDropOffset is how far back SLOTrafficDrop looks for the traffic
// that went missing.
const trafficDropOffset = time.Hour

// Windows are the windows the SLI is recorded over: the base window from
// raw series, the rest from the base recording.
func Windows() []time.Duration {
	return []time.Duration{model.BaseWindow, 30 * time.Minute, time.Hour, 2 * time.Hour, 6 * time.Hour, 24 * time.Hour, 72 * time.Hour}
}

// Errors names the recorded error rate over a window.
func Errors(w time.Duration) string { return ErrorsMetric + genfile.Duration(w) }

// Requests names the recorded request rate over a window.
func Requests(w time.Duration) string { return RequestsMetric + genfile.Duration(w) }

// SLOSeries selects one SLO's series of a recorded metric.
func SLOSeries(metric string, svc model.Service, slo model.SLO) *parser.VectorSelector {
	return pql.Metric(metric, append(serviceMatcher(svc), pql.Eq("slo", slo.Name))...)
}

// ServiceSeries selects the series of all a service's SLOs.
func ServiceSeries(metric string, svc model.Service) *parser.VectorSelector {
	return pql.Metric(metric, serviceMatcher(svc)...)
}

// serviceMatcher selects the service's series; none for the rules that
// the services of a fleet share (SharedName), which join their members.
func serviceMatcher(svc model.Service) []*labels.Matcher {
	if svc.Name == SharedName {
		return nil
	}
	return []*labels.Matcher{pql.Eq("service", svc.Name)}
}

// decimal is an exact figure (a threshold, a budget) as rule files write
// it, FormatRat's decimal of at most 12 significant digits.
func decimal(r *big.Rat) pql.Expr { return pql.Decimal(model.FormatRat(r)) }

// sloLabels identify an SLO's recordings.
func sloLabels(svc model.Service, slo model.SLO) map[string]string {
	return map[string]string{"service": svc.Name, "slo": slo.Name}
}

// serviceLabels label the recordings of all a service's SLOs at once;
// their series keep the slo label of the series they read.
func serviceLabels(svc model.Service) map[string]string {
	return map[string]string{"service": svc.Name}
}
