package plan

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/memo"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
)

// The shared alerts a fleet's services plan are built once per key that
// determines them: most of a fleet's services share a few sets, and
// building and hashing a set for each service, only to learn its ID, cost
// a quarter of planning it. The sets are never changed once built.
var sharedSLOAlerts, sharedServingAlerts memo.Memo[string, *rules.Shared]

// sharedAlertsKey is what the alerts a service shares, SLO and serving
// alerts alike, are built from (buildSLOAlerts, buildServingAlerts): the
// whole service and its kind's dashboard, but for the values that only
// select its own series, which no alert that reads only recordings can
// hold: its name, its selector's values,
// its model, its pods, namespace and job, and its SLIs (unless they read
// only recordings); for these only whether they are set. A service JSON
// cannot write (a number it has no text for) has no key, and builds its
// own.
func sharedAlertsKey(p *Service) (string, bool) {
	svc := withoutTeamLabel(p.Svc)
	svc.Name, svc.File, svc.Shape = rules.SharedName, "", nil
	svc.Team, svc.Model = present(svc.Team), present(svc.Model)
	svc.Selector = slices.Clone(svc.Selector)
	for i := range svc.Selector {
		svc.Selector[i].Value = ""
	}
	d := &svc.DCGM
	d.Pod, d.Namespace = present(d.Pod), present(d.Namespace)
	d.Matchers = slices.Clone(d.Matchers)
	for i, m := range d.Matchers {
		d.Matchers[i] = &labels.Matcher{Type: m.Type, Name: m.Name}
	}
	r := &svc.Scrape.Runtime
	r.Job, r.Namespace, r.PodName = present(r.Job), present(r.Namespace), present(r.PodName)
	var slis []string
	svc.SLOs = slices.Clone(svc.SLOs)
	for i := range svc.SLOs {
		slis = append(slis, recordedSLI(svc.SLOs[i].SLI))
		svc.SLOs[i].SLI = model.SLI{}
	}
	if svc.Traffic != nil {
		slis = append(slis, "traffic "+recordedSLI(*svc.Traffic))
		svc.Traffic = nil
	}
	key, err := json.Marshal(struct {
		Svc       model.Service
		Dashboard string
		SLIs      []string
	}{svc, p.DashboardUID, slis})
	return string(key), err == nil
}

// withoutTeamLabel leaves out of a service with a team its alerting
// label of the team's name: shared alerts take it from the series
// (rules.Shared.Share), so a fleet's teams share them.
func withoutTeamLabel(svc model.Service) model.Service {
	if svc.Team != "" {
		svc.Alerting.Labels = slices.DeleteFunc(slices.Clone(svc.Alerting.Labels), func(l labels.Label) bool { return l.Name == rules.InfoTeam })
	}
	return svc
}

// present stands for a value the key only tells set or not.
func present(s string) string {
	if s == "" {
		return ""
	}
	return "set"
}

// recordedSLI is an SLI as a key holds it: its queries where they read
// only recordings, which an alert reading only recordings could hold;
// else only how many parts it has.
func recordedSLI(sli model.SLI) string {
	var out strings.Builder
	for _, e := range []parser.Expr{sli.Errors, sli.Requests} {
		if e != nil && readsOnlyRecordings(e) {
			out.WriteString(e.String())
		}
		out.WriteString("\x00")
	}
	for _, part := range sli.Parts {
		out.WriteString("part " + recordedSLI(part))
	}
	return out.String()
}

func readsOnlyRecordings(e parser.Expr) bool {
	for _, v := range pql.Selectors(e) {
		if !strings.HasPrefix(v.Name, rules.RecordedPrefix) {
			return false
		}
	}
	return true
}
