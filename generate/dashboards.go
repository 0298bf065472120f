package generate

import (
	"path"

	"github.com/slogen-dev/slogen/generate/dashboard"
)

// Paths of a service's dashboard outputs, under its directory.
const (
	DashboardFile             = "dashboard.json"
	DashboardProvisioningFile = "dashboard-provisioning.yaml"
)

// dashboardFiles writes the Grafana dashboard and the file that
// provisions it. The dashboard's queries are proven in generate/dashboard's
// tests, for every runtime, as Prometheus 2.42 parses them.
func dashboardFiles(w *work, out Files) error {
	svc := w.svc
	d, err := dashboard.Build(svc)
	if err != nil {
		return err
	}
	js, err := dashboard.Marshal(d)
	if err != nil {
		return err
	}
	prov, err := dashboard.Provisioning(svc)
	if err != nil {
		return err
	}
	out[path.Join(ServiceDir(svc), DashboardFile)] = js
	out[path.Join(ServiceDir(svc), DashboardProvisioningFile)] = prov
	return nil
}
