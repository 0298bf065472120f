package initspec

import (
	"context"
	"fmt"
	"maps"
	"net"
	"slices"
	"strings"

	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	pmodel "github.com/prometheus/common/model"

	"github.com/slogen-dev/slogen/internal/dcgm"
	"github.com/slogen-dev/slogen/internal/model"
)

// GPUs are the GPUs behind a service, as dcgm-exporter reports them.
type GPUs struct {
	// Products are dcgm-exporter's modelName values, most GPUs first.
	Products []string
	Count    int
	// Job is dcgm-exporter's scrape job; Instances its targets.
	Job       string
	Instances []string
	// Mapping is how they were told: model.MappingPod by the pods the
	// GPUs serve, model.MappingHost by the hosts the runtime runs on.
	Mapping string
	// HonorLabels: dcgm-exporter's pod label kept its name.
	HonorLabels bool
	Hosts       []string
	// LowerHostname: the exporter writes hostname, not Hostname
	// (dcgm-exporter after its PR 655).
	LowerHostname bool
}

// gpuSeries is one GPU series of dcgm-exporter.
type gpuSeries struct {
	id, product, host, job, instance string
	pod, namespace                   string
	honor, lowerHost                 bool
}

type gpuSet []gpuSeries

// readGPUs asks dcgm-exporter's frame-buffer gauge, which it exports by
// default, for every GPU and what it is labelled with.
func readGPUs(ctx context.Context, prom v1.API, o Options) (gpuSet, error) {
	progress(o, "looking for dcgm-exporter's GPUs")
	q := fmt.Sprintf("group by (job, instance, gpu, UUID, modelName, Hostname, hostname, pod, namespace, exported_pod, exported_namespace) (%s)", dcgm.FBUsed)
	v, _, _, err := prom.Query(ctx, q, o.Now)
	if err != nil {
		return nil, err
	}
	vec, _ := v.(pmodel.Vector)
	var set gpuSet
	for _, s := range vec {
		set = append(set, gpuOf(s.Metric))
	}
	return set, nil
}

func gpuOf(m pmodel.Metric) gpuSeries {
	g := gpuSeries{product: string(m["modelName"]), job: string(m["job"]), instance: string(m["instance"]),
		host: string(m["Hostname"]), pod: string(m["exported_pod"]), namespace: string(m["exported_namespace"])}
	if g.host == "" {
		g.host, g.lowerHost = string(m["hostname"]), m["hostname"] != ""
	}
	if g.pod == "" && m["pod"] != "" {
		g.pod, g.namespace, g.honor = string(m["pod"]), string(m["namespace"]), true
	}
	g.id = string(m["UUID"])
	if g.id == "" {
		g.id = g.host + "/" + string(m["gpu"])
	}
	return g
}

// behind are the GPUs that serve s: in Kubernetes those dcgm-exporter
// labels with s's pods, elsewhere those of the hosts s is scraped on.
func (set gpuSet) behind(s Service) GPUs {
	var mine gpuSet
	out := GPUs{Mapping: model.MappingPod}
	if s.Namespace != "" && len(s.Pods) > 0 {
		mine = slices.DeleteFunc(slices.Clone(set), func(g gpuSeries) bool {
			return g.namespace != s.Namespace || !slices.Contains(s.Pods, g.pod)
		})
	} else {
		out.Mapping = model.MappingHost
		hosts := hostsOf(s.Instances)
		mine = slices.DeleteFunc(slices.Clone(set), func(g gpuSeries) bool { return !slices.Contains(hosts, g.host) })
		out.Hosts = hosts
	}
	seen := map[string]bool{}
	count := map[string]int{}
	for _, g := range mine {
		if seen[g.id] {
			continue
		}
		seen[g.id] = true
		out.Count++
		count[g.product]++
		out.Job = g.job
		out.Instances = appendNew(out.Instances, g.instance)
		out.HonorLabels = out.HonorLabels || g.honor
		out.LowerHostname = out.LowerHostname || g.lowerHost
	}
	out.Products = slices.SortedFunc(maps.Keys(count), func(a, b string) int {
		if count[a] != count[b] {
			return count[b] - count[a]
		}
		return strings.Compare(a, b)
	})
	return out
}

// hostsOf are the host parts of scrape targets.
func hostsOf(instances []string) []string {
	var hosts []string
	for _, in := range instances {
		h, _, err := net.SplitHostPort(in)
		if err != nil {
			h = in
		}
		hosts = appendNew(hosts, h)
	}
	return hosts
}
