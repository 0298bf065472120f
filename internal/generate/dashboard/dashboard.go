// Package dashboard builds a service's Grafana dashboard: on its first
// screen the diagnosis and the firing alerts, then the four vital signs of
// an inference service (latency, throughput, errors, VRAM) 2×2; below,
// its SLOs and its GPUs. It uses the Grafana foundation SDK's builders,
// never hand-written JSON, and stays at 20 panels or fewer: the point is
// a dashboard read in an incident, not every metric there is. Its panels
// read what the service's alerts read, so that they agree with them.
package dashboard

import (
	"fmt"

	"github.com/grafana/grafana-foundation-sdk/go/common"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/grafana"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan"
)

// SchemaVersion is the dashboard schema slogen declares. The SDK writes
// 42, the last version of Grafana's v1 dashboard schema (Grafana 12.2 and
// later). Grafana only migrates dashboards upwards, so Grafana 11 and
// 12.0-12.1 (39 to 41) would meet a version from their future. 39 is the
// version of Grafana 11.0, so every Grafana from 11.0 on takes its usual
// upgrade path; migrations 40 to 42 (refresh as a string, no
// timepicker.time_options, hideFrom.tooltip) find nothing to change in
// what slogen writes.
const SchemaVersion = 39

// Generated marks the dashboard as generated. JSON has no comments, so it
// goes in the description.
const Generated = genfile.Marker

// Build returns the dashboard of a planned service: the alerts the
// service gets decide the lines and verdicts drawn.
func Build(p *plan.Service) (dashboard.Dashboard, error) {
	svc := p.Svc
	s := scope{svc: svc, alerts: p.GPU, runtime: p.Runtime}
	return assemble(s, dashboard.NewDashboardBuilder(fmt.Sprintf("%s: SLOs and vital signs", svc.Name)).
		Uid(p.DashboardUID).
		Description(description(svc)).
		Tags([]string{"slogen", svc.Runtime}))
}

// assemble adds to b, which names the dashboard, what every slogen
// dashboard has: its time settings, variables and panels.
func assemble(s scope, b *dashboard.DashboardBuilder) (dashboard.Dashboard, error) {
	b.Time("now-6h", "now").
		Refresh("1m").
		Timezone(common.TimeZoneBrowser).
		Tooltip(dashboard.DashboardCursorSyncCrosshair) // one crosshair across the quadrants
	for _, v := range variables(s) {
		b.WithVariable(v)
	}
	layOut(s).addTo(b)
	d, err := b.Build()
	if err != nil {
		return dashboard.Dashboard{}, fmt.Errorf("building the dashboard of %s: %w", s.svc.Name, err)
	}
	d.SchemaVersion = SchemaVersion
	grafana.NumberPanels(&d)
	return d, nil
}

func description(svc model.Service) string {
	what := svc.Runtime
	if svc.Model != "" {
		what = svc.Model + " on " + svc.Runtime
	}
	return fmt.Sprintf("SLOs and the four vital signs of %s (%s). %s", svc.Name, what, Generated)
}
