package generate

import (
	"cmp"
	"path"
	"strings"

	"github.com/slogen-dev/slogen/internal/generate/dashboard"
	"github.com/slogen-dev/slogen/internal/generate/target"
	"github.com/slogen-dev/slogen/internal/grafana"
	"github.com/slogen-dev/slogen/internal/plan"
)

// Paths of a service's dashboard outputs, under its directory.
const (
	DashboardFile             = "dashboard.json"
	DashboardProvisioningFile = "dashboard-provisioning.yaml"
)

// dashboardFiles writes the Grafana dashboard and the file that
// provisions it, or for the operator target the ConfigMap Grafana's
// sidecar loads it from. The dashboard's queries are proven in
// internal/generate/dashboard's tests, for every runtime, as Prometheus 2.42
// parses them.
func dashboardFiles(o Options) stage {
	return func(w *plan.Service, out Files) error {
		svc := w.Svc
		d, err := dashboard.Build(w)
		if err != nil {
			return err
		}
		js, err := grafana.Marshal(d)
		if err != nil {
			return err
		}
		out[path.Join(ServiceDir(svc), DashboardFile)] = js
		if o.target() == target.Operator {
			name, value, _ := strings.Cut(cmp.Or(o.DashboardLabel, target.DefaultDashboardLabel), "=")
			cm, err := target.DashboardConfigMap(svc, js, o.Namespace, name, value)
			out[path.Join(ServiceDir(svc), target.DashboardConfigMapFile)] = cm
			return err
		}
		prov, err := dashboard.Provisioning(svc)
		out[path.Join(ServiceDir(svc), DashboardProvisioningFile)] = prov
		return err
	}
}
