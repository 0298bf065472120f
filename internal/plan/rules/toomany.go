package rules

import (
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/pql"
)

// TooManyGroupsFor is how long an SLO must hold more group values than
// max_groups before the ticket opens: a rollout that renames every model
// holds old and new values for a few minutes only.
const TooManyGroupsFor = 15 * time.Minute

// tooManyGroupsAlerts open a ticket for each SLO whose group_by labels
// take more values than its max_groups: each value costs a set of
// recording series, and a label that churns would multiply them silently.
// recordings are the service's, which its description counts.
func tooManyGroupsAlerts(svc model.Service, recordings []Rule) []Rule {
	var rs []Rule
	for _, slo := range svc.SLOs {
		if len(slo.GroupBy) == 0 {
			continue
		}
		rs = append(rs, Rule{
			Alert:       TooManyGroupsAlert,
			Expr:        pql.Gt(pql.Count(pql.Count(SLOSeries(Requests(model.BaseWindow), svc, slo), pql.By(slo.GroupBy...))), pql.Num(float64(slo.MaxGroups))),
			For:         genfile.Duration(TooManyGroupsFor),
			Labels:      TooManyGroupsLabels(svc, slo),
			Annotations: tooManyGroupsAnnotations(svc, slo, groupSeries(slo, recordings)),
		})
	}
	return rs
}

// TooManyGroupsLabels are the labels of an SLO's too-many-groups ticket.
func TooManyGroupsLabels(svc model.Service, slo model.SLO) map[string]string {
	ls := maps.Clone(alertLabels(svc, svc.Alerting.TicketSeverity))
	ls["slo"] = slo.Name
	return ls
}

// TooManyGroupsAnnotations are the too-many-groups ticket's static
// annotations.
func TooManyGroupsAnnotations(svc model.Service, slo model.SLO) map[string]string {
	return tooManyGroupsAnnotations(svc, slo, GroupSeries(svc, slo))
}

// tooManyGroupsAnnotations are the annotations of an SLO that records n
// series per value.
func tooManyGroupsAnnotations(svc model.Service, slo model.SLO, n int) map[string]string {
	by := strings.Join(slo.GroupBy, ", ")
	return withRunbook(svc, TooManyGroupsAlert, map[string]string{
		"summary": EscapeTemplate(fmt.Sprintf("the %s SLO of %s is split into more than %d values of %s", slo.Name, svc.Name, slo.MaxGroups, by)),
		"description": EscapeTemplate(fmt.Sprintf("The %s SLO of %s records its series once per value of %s, %d series each, and more than %d values have been present for %s. Look for a value that churns (a version, an adapter per request) in the metrics, or raise max_groups if the values are real.",
			slo.Name, svc.Name, by, n, slo.MaxGroups, genfile.Duration(TooManyGroupsFor))),
	})
}

// GroupSeries is how many recorded series the SLO adds per value of its
// group_by labels: its own recordings and those of the service that keep
// each SLO's labels, all but its objective, and one coverage.
func GroupSeries(svc model.Service, slo model.SLO) int {
	return groupSeries(slo, append(sliRecordings(svc, slo), periodRecordings(svc)...))
}

// groupSeries counts them among the service's recordings.
func groupSeries(slo model.SLO, recordings []Rule) int {
	n := 1 // the coverage of its period; the rules for other periods never carry its labels
	for _, r := range recordings {
		if r.Record == "" || r.Record == ObjectiveMetric || r.Record == CoverageMetric {
			continue
		}
		if s, ok := r.Labels["slo"]; !ok || s == slo.Name {
			n++
		}
	}
	return n
}
