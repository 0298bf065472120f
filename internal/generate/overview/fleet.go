package overview

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/slogen-dev/slogen/internal/model"
)

// fleet is what the overview's queries need to know of the services: a
// handful of facts, each gathered from every service in a few steps, so
// that the overview costs little more for a thousand services than for
// two.
type fleet struct {
	// periods are the SLO periods in use, shortest first: each has its
	// own period recordings (rate30d, rate4w, rate1w).
	periods []time.Duration
	// groupBy are every SLO's group_by labels, sorted: with service and
	// slo, they tell the table's rows apart.
	groupBy []string
	// clusters are the labels that tell apart the clusters of services
	// that span several (model.Global), sorted: their short windows are
	// recorded per cluster and summed here, as their burn alerts do.
	clusters []string
	// gpus are the labels that name a GPU of a service in dcgm-exporter's
	// series, one list per DCGM mapping in use (gpuIdentity), sorted.
	gpus []gpuIdentity
	// serving are, per serving gauge, where the services read it.
	serving [][]servingSource
}

// gpuIdentity is the labels that name a GPU under one DCGM mapping, as
// slogen:gpu_memory_used:ratio keeps them, and of them the one that names
// what the mapping matches (the pod, or the host).
type gpuIdentity struct {
	labels []string
	owner  string
}

// identityOf is how a service's GPU memory recording names its GPUs: by
// pod and namespace, or outside Kubernetes by host.
func identityOf(svc model.Service) gpuIdentity {
	if svc.DCGM.Mapping == model.MappingHost {
		return gpuIdentity{[]string{"Hostname", "gpu", "GPU_I_ID"}, "Hostname"}
	}
	pod := svc.DCGM.PodLabel()
	return gpuIdentity{[]string{svc.DCGM.NamespaceLabel(), pod, "gpu", "GPU_I_ID"}, pod}
}

func gather(svcs []model.Service) fleet {
	periods, groupBy, clusters := set[time.Duration]{}, set[string]{}, set[string]{}
	gpus := map[string]gpuIdentity{}
	for _, svc := range svcs {
		for _, slo := range svc.SLOs {
			periods[slo.Period.Duration] = true
			for _, l := range slo.GroupBy {
				groupBy[l] = true
			}
		}
		id := identityOf(svc)
		gpus[strings.Join(id.labels, ",")] = id
		if svc.Global != nil {
			clusters[svc.Global.Label] = true
		}
	}
	var ids []gpuIdentity
	for _, k := range slices.Sorted(maps.Keys(gpus)) {
		ids = append(ids, gpus[k])
	}
	return fleet{periods: periods.sorted(), groupBy: groupBy.sorted(), clusters: clusters.sorted(), gpus: ids,
		serving: servingSources(svcs)}
}

type set[T cmp.Ordered] map[T]bool

func (s set[T]) sorted() []T { return slices.Sorted(maps.Keys(s)) }
