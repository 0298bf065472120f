package model

import "slices"

// CauseSeverity is the severity of the cause alert named alert: the page
// severity where the spec promotes it, the ticket severity otherwise.
func (a Alerting) CauseSeverity(alert string) string {
	if slices.Contains(a.PageOn, alert) {
		return a.PageSeverity
	}
	return a.TicketSeverity
}
