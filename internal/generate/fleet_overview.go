package generate

import "github.com/slogen-dev/slogen/internal/generate/overview"

// overviewFile writes the fleet's overview dashboard: every service and
// SLO in one table, each row linked to the dashboard its service is drawn
// on; under the operator target, in a ConfigMap beside the kinds'. Its
// queries are proven in internal/generate/overview's tests, as
// Prometheus 2.42 parses and evaluates them.
func overviewFile(f *Fleet, out Files) error {
	d, err := overview.Build(f.Spec.Services)
	if err != nil {
		return err
	}
	return writeDashboard(f, out, f.Spec.Services[0], "overview", overview.File, d)
}
