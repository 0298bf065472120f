package generate

import (
	"fmt"
	"path"

	"github.com/slogen-dev/slogen/generate/dashboard"
	"github.com/slogen-dev/slogen/internal/model"
)

// Paths of a service's dashboard outputs, under its directory.
const (
	DashboardFile             = "dashboard.json"
	DashboardProvisioningFile = "dashboard-provisioning.yaml"
)

// dashboardFiles writes the Grafana dashboard, checked as Prometheus 2.42
// would parse its queries (a failure is a slogen bug, and nothing is
// written), and the file that provisions it.
func dashboardFiles(svc model.Service, out Files) error {
	d, err := dashboard.Build(svc)
	if err != nil {
		return err
	}
	if err := dashboard.Check(d); err != nil {
		return fmt.Errorf("slogen wrote an invalid dashboard query (a bug; please report it): %w", err)
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
