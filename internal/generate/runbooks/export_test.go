package runbooks

import "github.com/slogen-dev/slogen/internal/model"

// RenderFleetCounted is RenderFleet, and how many pages it rendered.
var RenderFleetCounted = (*Templates).renderFleet

// Replace writes the placeholders over a service's identity in text, as
// a fleet's runbook does; exact as for a shape's placeholder service.
func Replace(svc model.Service, exact bool, text string) string {
	return identityOf(svc, exact).replace(text)
}

// Demote lowers text's headings outside fenced code by n levels.
var Demote = demoteHeadings
