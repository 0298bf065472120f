package plan

import (
	"encoding/json"
	"maps"
	"net/url"
	"strconv"
	"strings"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/profile"
)

// TracesAnnotation is the burn-rate alert annotation linking to the
// traces the Collector's tail sampling kept because their request broke
// the SLO's latency bound: a TTFT page opens the slow first tokens.
const TracesAnnotation = "traces_url"

// tracesRange is how far back the link searches: the page's longest
// window, so that the traces of the requests that fired it are in it.
const tracesRange = "now-1h"

// SlowTraces is the TraceQL query for the traces of the service's
// requests that broke one of the SLO's latency bounds, as the runtime's
// span attributes (the tail-sampling policies' own) say; false when the
// service has no collector block or its spans carry none of the bounds.
func SlowTraces(svc model.Service, slo model.SLO) (string, bool) {
	if svc.Collector == nil {
		return "", false
	}
	attrs := profile.TelemetryOf(svc.Runtime).SpanLatency
	var over []string
	for _, b := range slo.LatencyBounds() {
		if attr, ok := attrs[b.Kind]; ok {
			over = append(over, "span."+attr+" > "+strconv.FormatFloat(b.Threshold.Seconds(), 'f', -1, 64))
		}
	}
	if len(over) == 0 {
		return "", false
	}
	cond := over[0]
	if len(over) > 1 {
		cond = "(" + strings.Join(over, " || ") + ")"
	}
	return "{ resource.service.name = " + strconv.Quote(svc.Name) + " && " + cond + " }", true
}

// TracesURL opens Grafana's Explore on the trace data source with the
// query, over the last hour.
func TracesURL(grafanaURL, datasource, query string) string {
	panes := ExplorePanes(datasource, query, tracesRange, "now")
	return strings.TrimSuffix(grafanaURL, "/") + "/explore?" + url.Values{"schemaVersion": {"1"}, "panes": {panes}}.Encode()
}

// ExplorePanes is the panes parameter of a Grafana Explore URL: one
// TraceQL query on the Tempo data source, over from to to. A dashboard's
// link passes variables (${traces}, ${__from}) that Grafana replaces.
func ExplorePanes(datasource, query, from, to string) string {
	ds := map[string]string{"type": "tempo", "uid": datasource}
	pane := map[string]any{
		"datasource": datasource,
		"queries":    []any{map[string]any{"refId": "A", "datasource": ds, "queryType": "traceql", "query": query}},
		"range":      map[string]string{"from": from, "to": to},
	}
	var panes strings.Builder
	enc := json.NewEncoder(&panes)
	enc.SetEscapeHTML(false)                       // the query's && and > as written
	_ = enc.Encode(map[string]any{"slogen": pane}) // maps of strings always encode
	return strings.TrimSpace(panes.String())
}

// linkTraces gives each burn-rate alert of an SLO whose breaches the
// Collector keeps the link to those traces.
func linkTraces(p *Service) {
	links := map[string]string{}
	for _, slo := range p.Svc.SLOs {
		if q, ok := SlowTraces(p.Svc, slo); ok {
			links[slo.Name] = rules.EscapeTemplate(TracesURL(p.Svc.Alerting.GrafanaURL, p.Svc.Collector.TracesDatasource, q))
		}
	}
	if len(links) == 0 {
		return
	}
	for _, groups := range [][]rules.Group{p.Local, p.Global} {
		for _, g := range groups {
			for i, r := range g.Rules {
				link, ok := links[r.Labels["slo"]]
				if r.Alert != rules.BurnAlert || !ok {
					continue
				}
				a := maps.Clone(r.Annotations)
				if a == nil {
					a = map[string]string{}
				}
				a[TracesAnnotation] = link
				g.Rules[i].Annotations = a
			}
		}
	}
}
