package dashboard

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
)

// rateWindow is Grafana's own choice of rate window: at least four scrape
// intervals, and wide enough for the panel's resolution.
const rateWindow = "$__rate_interval"

// scope narrows a dashboard's queries to one service and to what its
// template variables select; alerts are the service's GPU and serving
// alerts, which panels draw the limits of.
type scope struct {
	svc    model.Service
	alerts gpualerts.Plan
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
// runtime's pod variable filters the pod's GPUs too.
func (s scope) gpuOwnerVar() string {
	if s.svc.DCGM.Mapping == model.MappingHost {
		return "host"
	}
	return "pod"
}

// app selects a runtime metric of the service, as the variables filter
// it. The metric may carry matchers (Serving.Aborts does).
func (s scope) app(metric model.Selector, extra ...*labels.Matcher) string {
	vs := s.appBase(metric, extra...)
	vs.LabelMatchers = append(vs.LabelMatchers, re(s.target(), "$"+s.target()))
	return vs.String()
}

// appBase selects a runtime metric of the service, unfiltered. The model
// matcher also accepts series without the model label: vLLM's HTTP
// metrics and Triton's GPU metrics carry none, and requiring it would
// hide them.
func (s scope) appBase(metric model.Selector, extra ...*labels.Matcher) *parser.VectorSelector {
	vs := metric.With()
	for _, l := range s.svc.Selector {
		vs.LabelMatchers = append(vs.LabelMatchers, eq(l.Name, l.Value))
	}
	if ml := s.svc.Metrics.ModelLabel; ml != "" && s.svc.Model != "" {
		vs.LabelMatchers = append(vs.LabelMatchers, re(ml, regexp.QuoteMeta(s.svc.Model)+"|"))
	}
	vs.LabelMatchers = append(vs.LabelMatchers, extra...)
	return vs
}

// gpu selects a dcgm-exporter metric for the service's GPUs, as the
// variables filter them.
func (s scope) gpu(metric string) string { return s.gpuSelector(metric).String() }

// gpuSelector is gpu's tree.
func (s scope) gpuSelector(metric string) *parser.VectorSelector {
	vs := s.gpuBase(metric)
	vs.LabelMatchers = append(vs.LabelMatchers, re(s.gpuOwner(), "$"+s.gpuOwnerVar()), re("gpu", "$gpu"))
	return vs
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

func eq(name, value string) *labels.Matcher {
	return labels.MustNewMatcher(labels.MatchEqual, name, value)
}

// re is a regexp matcher that is only ever printed, never matched, so its
// regexp is not compiled: compiling them was a fifth of a dashboard's
// build time. The tests' checkQueries parses every printed query, regexps
// included.
func re(name, value string) *labels.Matcher {
	return &labels.Matcher{Type: labels.MatchRegexp, Name: name, Value: value}
}

func rate(sel string) string { return fmt.Sprintf("rate(%s[%s])", sel, rateWindow) }

// sumBy aggregates by labels; none gives a plain sum.
func sumBy(e string, by ...string) string {
	if len(by) == 0 {
		return fmt.Sprintf("sum(%s)", e)
	}
	return fmt.Sprintf("sum by (%s) (%s)", strings.Join(by, ", "), e)
}

// quantile of a classic histogram across the service, in seconds when the
// histogram counts another unit (Triton's milliseconds).
func (s scope) quantile(q float64, h model.Histogram) string {
	return s.quantileBy(q, h, nil)
}

// quantileBy is quantile per value of a split SLO's group_by labels,
// narrowed to the picked values; across the service for nil.
func (s scope) quantileBy(q float64, h model.Histogram, split *model.SLO) string {
	by, narrow := []string{"le"}, []*labels.Matcher(nil)
	if split != nil {
		by, narrow = append(by, split.GroupBy...), groupNarrowing(*split)
	}
	e := fmt.Sprintf("histogram_quantile(%s, %s)", num(q), sumBy(rate(s.app(model.Metric(h.Name+"_bucket"), narrow...)), by...))
	if h.Unit != 0 && h.Unit != 1 {
		e += " * " + num(h.Unit)
	}
	return e
}

// sumRates adds the rates of several counters. A counter that has not
// seen its first event yet has no series, so each term falls back to 0.
func (s scope) sumRates(metrics []model.Selector) string {
	terms := make([]string, len(metrics))
	for i, m := range metrics {
		terms[i] = sumBy(rate(s.app(m)))
		if len(metrics) > 1 {
			terms[i] = "(" + terms[i] + " or vector(0))"
		}
	}
	return strings.Join(terms, " + ")
}

func num(f float64) string { return strconv.FormatFloat(f, 'g', -1, 64) }
