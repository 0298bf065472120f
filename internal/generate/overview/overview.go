// Package overview builds a fleet's overview dashboard: every service and
// SLO in one table, worst first (the least error budget left on top),
// filtered by team and runtime, each row a link to its service's view;
// below it, what the GPU diagnosis says of the services with the least
// budget left. Pyrra's list page, Sloth's UI and Grafana SLO's overview
// are its models.
//
// It reads only what every service of a fleet records, by name: the SLO
// period recordings (internal/plan/rules), the diagnosis recordings
// (internal/plan/gpualerts), slogen:service_info and ALERTS, and
// dcgm-exporter's utilisation through the GPU memory recording. So one
// dashboard serves any number of services, and its size grows with the
// kinds of service, not their number. Like internal/generate/dashboard, it
// uses the Grafana foundation SDK's builders, never hand-written JSON, but
// reads no other output.
package overview

import (
	"errors"
	"fmt"

	"github.com/grafana/grafana-foundation-sdk/go/common"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/grafana"
	"github.com/slogen-dev/slogen/internal/model"
)

// File is where the overview goes, under the output directory: beside the
// kind dashboards, which one Grafana provider loads.
const File = "dashboards/overview.json"

// UID is the overview's Grafana UID. Service names are DNS labels, so no
// service's dashboard UID ("slogen-<service>") can be it.
const UID = "slogen-overview"

// SchemaVersion is the dashboard schema the overview declares: the kind
// dashboards' (internal/generate/dashboard.SchemaVersion, whose comment
// says why), so that every Grafana from 11.0 on loads it the same way.
const SchemaVersion = 39

// Build returns the overview of a fleet's services. It names none of
// them: a service added to the fleet changes it only if it brings what
// the others lack (an SLO period, a group_by or cluster label, a DCGM
// mapping, a runtime's gauge under other selector labels).
func Build(svcs []model.Service) (dashboard.Dashboard, error) {
	if len(svcs) == 0 {
		return dashboard.Dashboard{}, errors.New("building the overview dashboard: no services")
	}
	f := gather(svcs)
	b := dashboard.NewDashboardBuilder("SLO overview").
		Uid(UID).
		Description(fmt.Sprintf("Every SLO of the fleet, least error budget left first, and the GPU diagnosis of the %d services with the least. %s",
			worstCount, genfile.Marker)).
		Tags([]string{"slogen", "overview"}).
		Time("now-6h", "now").
		Refresh("1m").
		Timezone(common.TimeZoneBrowser).
		Tooltip(dashboard.DashboardCursorSyncCrosshair)
	for _, v := range variables() {
		b.WithVariable(v)
	}
	layOut(f).addTo(b)
	d, err := b.Build()
	if err != nil {
		return dashboard.Dashboard{}, fmt.Errorf("building the overview dashboard: %w", err)
	}
	d.SchemaVersion = SchemaVersion
	grafana.NumberPanels(&d)
	return d, nil
}
