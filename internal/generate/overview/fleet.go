package overview

import (
	"cmp"
	"maps"
	"slices"
	"time"

	"github.com/slogen-dev/slogen/internal/model"
)

// fleet is what the overview's queries need to know of the services: a
// handful of facts, each gathered from every service in a few steps, so
// that the overview costs little more for a thousand services than for
// two.
type fleet struct {
	// periods are the SLO periods in use, shortest first: each has its
	// own period recordings (rate30d, rate7d).
	periods []time.Duration
	// groupBy are every SLO's group_by labels, sorted: with service and
	// slo, they tell the table's rows apart.
	groupBy []string
	// clusters are the labels that tell apart the clusters of services
	// that span several (model.Global), sorted: their short windows are
	// recorded per cluster and summed here, as their burn alerts do.
	clusters []string
	// views are the dashboards the rows link to, the one with the most
	// services first.
	views []view
}

// view is a dashboard and the services whose rows link to it.
type view struct {
	uid      string
	services []string
}

func gather(svcs []model.Service, uid func(model.Service) string) fleet {
	periods, groupBy, clusters := set[time.Duration]{}, set[string]{}, set[string]{}
	byUID := map[string][]string{}
	for _, svc := range svcs {
		for _, slo := range svc.SLOs {
			periods[slo.Period.Duration] = true
			for _, l := range slo.GroupBy {
				groupBy[l] = true
			}
		}
		if svc.Global != nil {
			clusters[svc.Global.Label] = true
		}
		u := uid(svc)
		byUID[u] = append(byUID[u], svc.Name)
	}
	return fleet{periods: periods.sorted(), groupBy: groupBy.sorted(), clusters: clusters.sorted(), views: views(byUID)}
}

// views orders the dashboards by how many services link to each, most
// first, then by UID: the first needs no list of its services (see
// viewLabel).
func views(byUID map[string][]string) []view {
	var vs []view
	for _, u := range slices.Sorted(maps.Keys(byUID)) {
		vs = append(vs, view{u, byUID[u]})
	}
	slices.SortStableFunc(vs, func(a, b view) int { return cmp.Compare(len(b.services), len(a.services)) })
	return vs
}

type set[T cmp.Ordered] map[T]bool

func (s set[T]) sorted() []T { return slices.Sorted(maps.Keys(s)) }
