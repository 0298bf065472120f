package generate

import (
	"cmp"
	"errors"
	"fmt"
	"path"
	"strings"

	sdk "github.com/grafana/grafana-foundation-sdk/go/dashboard"

	"github.com/slogen-dev/slogen/internal/generate/dashboard"
	"github.com/slogen-dev/slogen/internal/generate/target"
	"github.com/slogen-dev/slogen/internal/grafana"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan"
)

// Paths of a fleet's dashboard outputs, under the output directory.
const (
	// FleetDashboardsDir holds a dashboard per kind (plan.Kind), named
	// after it.
	FleetDashboardsDir = "dashboards"
	// FleetDashboardConfigMapsDir holds, under the operator target, a
	// ConfigMap per dashboard, for kubectl apply -f.
	FleetDashboardConfigMapsDir = "dashboard-configmaps"
)

// fleetDashboards writes a dashboard per kind of service, built once
// from the kind's first service, and the one provider that loads them
// all, or under the operator target a ConfigMap per dashboard. A service
// whose spec asks for its own dashboard also gets the one it gets when
// built alone, in its directory.
func fleetDashboards(f *Fleet, out Files) error {
	var errs []error
	for _, svc := range kindsOf(f) {
		p := plan.NewIn(svc, plan.Fleet)
		d, err := dashboard.BuildKind(p)
		errs = append(errs, cmp.Or(err, writeDashboard(f, out, svc, p.Kind, path.Join(FleetDashboardsDir, p.Kind+".json"), d)))
	}
	for _, svc := range f.Spec.Services {
		if svc.OwnDashboard {
			d, err := dashboard.Build(plan.New(svc))
			errs = append(errs, cmp.Or(err, writeDashboard(f, out, svc, svc.Name, path.Join(ServiceDir(svc), DashboardFile), d)))
		}
	}
	if f.Options.target() != target.Operator {
		prov, err := dashboard.FleetProvisioning()
		out[DashboardProvisioningFile] = prov
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// kindsOf is the first service of each kind, in spec order. Finding a
// service's kind costs a few microseconds; every service is asked, so
// that no service links to a dashboard that was not written.
func kindsOf(f *Fleet) []model.Service {
	seen := map[string]bool{}
	var firsts []model.Service
	for _, svc := range f.Spec.Services {
		if k := plan.Kind(svc); !seen[k] {
			seen[k] = true
			firsts = append(firsts, svc)
		}
	}
	return firsts
}

// writeDashboard writes a built dashboard at p and, under the operator
// target, the ConfigMap Grafana's sidecar loads it from, called after
// name and put where owner's own dashboard's ConfigMap would go.
func writeDashboard(f *Fleet, out Files, owner model.Service, name, p string, d sdk.Dashboard) error {
	js, err := grafana.Marshal(d)
	if err != nil {
		return err
	}
	out[p] = js
	if f.Options.target() != target.Operator {
		return nil
	}
	label, value, _ := strings.Cut(cmp.Or(f.Options.DashboardLabel, target.DefaultDashboardLabel), "=")
	owner.Name = name // target names the ConfigMap and its key after the service
	cm, err := target.DashboardConfigMap(owner, js, f.Options.Namespace, label, value)
	if err != nil {
		return fmt.Errorf("%s: %w", p, err)
	}
	out[path.Join(FleetDashboardConfigMapsDir, name+".yaml")] = cm
	return nil
}
