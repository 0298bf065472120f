package testenv

import (
	"fmt"
	"strconv"
	"strings"
)

// SlothTeamsFleet is TeamsFleet's SLOs as Sloth v0.16 specs
// (prometheus/v1), one YAML document per service, over the series
// slogen's rules for that service read: the same selector, the model
// matcher where slogen's profile adds one, and le bounds as Python's
// prometheus_client writes them.
func SlothTeamsFleet(n int) []byte {
	var b strings.Builder
	for _, s := range teamServices(n) {
		fmt.Fprintf(&b, "---\nversion: prometheus/v1\nservice: %s\nlabels:\n  team: %s\nslos:\n", s.name, s.team)
		r := s.runtime
		plain := fmt.Sprintf(`job=%q,namespace=%q`, s.job(), s.name)
		withModel := fmt.Sprintf(`job=%q,model_name=%q,namespace=%q`, s.job(), s.model.name, s.name)
		availability := plain
		if r.availabilityHasModel {
			availability = withModel
		}
		writeSlothSLO(&b, "availability", s.tier.availability, rateSum(fmt.Sprintf(r.failed, availability)), rateSum(fmt.Sprintf(r.requests, availability)))
		bad, total := slothHistogram(r.ttftSeries, withModel, r.ttft)
		writeSlothSLO(&b, "ttft", s.tier.ttft, bad, total)
		bad, total = slothHistogram(r.e2eSeries, withModel, r.latency)
		writeSlothSLO(&b, "latency", s.tier.latency, bad, total)
	}
	return []byte(b.String())
}

func rateSum(series string) string { return "sum(rate(" + series + "[{{.window}}]))" }

// slothHistogram is the bad and total events of a latency SLO: requests
// slower than threshold seconds, and all requests.
func slothHistogram(name, sel string, threshold float64) (bad, total string) {
	total = rateSum(fmt.Sprintf("%s_count{%s}", name, sel))
	good := rateSum(fmt.Sprintf(`%s_bucket{%s,le="%s"}`, name, sel, pythonFloat(threshold)))
	return total + " - " + good, total
}

// pythonFloat writes a bucket bound as prometheus_client does: 1.0, not 1.
func pythonFloat(f float64) string {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.Contains(s, ".") {
		s += ".0"
	}
	return s
}

func writeSlothSLO(b *strings.Builder, name string, objective float64, bad, total string) {
	fmt.Fprintf(b, "  - name: %s\n    objective: %g\n    sli:\n      events:\n        error_query: '%s'\n        total_query: '%s'\n"+
		"    alerting:\n      name: %sBurn\n      page_alert: {labels: {severity: critical}}\n      ticket_alert: {labels: {severity: warning}}\n",
		name, objective, bad, total, name)
}
