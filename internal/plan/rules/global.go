package rules

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
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
		Expr:   fmt.Sprintf("%s / %s", ServiceSelector(Errors(time.Hour), svc), ServiceSelector(Requests(time.Hour), svc)),
		Labels: serviceLabels(svc),
	}
}

// windowRate reads an SLO's recorded rate over a window. On a global
// ruler the windows that each cluster records are summed over the
// clusters (clusterSum), keeping the SLO's own labels.
func windowRate(metric string, w time.Duration, svc model.Service, slo model.SLO) string {
	sel := Selector(metric, svc, slo)
	if svc.Global == nil || !FromRawSeries(w) {
		return sel
	}
	return clusterSum(sel, svc.Global.Label, sloKeys(slo))
}

// ServiceRates reads the recorded rates over a window of all the
// service's SLOs, one series per SLO (and group value): on a global
// ruler summed over the clusters where the clusters record the window.
func ServiceRates(metric string, w time.Duration, svc model.Service) string {
	sel := ServiceSelector(metric, svc)
	if svc.Global == nil || !FromRawSeries(w) {
		return sel
	}
	return clusterSum(sel, svc.Global.Label, serviceKeys(svc))
}

// baseRates reads the base window's rates of all the service's SLOs,
// summed over the clusters on a global ruler.
func baseRates(metric string, svc model.Service) string {
	return ServiceRates(metric, model.BaseWindow, svc)
}

// clusterSum adds the clusters' series of sel, keeping the labels keys.
// A cluster's HA pair, two Prometheus servers that differ only by a
// replica label, sends each series twice: the highest of a cluster's
// copies counts once, so a pair does not double its cluster's weight when
// the global ruler does not deduplicate.
func clusterSum(sel, cluster string, keys []string) string {
	by := strings.Join(keys, ", ")
	return fmt.Sprintf("sum by (%s) (max by (%s, %s) (%s))", by, cluster, by, sel)
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
	c := svc.Global.Label
	sel := ServiceSelector(Requests(model.BaseWindow), svc)
	return Rule{
		Alert: ClusterMissingAlert,
		Expr: fmt.Sprintf("(\n  group by (%s) (last_over_time(%s[%s]))\nunless\n  group by (%s) (%s)\n)\nand on ()\n  group(%s)",
			c, sel, genfile.Duration(clusterMemory), c, sel, sel),
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
	ms := []*labels.Matcher{eq("service", svc.Name), eq("slo", slo.Name), labels.MustNewMatcher(labels.MatchNotEqual, svc.Global.Label, "")}
	for _, l := range slo.GroupBy {
		ms = append(ms, eq(l, groupPlaceholder+l))
	}
	sel := func(metric string) string { return model.Metric(metric).With(ms...).String() }
	by := strings.Join(append([]string{svc.Global.Label}, sloKeys(slo)...), ", ")
	q := fmt.Sprintf("sort_desc(max by (%s) (%s / %s) > %s)", by, sel(Errors(short)), sel(Requests(short)), model.FormatRat(threshold))
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
