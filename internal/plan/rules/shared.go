package rules

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/pql"
)

// A fleet's services in one Prometheus share the alerts that read only
// what every service records alike: the burn-rate and error-budget alerts
// of every service whose SLOs, objectives and alerting are the same, and
// (ServingLabel) the serving alerts that read only recordings, read all
// those services' series at once, and join each service's InfoMetric,
// whose label names the alerts that watch it, for its team. The output
// holds each set once (slo-alerts.yaml, serving-alerts.yaml) instead of
// in each service's rule file; they fire with the labels and annotations
// the service's own would have.

// SharedName is the service name shared alerts are built under: upper
// case, so no service has it (names are DNS labels). Selectors built for
// it select no service (serviceMatcher), and Share writes the alert's
// service label where the text names it.
const SharedName = "SLOGEN_SHARED_SERVICE"

// SharedLabel is the InfoMetric label that names the shared alerts that
// watch a service's SLOs: their ID. ServingLabel names those of its
// serving alerts.
const (
	SharedLabel  = "slo_alerts"
	ServingLabel = "serving_alerts"
)

// SharedFile is the rule file, at a fleet's root, of the shared SLO
// alerts; ServingFile that of the shared serving alerts.
const (
	SharedFile  = "slo-alerts.yaml"
	ServingFile = "serving-alerts.yaml"
)

// SharesAlerts says whether a service of a fleet shares its burn-rate
// and error-budget alerts: when it has SLOs and one Prometheus evaluates
// them; a service across clusters keeps its own, on the global ruler.
func SharesAlerts(svc model.Service) bool { return svc.Global == nil && len(svc.SLOs) > 0 }

// Shared are the alerts that the services of a fleet with one ID share.
type Shared struct {
	// ID names the alerts: a hash of their rules, so that services
	// whose alerts are equal share one copy, whatever the spec's order.
	ID string
	// Groups are the burn-rate alerts, then the error-budget alerts at
	// the period's interval; or the serving alerts (ShareWhole).
	Groups []Group
	// label is the InfoMetric label that names them; member selects the
	// services they watch, by label: set to ID by Share.
	label  string
	member *labels.Matcher
}

func newShared(label string) *Shared { return &Shared{label: label, member: pql.Eq(label, "")} }

// ShareWhole makes shared alerts of alerts built for SharedName: each
// watches, of the series its whole expression fires for, the services
// whose InfoMetric label names them. The caller adds links, then calls
// Share.
func ShareWhole(label string, alerts []Rule) *Shared {
	s := newShared(label)
	s.joinWhole(alerts)
	s.Groups = []Group{{Rules: alerts}}
	return s
}

// SharedAlerts are the burn-rate and error-budget alerts of the service,
// built for any service whose SLOs and alerting are its own. The caller
// adds the links its annotations carry (dashboards, traces, runbooks),
// then calls Share.
func SharedAlerts(svc model.Service) *Shared {
	svc.Name = SharedName
	s := newShared(SharedLabel)
	var burns []Rule
	for _, slo := range svc.SLOs {
		for _, b := range model.BurnRules {
			var tiers []pql.Expr
			for _, t := range burnTiers(svc, slo, b) {
				tiers = append(tiers, s.join(t))
			}
			burns = append(burns, burnRule(svc, slo, b, pql.Chain(parser.LOR, pql.Match{}, tiers...)))
		}
	}
	s.Groups = []Group{{Rules: burns}}
	budget := budgetAlerts(svc)
	s.joinWhole(budget)
	if len(budget) > 0 {
		s.Groups = append(s.Groups, Group{Interval: genfile.Duration(PeriodInterval), Rules: budget})
	}
	return s
}

// join keeps, of the series e fires for, the services the alerts watch,
// and gives each its team, as a service's own alert has it. A burn-rate
// alert joins each tier: * binds tighter than the or between them.
func (s *Shared) join(e pql.Expr) pql.Expr {
	info := pql.Metric(InfoMetric, s.member)
	return pql.Chain(parser.MUL, pql.On("service").GroupLeft(InfoTeam), e, info)
}

// joinWhole joins each alert's whole expression.
func (s *Shared) joinWhole(alerts []Rule) {
	for i := range alerts {
		alerts[i].Expr = s.join(pql.Paren(alerts[i].Expr))
	}
}

// Share makes the alerts any service's: the service label, and the team
// where the service's InfoMetric carries it (teamFromInfo), come from the
// series, and the text names the service by its label. It names them by
// their hash.
func (s *Shared) Share(teamFromInfo bool) {
	for _, g := range s.Groups {
		for i, r := range g.Rules {
			ls := maps.Clone(r.Labels)
			delete(ls, "service")
			if teamFromInfo {
				delete(ls, InfoTeam)
			}
			g.Rules[i].Labels = ls
			ann := make(map[string]string, len(r.Annotations))
			for k, v := range r.Annotations {
				ann[k] = strings.ReplaceAll(v, SharedName, "{{ $labels.service }}")
			}
			g.Rules[i].Annotations = ann
		}
	}
	s.ID = s.hash()
	s.member.Value = s.ID
	for i := range s.Groups {
		s.Groups[i].Name = "slogen-" + strings.ReplaceAll(s.label, "_", "-") + "-" + s.ID
		if s.Groups[i].Interval != "" {
			s.Groups[i].Name += "-period"
		}
	}
}

// hash is a hash of what the rules say, the member's ID left out.
func (s *Shared) hash() string {
	h := sha256.New()
	for _, g := range s.Groups {
		fmt.Fprintf(h, "group %q\n", g.Interval)
		for _, r := range g.Rules {
			fmt.Fprintf(h, "%s\n%s\n%s\n", r.Alert, r.Expr, r.For)
			for _, m := range []map[string]string{r.Labels, r.Annotations} {
				for _, k := range slices.Sorted(maps.Keys(m)) {
					fmt.Fprintf(h, "%q=%q\n", k, m[k])
				}
			}
		}
	}
	return hex.EncodeToString(h.Sum(nil)[:4])
}

// Watch labels the service's InfoMetric, among its groups, with the ID
// of the alerts that watch it.
func (s *Shared) Watch(groups []Group) {
	for _, g := range groups {
		for i, r := range g.Rules {
			if r.Record == InfoMetric {
				ls := maps.Clone(r.Labels)
				ls[s.label] = s.ID
				g.Rules[i].Labels = ls
			}
		}
	}
}
