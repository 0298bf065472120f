package plan

import (
	"maps"
	"net/url"
	"strings"

	"github.com/slogen-dev/slogen/internal/plan/rules"
)

// DashboardAnnotation is the alert annotation linking to the service's
// dashboard in Grafana.
const DashboardAnnotation = "dashboard_url"

// DashboardURL is the service's dashboard in the spec's Grafana: in a
// fleet, its kind's with the service variable set to it.
func DashboardURL(p *Service) string {
	u := strings.TrimSuffix(p.Svc.Alerting.GrafanaURL, "/") + "/d/" + p.DashboardUID
	if p.Layout == Fleet {
		u += "?" + url.Values{"var-service": {p.Svc.Name}}.Encode()
	}
	return u
}

// linkDashboard gives every alert of the service the link to its
// dashboard.
func linkDashboard(p *Service) {
	link := rules.EscapeTemplate(DashboardURL(p))
	for _, groups := range [][]rules.Group{p.Local, p.Global, p.GPURules} {
		for _, g := range groups {
			for i, r := range g.Rules {
				if r.Alert == "" {
					continue
				}
				a := maps.Clone(r.Annotations)
				if a == nil {
					a = map[string]string{}
				}
				a[DashboardAnnotation] = link
				g.Rules[i].Annotations = a
			}
		}
	}
}
