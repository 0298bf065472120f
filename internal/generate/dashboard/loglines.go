package dashboard

import (
	"fmt"

	"github.com/grafana/grafana-foundation-sdk/go/common"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/timeseries"
	"github.com/grafana/grafana-foundation-sdk/go/units"
	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/profile"
)

// loggedPod is the label of a fatal-line count naming the pod that logged
// the line: the Collector's k8s.pod.name, as its exporter writes it.
const loggedPod = "k8s_pod_name"

// loggedLines are the engine's fatal log lines beside the HTTP errors:
// per pod, each line the service's OpenTelemetry Collector counts and an
// alert reads, exactly as the alert reads it (gpualerts.LoggedLines),
// narrowed to the picked pods. A failed request says that users see
// errors; a pod's "CUDA out of memory" says why. None for a service
// whose Collector counts no lines, or that has no collector block.
func loggedLines(s scope) []query {
	text := map[string]string{}
	for _, l := range profile.TelemetryOf(s.svc.Runtime).FatalLines {
		text[l.Event] = l.Text
	}
	var qs []query
	for _, a := range s.alerts.Alerts {
		if event, ok := gpualerts.LogEvents[a.Name]; ok {
			qs = append(qs, plot(gpualerts.LoggedLines(s.svc, a.Name, s.pickedPods()...), fmt.Sprintf("{{%s}}: %s", loggedPod, text[event])))
		}
	}
	return qs
}

// pickedPods narrows the counts to the pods the pod variable picks: the
// Collector's pod name is the pod label Kubernetes discovery sets on the
// runtime's series. Outside Kubernetes the variable lists instances, which
// name no pod, so the counts are not narrowed.
func (s scope) pickedPods() []*labels.Matcher {
	if s.target() != "pod" {
		return nil
	}
	return []*labels.Matcher{re(loggedPod, "$pod")}
}

// loggedLinesAbout is what the errors panel's description says of the
// fatal lines it draws; "" when it draws none.
func loggedLinesAbout(lines []query) string {
	if len(lines) == 0 {
		return ""
	}
	return fmt.Sprintf(" Bars, on the right axis: the engine's fatal log lines, per pod and line, "+
		"as the OpenTelemetry Collector counts them and their alerts read them: the lines of the last %s, or a pod's first line. "+
		"Each bar fires its alert; the pod's log has the line and its traceback.", genfile.Duration(gpualerts.HealthWindow))
}

// withLoggedLines adds the fatal lines to an errors panel after its
// first n queries: bars on a right axis, in lines, so that they read
// apart from the error ratios.
func withLoggedLines(p *timeseries.PanelBuilder, n int, lines []query) *timeseries.PanelBuilder {
	for i, l := range lines {
		p.WithTarget(target(n+i, l)).OverrideByQuery(refID(n+i), loggedLineStyle())
	}
	return p
}

func loggedLineStyle() []dashboard.DynamicConfigValue {
	return append(rightAxis(units.Short),
		dashboard.DynamicConfigValue{Id: "min", Value: 0},
		dashboard.DynamicConfigValue{Id: "custom.drawStyle", Value: common.GraphDrawStyleBars},
		dashboard.DynamicConfigValue{Id: "custom.fillOpacity", Value: 80},
	)
}
