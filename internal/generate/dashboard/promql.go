package dashboard

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/pql"
	"github.com/slogen-dev/slogen/internal/profile"
)

// rateWindow is Grafana's own choice of rate window: at least four scrape
// intervals, and wide enough for the panel's resolution. The queries'
// trees hold rateWindowHeld in its place (pql.GrafanaRange): what Grafana
// picks at its default scrape interval of 15s.
const (
	rateWindow     = "$__rate_interval"
	rateWindowHeld = time.Minute
)

// scope narrows a dashboard's queries to one service and to what its
// template variables select; alerts are the service's GPU and serving
// alerts, which panels draw the limits of.
type scope struct {
	svc     model.Service
	alerts  gpualerts.Plan
	runtime profile.Profile
	// kindUID is, for the dashboard of a fleet's services of one kind,
	// its UID; svc is then one of them with its identity written as
	// variables (kindService).
	kindUID string
}

// hasAlert reports whether the service gets the named GPU or serving
// alert.
func (s scope) hasAlert(name string) bool {
	return slices.ContainsFunc(s.alerts.Alerts, func(a gpualerts.Alert) bool { return a.Name == name })
}

// target is the label naming the runtime process a series came from: the
// pod where dcgm-exporter maps GPUs to pods (the service runs in
// Kubernetes, and PodMonitors and kubernetes_sd relabeling set pod), the
// scrape instance elsewhere. Its variable has the same name.
func (s scope) target() string {
	if s.svc.DCGM.Mapping == model.MappingHost {
		return "instance"
	}
	return "pod"
}

// gpuOwner is the label tying a GPU series to the service: the pod using
// it, or its host.
func (s scope) gpuOwner() string {
	if s.svc.DCGM.Mapping == model.MappingHost {
		return "Hostname"
	}
	return s.svc.DCGM.PodLabel()
}

// gpuOwnerVar is the variable filtering gpuOwner: under pod mapping the
// runtime's pod variable filters the pod's GPUs too, but for a gateway,
// whose GPUs are its pool's engines', a variable of the engine pods.
func (s scope) gpuOwnerVar() string {
	switch {
	case s.svc.DCGM.Mapping == model.MappingHost:
		return "host"
	case s.svc.Metrics.Gateway:
		return enginePodVar
	}
	return "pod"
}

// enginePodVar filters a gateway's GPUs by the engine pod using them.
const enginePodVar = "engine_pod"

// app selects a runtime metric of the service, as the variables filter
// it. The metric may carry matchers (Serving.Aborts does).
func (s scope) app(metric model.Selector, extra ...*labels.Matcher) *parser.VectorSelector {
	vs := s.appBase(metric, extra...)
	vs.LabelMatchers = append(vs.LabelMatchers, re(s.target(), "$"+s.target()))
	return vs
}

// appBase selects a runtime metric of the service, unfiltered. The model
// matcher also accepts series without the model label: vLLM's HTTP
// metrics and Triton's GPU metrics carry none, and requiring it would
// hide them. A metric whose model label names another model than the
// one served gets none.
func (s scope) appBase(metric model.Selector, extra ...*labels.Matcher) *parser.VectorSelector {
	vs := metric.With()
	for _, l := range s.svc.Selector {
		vs.LabelMatchers = append(vs.LabelMatchers, pql.Eq(l.Name, l.Value))
	}
	if ml := s.svc.Metrics.ModelLabel; ml != "" && s.svc.Metrics.ModelCase.Value(metric.Name, s.svc.Model) != "" {
		vs.LabelMatchers = append(vs.LabelMatchers, re(ml, s.modelPattern(metric.Name)+"|"))
	}
	vs.LabelMatchers = append(vs.LabelMatchers, extra...)
	return vs
}

// modelPattern matches the served model as the runtime writes it on
// metric. A kind's dashboard takes the model from a variable, which holds
// it as the spec gives it, so where the runtime lower-cases it the
// pattern ignores case.
func (s scope) modelPattern(metric string) string {
	c := s.svc.Metrics.ModelCase
	switch {
	case s.kind() && c.Lowers(metric):
		return "(?i)$" + modelRegexVar
	case s.kind():
		return "$" + modelRegexVar
	}
	return regexp.QuoteMeta(c.Value(metric, s.svc.Model))
}

// gpu selects a dcgm-exporter metric for the service's GPUs, as the
// variables filter them.
func (s scope) gpu(metric string) *parser.VectorSelector {
	vs := s.gpuBase(metric)
	vs.LabelMatchers = append(vs.LabelMatchers, s.gpuFilters()...)
	return vs
}

// gpuFilters narrow GPU series to the GPUs the variables pick.
func (s scope) gpuFilters() []*labels.Matcher {
	return []*labels.Matcher{re(s.gpuOwner(), "$"+s.gpuOwnerVar()), re("gpu", "$gpu")}
}

// gpuBase selects a dcgm-exporter metric for the service's GPUs: the
// spec's DCGM mapping (job, and pod and namespace or hosts).
func (s scope) gpuBase(metric string) *parser.VectorSelector {
	vs := model.Metric(metric).With(s.svc.DCGM.Matchers...)
	return vs
}

// gpuLegend names one GPU: its pod or host, then its index.
func (s scope) gpuLegend(suffix string) string {
	return strings.TrimSpace(fmt.Sprintf("{{%s}} GPU {{gpu}} %s", s.gpuOwner(), suffix))
}

// targetLegend names one runtime process.
func (s scope) targetLegend(suffix string) string {
	return strings.TrimSpace(fmt.Sprintf("{{%s}} %s", s.target(), suffix))
}

// re is a regexp matcher that is only ever printed, never matched, so its
// regexp is not compiled: compiling them was a fifth of a dashboard's
// build time. The tests' checkQueries parses every printed query, regexps
// included.
func re(name, value string) *labels.Matcher {
	return &labels.Matcher{Type: labels.MatchRegexp, Name: name, Value: value}
}

// rate is sel's per-second rate over Grafana's rate window.
func rate(sel *parser.VectorSelector) pql.Expr {
	return pql.Call("rate", pql.GrafanaRange(sel, rateWindow, rateWindowHeld))
}

// sumBy aggregates by labels; none gives a plain sum.
func sumBy(e pql.Expr, by ...string) pql.Expr {
	if len(by) == 0 {
		return pql.Sum(e)
	}
	return pql.Sum(e, pql.By(by...))
}

// quantile of a histogram across the service, in seconds when the
// histogram counts another unit (Triton's milliseconds).
func (s scope) quantile(q float64, h model.Histogram) pql.Expr {
	return s.quantileBy(number(q), h, nil)
}

// quantileBy is quantile per value of a split SLO's group_by labels,
// narrowed to the picked values; across the service for nil.
func (s scope) quantileBy(q pql.Expr, h model.Histogram, split *model.SLO) pql.Expr {
	by, narrow := []string{"le"}, []*labels.Matcher(nil)
	series := model.Metric(h.Name + "_bucket")
	if h.Native { // one series per label set, its buckets inside
		by, series = nil, model.Metric(h.Name)
	}
	if split != nil {
		by, narrow = append(by, split.GroupBy...), groupNarrowing(*split)
	}
	e := pql.Call("histogram_quantile", q, sumBy(rate(s.app(series, narrow...)), by...))
	if h.Unit != 0 && h.Unit != 1 {
		return pql.Mul(e, number(h.Unit))
	}
	return e
}

// sumRates adds the rates of several counters. A counter that has not
// seen its first event yet has no series, so each term falls back to 0.
func (s scope) sumRates(metrics []model.Selector) pql.Expr {
	var sum pql.Expr
	for _, m := range metrics {
		term := sumBy(rate(s.app(m)))
		if len(metrics) > 1 {
			term = pql.Paren(pql.Or(term, vector(0)))
		}
		if sum == nil {
			sum = term
		} else {
			sum = pql.Add(sum, term)
		}
	}
	return sum
}

// vector is a constant series.
func vector(f float64) pql.Expr { return pql.Call("vector", number(f)) }

// number is a number in a query, written as num writes it in the text
// around it.
func number(f float64) pql.Expr { return pql.Decimal(num(f)) }

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
