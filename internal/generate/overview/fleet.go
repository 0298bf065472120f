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
}

func gather(svcs []model.Service) fleet {
	periods, groupBy, clusters := set[time.Duration]{}, set[string]{}, set[string]{}
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
	}
	return fleet{periods: periods.sorted(), groupBy: groupBy.sorted(), clusters: clusters.sorted()}
}

type set[T cmp.Ordered] map[T]bool

func (s set[T]) sorted() []T { return slices.Sorted(maps.Keys(s)) }
