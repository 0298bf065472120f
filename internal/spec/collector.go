package spec

import (
	"strings"
	"time"

	promodel "github.com/prometheus/common/model"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/profile"
)

// collector reads the opt-in collector block, and notes for vet where the
// runtime's spans cannot show what the service's SLOs bound: such a
// threshold keeps no trace.
func (r *resolver) collector(svc model.Service, raw rawService, prof profile.Profile) *model.Collector {
	if raw.Collector == nil {
		return nil
	}
	c := &model.Collector{
		RequestsPerSecond: raw.Collector.RequestsPerSecond,
		SampleFloor:       raw.Collector.SampleFloor,
		TracesDatasource:  raw.Collector.TracesDatasource,
	}
	d, err := promodel.ParseDuration(raw.Collector.DecisionWait)
	if err != nil || d <= 0 {
		r.errorf(fields("collector", "decision_wait"), "%q is not a positive duration; write one longer than the longest request, such as 30s", raw.Collector.DecisionWait)
	}
	c.DecisionWait = time.Duration(d)
	r.noteUnsampled(svc, prof)
	return c
}

// noteUnsampled says which of the service's latency bounds no span
// attribute carries, or that the runtime emits no spans at all.
func (r *resolver) noteUnsampled(svc model.Service, prof profile.Profile) {
	t := profile.TelemetryOf(prof.Runtime)
	if !t.Spans {
		what := "no tail-sampling policy for it, only its log counts"
		if len(t.FatalLines) == 0 {
			what = "nothing for it: slogen knows neither its spans nor its log lines"
		}
		r.notef(fields("collector"), "runtime %q emits no spans slogen knows: otelcol.yaml gets %s", svc.Runtime, what)
		return
	}
	var blind []string
	for _, slo := range svc.SLOs {
		for _, b := range slo.LatencyBounds() {
			if _, ok := t.SpanLatency[b.Kind]; !ok {
				blind = append(blind, slo.Name+" ("+string(b.Kind)+")")
			}
		}
	}
	if len(blind) > 0 {
		r.notef(fields("collector"), "%s's spans carry no attribute for %s: a breach of it keeps no trace of its own, only errored traces and the sample floor do", prof.Title, strings.Join(blind, ", "))
	}
}
