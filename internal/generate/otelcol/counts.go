package otelcol

import (
	"fmt"
	"regexp"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/profile"
)

// CountMetric is the name the count connector gives the count of event's
// lines; Prometheus's exporter writes it slogen_log_<event>_total.
func CountMetric(event string) string { return "slogen.log." + event }

// countMetric is one of the count connector's log metrics: the lines that
// meet any condition, per value of the attributes.
type countMetric struct {
	Description string           `yaml:"description"`
	Conditions  []string         `yaml:"conditions"`
	Attributes  []countAttribute `yaml:"attributes"`
}

type countAttribute struct {
	Key          string `yaml:"key"`
	DefaultValue string `yaml:"default_value,omitempty"`
}

// perPod are the labels of every count: the service, and the pod and
// namespace the line came from (a filelog receiver's container parser or
// the k8sattributes processor sets them). A line without them still
// counts, as "unknown": a count that vanished would hide a dead engine.
var perPod = []countAttribute{
	{Key: serviceName},
	{Key: "k8s.namespace.name", DefaultValue: "unknown"},
	{Key: "k8s.pod.name", DefaultValue: "unknown"},
}

// counts are the count connector's log metrics: one per event any
// service's runtime logs, each counting that line from those services.
func counts(services []model.Service) map[string]countMetric {
	byEvent := map[string]*countMetric{}
	for _, p := range services {
		for _, l := range profile.TelemetryOf(p.Runtime).FatalLines {
			m := byEvent[l.Event]
			if m == nil {
				m = &countMetric{Description: fmt.Sprintf("Log lines containing %q.", l.Text), Attributes: perPod}
				byEvent[l.Event] = m
			}
			m.Conditions = append(m.Conditions, lineCondition(p.Name, l.Text))
		}
	}
	logs := map[string]countMetric{}
	for event, m := range byEvent {
		logs[CountMetric(event)] = *m
	}
	return logs
}

// lineCondition matches a line of the service that holds text. The body
// is the line as written (a string); a JSON line parsed into a map is not
// matched here.
func lineCondition(svc, text string) string {
	return fmt.Sprintf("%s and IsString(body) and IsMatch(body, %s)", ofService(svc), quote(regexp.QuoteMeta(text)))
}
