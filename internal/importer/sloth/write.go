package sloth

import (
	"github.com/slogen-dev/slogen/internal/importer"
)

// Imported is the converted services as slogen import writes and
// reports them.
func Imported(services []Converted) []importer.Service {
	var out []importer.Service
	for _, c := range services {
		s := importer.Service{
			At: c.From.At, Origin: "Sloth", Name: c.Name, Runtime: importer.CustomRuntime, Metric: c.Metric,
			Labels: c.Labels, Page: c.Page, Ticket: c.Ticket, Runbook: c.Runbook, Notes: c.Notes,
			ForWhy: "Sloth's tickets fire as soon as their windows burn; so do these.",
			For:    []importer.Label{{Key: "ticket_fast", Value: "0s"}, {Key: "ticket_slow", Value: "0s"}},
		}
		for _, slo := range c.SLOs {
			s.SLOs = append(s.SLOs, importer.SLO{
				At: slo.From.At, From: slo.From.Name, Name: slo.Name, Kind: "ratio",
				Objective: slo.From.Objective, Description: slo.From.Description,
				Bad: slo.Bad, Total: slo.Total, Skip: slo.Skip, Notes: slo.Notes,
			})
		}
		out = append(out, s)
	}
	return out
}
