package openslo

import (
	"errors"
	"fmt"
	"strings"

	"github.com/slogen-dev/slogen/internal/importer"
)

// Convert resolves the objects' references and maps each SLO's
// objectives onto slogen SLOs, grouped by spec.service. Bad input is an
// error naming file, line and field, every problem at once; what slogen
// cannot express is reported in the services' notes instead.
func Convert(objects []Object) ([]importer.Service, error) {
	ix, err := newIndex(objects)
	if err != nil {
		return nil, err
	}
	var errs []error
	slis := map[string]sli{}
	for _, o := range objects {
		r := &reader{Reader: importer.Reader{File: o.At.File}}
		switch o.Kind {
		case "SLI":
			if s, ok := r.indicator(o, ix); ok {
				slis[o.Name] = s
			}
		case "DataSource":
			r.fields(o.Spec, "spec.", "description", "type", "connectionDetails")
			r.Str(o.Spec, importer.Mapping(o.Spec), "spec.", "type", true)
		}
		errs = append(errs, r.Errs...)
	}
	b := &builder{alerts: map[string][]alertOf{}, teams: map[string][]teamOf{}}
	for _, o := range objects {
		switch o.Kind {
		case "Service":
			svc := b.service(o.Name, o.At)
			if t, _ := team(importer.Mapping(o.Meta)["labels"]); t != "" {
				b.teams[svc.From] = append(b.teams[svc.From], teamOf{t, o.At})
			}
		case "SLO":
			r := &reader{Reader: importer.Reader{File: o.At.File}}
			s, ok := r.slo(o, ix, slis)
			errs = append(errs, r.Errs...)
			if ok {
				svc := b.service(s.Service, s.At)
				slos, alerts := convertSLO(s)
				svc.SLOs = append(svc.SLOs, slos...)
				b.alerts[svc.From] = append(b.alerts[svc.From], alerts...)
				if s.Team != "" {
					b.teams[svc.From] = append(b.teams[svc.From], teamOf{s.Team, s.At})
				}
			}
		}
	}
	if err := errors.Join(unique(errs)...); err != nil {
		return nil, err
	}
	return b.finish(objects), nil
}

// unique drops an error reported twice, as for an SLI two SLOs share.
func unique(errs []error) []error {
	var out []error
	seen := map[string]bool{}
	for _, e := range errs {
		if e != nil && !seen[e.Error()] {
			seen[e.Error()] = true
			out = append(out, e)
		}
	}
	return out
}

// builder gathers the services in the order the files name them.
type builder struct {
	services []*importer.Service
	alerts   map[string][]alertOf
	teams    map[string][]teamOf
}

// teamOf is a team label and where it was.
type teamOf struct {
	team string
	at   importer.Pos
}

func (b *builder) service(name string, at importer.Pos) *importer.Service {
	for _, s := range b.services {
		if s.From == name {
			return s
		}
	}
	s := &importer.Service{At: at, Origin: "OpenSLO", From: name, Runtime: importer.CustomRuntime}
	b.services = append(b.services, s)
	return s
}

func (b *builder) finish(objects []Object) []importer.Service {
	var out []importer.Service
	for _, s := range b.services {
		var renamed string
		if s.Name, renamed = importer.Name(s.From); renamed != "" {
			s.Notes.Changed = append(s.Notes.Changed, "service "+renamed)
		}
		switch {
		case len(s.SLOs) == 0:
			s.Notes.Dropped = append(s.Notes.Dropped, "no SLO names this Service: it is left out, since slogen has no SLO of it to build")
		case s.Empty():
			s.Notes.Dropped = append(s.Notes.Dropped, "every SLO: the service is left out, since slogen has no SLO of it to build")
		}
		s.Metric = importer.FirstMetric(s.SLOs)
		alerting(s, b.alerts[s.From])
		setTeam(s, b.teams[s.From])
		out = append(out, *s)
	}
	return out
}

// convertSLO is one slogen SLO per objective.
func convertSLO(s slo) ([]importer.SLO, []alertOf) {
	var out []importer.SLO
	var alerts []alertOf
	for i, o := range s.Objectives {
		c := importer.SLO{At: s.At, From: s.Name, Kind: "ratio", Objective: o.Percent, Description: s.Description}
		name := s.Name
		if len(s.Objectives) > 1 {
			c.At, c.From = o.At, fmt.Sprintf("%s objectives[%d]", s.Name, i)
			name += "-" + cmpOr(o.DisplayName, fmt.Sprint(i))
		}
		var renamed string
		if c.Name, renamed = importer.Name(name); renamed != "" && len(s.Objectives) == 1 {
			c.Notes.Changed = append(c.Notes.Changed, "SLO "+renamed)
		}
		n := &c.Notes
		if why := indicatorQueries(&c, o); why != "" {
			c.Skip = true
			n.Dropped = append(n.Dropped, why+"; the SLO is left out")
			out = append(out, c)
			continue
		}
		n.Exact = append(n.Exact, fmt.Sprintf("objective %s", importer.Percent(o.Percent)))
		c.Window = window(s.Window, n)
		budgeting(s, o, n)
		alerts = append(alerts, sloAlerts(s, &c)...)
		if o.Weight != "" {
			n.Dropped = append(n.Dropped, fmt.Sprintf("compositeWeight %s: slogen has no composite SLO; each objective is an SLO of its own", o.Weight))
		}
		if len(s.Labels) > 0 {
			n.Dropped = append(n.Dropped, fmt.Sprintf("metadata.labels %s: slogen's alert labels are the service's alerting.labels; add those you route on", strings.Join(s.Labels, ", ")))
		}
		if len(s.Annotations) > 0 {
			n.Dropped = append(n.Dropped, fmt.Sprintf("metadata.annotations %s: slogen writes its own annotations", strings.Join(s.Annotations, ", ")))
		}
		out = append(out, c)
	}
	return out, alerts
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// budgeting reports budgetingMethod: slogen's budget counts events.
func budgeting(s slo, o objective, n *importer.Notes) {
	switch s.Budgeting {
	case "Occurrences":
		n.Exact = append(n.Exact, "budgetingMethod Occurrences: slogen's budget counts good and bad events")
	case "RatioTimeslices":
		n.Changed = append(n.Changed, fmt.Sprintf("budgetingMethod RatioTimeslices (%s): slogen counts events over the period rather than averaging each slice's ratio, so busy slices weigh more", cmpOr(o.TimeSlice, "no time slice given")))
	case "Timeslices":
		n.Dropped = append(n.Dropped, fmt.Sprintf("budgetingMethod Timeslices (%s, at %s): slogen counts good events, not good time slices; the objective now applies to the share of good events", cmpOr(o.TimeSlice, "no time slice given"), s.BudgetingAt))
	}
}

// setTeam makes the team label the Service and its SLOs give slogen's
// team, which goes on every alert, where they agree.
func setTeam(s *importer.Service, teams []teamOf) {
	for _, t := range teams {
		if t.team != teams[0].team {
			s.Notes.Dropped = append(s.Notes.Dropped, fmt.Sprintf("metadata.labels.team %q (%s): the service's objects name %q too, and slogen's team is the service's; add it by hand", t.team, t.at, teams[0].team))
			return
		}
	}
	if len(teams) > 0 {
		s.Team = teams[0].team
		s.Notes.Exact = append(s.Notes.Exact, fmt.Sprintf("metadata.labels.team %q (%s) as team, on every alert", s.Team, teams[0].at))
	}
}
