package target

import (
	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/model"
)

// Overrides are build's flags that replace every service's operator
// settings; the zero value keeps the spec's.
type Overrides struct {
	// Labels replace operator.labels when not nil.
	Labels []labels.Label
	// SelectAll, when true, sets operator.select_all.
	SelectAll bool
	// DashboardNamespace replaces operator.dashboard_namespace when set.
	DashboardNamespace string
}

// Resolve is the spec as the target deploys it. Under the operator
// target, each service gets the overrides, and one whose spec chose no
// scrape mode is scraped by monitors rather than scrape configs: an
// operator's Prometheus is configured through them. A spec's own mode
// stands (a Prometheus may read scrape configs too, through its
// additionalScrapeConfigs). The services of one shape stay of one shape.
func Resolve(t Name, spec model.Spec, o Overrides) model.Spec {
	if t != Operator {
		return spec
	}
	shapes := map[*model.Shape]*model.Shape{}
	out := model.Spec{Services: make([]model.Service, len(spec.Services))}
	for i, svc := range spec.Services {
		svc = o.apply(svc)
		if old := svc.Shape; old != nil {
			if shapes[old] == nil {
				shapes[old] = &model.Shape{Sample: o.apply(old.Sample), Check: o.apply(old.Check)}
			}
			svc.Shape = shapes[old]
		}
		out.Services[i] = svc
	}
	return out
}

func (o Overrides) apply(svc model.Service) model.Service {
	if o.Labels != nil {
		svc.Operator.Labels = o.Labels
	}
	if o.SelectAll {
		svc.Operator.SelectAll = true
	}
	if o.DashboardNamespace != "" {
		svc.Operator.DashboardNamespace = o.DashboardNamespace
	}
	if !svc.Scrape.ModeSet {
		svc.Scrape.Mode = model.ScrapeOperator
	}
	return svc
}
