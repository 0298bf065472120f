package rules

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/pql"
)

// A service with a global label runs in several clusters. Each cluster's
// Prometheus records the SLIs over the windows read from raw series (the
// local file); its external labels tell the clusters' recordings apart
// where they meet, in a global ruler that receives them by remote write,
// or queries them through Thanos or Mimir. The global ruler sums the
// clusters and holds everything else: the long windows, the budget and
// every SLO alert (the global file).

// ClusterErrorRatioMetric is each cluster's error ratio over the last
// hour, recorded by the global ruler: which cluster burns.
const ClusterErrorRatioMetric = "slogen:slo_cluster_error_ratio:rate1h"

// ClusterMissingAlert is the ticket for a cluster that stopped sending a
// service's recordings while others still send theirs.
const ClusterMissingAlert = "SLOClusterMissing"

// ClusterMissingFor is how long a cluster must be missing before the
// ticket opens: a remote-write backlog catches up within minutes.
const ClusterMissingFor = 10 * time.Minute

// clusterMemory is how long SLOClusterMissing remembers a cluster that
// sent: a cluster retired for good stops ticketing a day later.
const clusterMemory = 24 * time.Hour

// clusterErrorRatio records each cluster's error ratio over the last
// hour, from the clusters' own recordings.
func clusterErrorRatio(svc model.Service) Rule {
	return Rule{
		Record: ClusterErrorRatioMetric,
		Expr:   pql.Div(ServiceSeries(Errors(time.Hour), svc), ServiceSeries(Requests(time.Hour), svc)),
		Labels: serviceLabels(svc),
	}
}

// windowRate reads an SLO's recorded rate over a window, narrowed by the
// matchers given. On a global ruler the windows that each cluster records
// are summed over the clusters (clusterSum), keeping the SLO's own labels.
func windowRate(metric string, w time.Duration, svc model.Service, slo model.SLO, narrow ...*labels.Matcher) pql.Expr {
	sel := SLOSeries(metric, svc, slo)
	sel.LabelMatchers = append(sel.LabelMatchers, narrow...)
	if svc.Global == nil || !FromRawSeries(w) {
		return sel
	}
	return clusterSum(sel, svc.Global.Label, sloKeys(slo))
}

// ServiceRates reads the recorded rates over a window of all the
// service's SLOs, one series per SLO (and group value): on a global
// ruler summed over the clusters where the clusters record the window.
func ServiceRates(metric string, w time.Duration, svc model.Service) pql.Expr {
	sel := ServiceSeries(metric, svc)
	if svc.Global == nil || !FromRawSeries(w) {
		return sel
	}
	return clusterSum(sel, svc.Global.Label, serviceKeys(svc))
}

// baseRates reads the base window's rates of all the service's SLOs,
// summed over the clusters on a global ruler.
func baseRates(metric string, svc model.Service) pql.Expr {
	return ServiceRates(metric, model.BaseWindow, svc)
}

// clusterSum adds the clusters' series of sel, keeping the labels keys.
// A cluster's HA pair, two Prometheus servers that differ only by a
// replica label, sends each series twice: the highest of a cluster's
// copies counts once, so a pair does not double its cluster's weight when
// the global ruler does not deduplicate.
func clusterSum(sel pql.Expr, cluster string, keys []string) pql.Expr {
	return pql.Sum(pql.Max(sel, pql.By(append([]string{cluster}, keys...)...)), pql.By(keys...))
}

// sloKeys are the labels that tell an SLO's series apart: service, slo
// and its group_by labels.
func sloKeys(slo model.SLO) []string {
	return append([]string{"service", "slo"}, slo.GroupBy...)
}

// serviceKeys are the labels that tell apart the series of all the
// service's SLOs.
func serviceKeys(svc model.Service) []string {
	return append([]string{"service", "slo"}, svc.GroupLabels()...)
}

// clusterMissingAlert fires for each cluster that sent the service's
// recordings within the last day but sends none now, while another still
// does: its Prometheus, its remote write or the service there is gone,
// and the global SLO counts only the others. When every cluster is
// gone, the clusters' own SLOMetricsAbsent say so.
func clusterMissingAlert(svc model.Service) Rule {
	c := pql.By(svc.Global.Label)
	sel := ServiceSeries(Requests(model.BaseWindow), svc)
	gone := pql.Block(pql.Chain(parser.LUNLESS, pql.Match{},
		pql.Group(pql.Call("last_over_time", pql.Range(sel, clusterMemory)), c),
		pql.Group(sel, c)))
	return Rule{
		Alert:       ClusterMissingAlert,
		Expr:        pql.Chain(parser.LAND, pql.On(), gone, pql.Group(sel)).Indent("", "  "),
		For:         genfile.Duration(ClusterMissingFor),
		Labels:      ClusterMissingLabels(svc),
		Annotations: ClusterMissingAnnotations(svc),
	}
}

// ClusterMissingAnnotations are SLOClusterMissing's annotations; they
// name the cluster from the alert's label.
func ClusterMissingAnnotations(svc model.Service) map[string]string {
	c := fmt.Sprintf("{{ $labels.%s }}", svc.Global.Label)
	return withRunbook(svc, ClusterMissingAlert, map[string]string{
		"summary": fmt.Sprintf("%s %s sends no SLO recordings of %s", svc.Global.Label, c, EscapeTemplate(svc.Name)),
		"description": fmt.Sprintf("The %s %s sent the SLO recordings of %s within the last %s, but has sent none for %s, while other clusters still do. The global SLOs now count the other clusters only. Check that cluster's Prometheus, its remote write and the service there.",
			svc.Global.Label, c, EscapeTemplate(svc.Name), genfile.Duration(clusterMemory), genfile.Duration(ClusterMissingFor)),
	})
}

// burningClusters is the sentence of a global burn alert's description
// that names the clusters whose own error ratio is over tier t's
// threshold in its short window, worst first, or says none is. A split
// SLO's query reads the alert's own group values, which printf quotes.
func burningClusters(svc model.Service, slo model.SLO, t model.Tier) string {
	short := model.TierWindows[t].Short
	threshold, _ := slo.ErrorRatioThreshold(t)
	ms := []*labels.Matcher{pql.Eq("service", svc.Name), pql.Eq("slo", slo.Name), pql.Neq(svc.Global.Label, "")}
	for _, l := range slo.GroupBy {
		ms = append(ms, pql.Eq(l, groupPlaceholder+l))
	}
	ratio := pql.Div(pql.Metric(Errors(short), ms...), pql.Metric(Requests(short), ms...))
	worst := pql.Max(ratio, pql.By(append([]string{svc.Global.Label}, sloKeys(slo)...)...))
	q := pql.Print(pql.Call("sort_desc", pql.Gt(worst, decimal(threshold))))
	query := "`" + q + "`"
	if len(slo.GroupBy) > 0 {
		var args []string
		for range 2 { // each selector matches every group label, in the order the printer sorts them
			for _, l := range slo.GroupBy {
				q = strings.Replace(q, strconv.Quote(groupPlaceholder+l), "%q", 1)
				args = append(args, "$labels."+l)
			}
		}
		query = fmt.Sprintf("(printf `%s` %s)", q, strings.Join(args, " "))
	}
	return fmt.Sprintf(" Clusters over the lowest error ratio that fires this alert, in the last %s: {{ range $i, $s := query %s }}{{ if $i }}, {{ end }}{{ $s.Labels.%s }}{{ else }}none{{ end }}.",
		genfile.Duration(short), query, svc.Global.Label)
}

// groupPlaceholder stands for a group value in a query before printf.
const groupPlaceholder = "SLOGEN_GROUP_"

// ClusterMissingLabels are SLOClusterMissing's rule labels; each alert
// also carries the cluster it is about.
func ClusterMissingLabels(svc model.Service) map[string]string {
	return alertLabels(svc, svc.Alerting.TicketSeverity)
}

// ClusterMissingAnnotationsAt are SLOClusterMissing's annotations as
// Prometheus expands them for a cluster: what tests expect.
func ClusterMissingAnnotationsAt(svc model.Service, cluster string) map[string]string {
	a := ClusterMissingAnnotations(svc)
	for k, v := range a {
		a[k] = strings.ReplaceAll(v, fmt.Sprintf("{{ $labels.%s }}", svc.Global.Label), cluster)
	}
	return a
}
