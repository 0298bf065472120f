package generate

import (
	"github.com/slogen-dev/slogen/internal/generate/overview"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan"
)

// overviewFile writes the fleet's overview dashboard: every service and
// SLO in one table, each row linked to its service's dashboard. Its
// queries are proven in internal/generate/overview's tests, as Prometheus
// 2.42 parses and evaluates them.
func overviewFile(f *Fleet, out Files) error {
	d, err := overview.Build(f.Spec.Services, serviceView)
	if err != nil {
		return err
	}
	js, err := overview.Marshal(d)
	out[overview.File] = js
	return err
}

// serviceView is the dashboard a service's rows link to. TODO(lead): the
// kind dashboard's UID, once the kind dashboards land; until then the
// per-service dashboard's.
var serviceView = func(s model.Service) string { return plan.DashboardUID(s.Name) }
