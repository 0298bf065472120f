package generate

import "fmt"

// fleetRunbook writes a fleet's one runbook, at the top of the output:
// every alert's section, rendered once per rule template rather than per
// service, which alerting.runbook_base_url links point into.
func fleetRunbook(f *Fleet, out Files) error {
	data, err := f.Runbooks.RenderFleet(f.Spec.Services, f.Templates)
	if err != nil {
		return fmt.Errorf("%s: %w", RunbookFile, err)
	}
	out[RunbookFile] = data
	return nil
}
