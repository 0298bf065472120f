package sloth

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// labelName is a Prometheus label name (legacy validation, as Prometheus 2.42).
var labelName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]*$`)

// reservedLabels are the alert labels slogen sets itself
// (internal/spec/service.go).
var reservedLabels = []string{"alertname", "service", "slo", "severity", "long_window", "short_window", "tier"}

// alertLabels are the labels slogen can put on every alert of the
// service: Sloth's service labels, and the SLO and alerting labels every
// imported SLO has alike. Sloth puts labels on its recordings too; slogen
// has no place for them there.
func (c *Converted) alertLabels() []Label {
	var kept []Label
	keepLabels(c.From.Labels, "labels", &kept, &c.Notes)
	var shared []Label
	first := true
	for _, s := range c.SLOs {
		if s.Skip {
			continue
		}
		mine := slices.Concat(s.From.Labels, s.From.AlertLabels)
		if first {
			shared, first = mine, false
			continue
		}
		shared = slices.DeleteFunc(shared, func(l Label) bool { return !hasLabel(mine, l) })
	}
	for i := range c.SLOs {
		s := &c.SLOs[i]
		if s.Skip {
			continue
		}
		for _, l := range slices.Concat(s.From.Labels, s.From.AlertLabels) {
			if !hasLabel(shared, l) {
				s.Notes.Dropped = append(s.Notes.Dropped, fmt.Sprintf("label %s=%q (%s): slogen's alert labels are the service's, and the other SLOs do not share it", l.Key, l.Value, l.At))
				continue
			}
			keepLabels([]Label{l}, "alert label", &kept, &s.Notes)
		}
	}
	return kept
}

// keepLabels adds to kept each label slogen can carry on its alerts.
func keepLabels(ls []Label, what string, kept *[]Label, n *Notes) {
	for _, l := range ls {
		switch {
		case slices.Contains(reservedLabels, l.Key):
			n.Dropped = append(n.Dropped, fmt.Sprintf("%s %s=%q (%s): slogen sets %s on its alerts itself", what, l.Key, l.Value, l.At, l.Key))
		case !labelName.MatchString(l.Key) || strings.HasPrefix(l.Key, "__"):
			n.Dropped = append(n.Dropped, fmt.Sprintf("%s %q (%s): not a Prometheus label name", what, l.Key, l.At))
		case hasKey(*kept, l.Key) && !hasLabel(*kept, l):
			n.Dropped = append(n.Dropped, fmt.Sprintf("%s %s=%q (%s): another value of %s is already on the service's alerts", what, l.Key, l.Value, l.At, l.Key))
		case hasLabel(*kept, l):
		default:
			*kept = append(*kept, l)
			n.Exact = append(n.Exact, fmt.Sprintf("%s %s=%q as alerting.labels", what, l.Key, l.Value))
		}
	}
}

// severity is the tier's severity label, when every imported SLO gives
// the same one; slogen's is per service. The tier's other labels cannot
// be carried.
func (c *Converted) severity(tier func(SLO) Alert, name string) string {
	var sev string
	same := true
	for i := range c.SLOs {
		s := &c.SLOs[i]
		if s.Skip {
			continue
		}
		for _, l := range tier(s.From).Labels {
			if l.Key == "severity" {
				same = same && (sev == "" || sev == l.Value)
				sev = l.Value
				continue
			}
			s.Notes.Dropped = append(s.Notes.Dropped, fmt.Sprintf("%s_alert label %s=%q (%s): slogen has no per-tier labels; route on slogen's tier label (page, ticket_fast, ticket_slow) in Alertmanager instead", name, l.Key, l.Value, l.At))
		}
	}
	if !same {
		c.Notes.Dropped = append(c.Notes.Dropped, fmt.Sprintf("%s_alert severities: the SLOs differ and slogen's %s_severity is the service's; slogen's default is used", name, name))
		return ""
	}
	if sev != "" {
		c.Notes.Exact = append(c.Notes.Exact, fmt.Sprintf("%s_alert severity %q as alerting.%s_severity", name, sev, name))
	}
	return sev
}

func hasLabel(ls []Label, l Label) bool {
	return slices.ContainsFunc(ls, func(x Label) bool { return x.Key == l.Key && x.Value == l.Value })
}

func hasKey(ls []Label, k string) bool {
	return slices.ContainsFunc(ls, func(x Label) bool { return x.Key == k })
}
