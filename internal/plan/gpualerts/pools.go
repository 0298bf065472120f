package gpualerts

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strconv"

	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/pql"
)

// A pool is the GPUs of one dcgm-exporter job that a fleet's services
// use with the same settings of the alerts about GPUs: thresholds,
// severities, runbook links and the labels that name a GPU. Its alerts
// watch every GPU of the job, not one service's pods, and name the
// service that claims a GPU (claims.go). The job's first pool, in spec
// order, also alerts about the GPUs no service claims, and has the job's
// GPUExporterDown: in the common case, one pool per job, that is all of
// them.
type Pool struct {
	Job string
	// ID is the pool's PoolLabel on its services' claims.
	ID string
	// Services use the pool's GPUs, in spec order; the first one's
	// settings are the pool's.
	Services []model.Service
	// Unclaimed says the pool also alerts about GPUs no service claims.
	Unclaimed bool
}

// poolID hashes the settings that make the service's pool, which it
// shares with the pool's other services, in a microsecond: the job, the
// labels that name a GPU, the thresholds, the severity of each alert
// about GPUs and the runbook links.
func poolID(svc model.Service) string {
	h := fnv.New64a()
	t, a := svc.Thresholds, svc.Alerting
	b := make([]byte, 0, 256)
	for _, s := range []string{svc.DCGM.Job, svc.DCGM.Mapping, svc.DCGM.PodLabel(), a.RunbookURL, a.RunbookBaseURL} {
		b = append(append(b, s...), 0)
	}
	for _, f := range []float64{t.GPUTempCelsius, t.ThrottlePercent, t.PCIeReplaysPerMinute} {
		b = append(strconv.AppendFloat(b, f, 'g', -1, 64), 0)
	}
	for _, alert := range GPUScoped {
		b = append(append(b, a.CauseSeverity(alert)...), 0)
	}
	h.Write(b)
	return fmt.Sprintf("%08x", uint32(h.Sum64()))
}

// Pools are the pools of a fleet's services, in the order their first
// services come.
func Pools(svcs []model.Service) []Pool {
	var out []Pool
	at := map[string]int{}
	firstOfJob := map[string]bool{}
	for _, svc := range svcs {
		id := poolID(svc)
		i, ok := at[id]
		if !ok {
			i = len(out)
			at[id] = i
			job := svc.DCGM.Job
			out = append(out, Pool{Job: job, ID: id, Unclaimed: !firstOfJob[job]})
			firstOfJob[job] = true
		}
		out[i].Services = append(out[i].Services, svc)
	}
	return out
}

// poolIdentity names one GPU in a pool's alerts: the mapping's labels,
// which name the pod a claimed GPU serves, and the host and UUID, which
// name any GPU, claimed or not; and the exporter's job, which the job's
// GPUExporterDown carries too, so that Alertmanager can mute the alerts
// about the GPUs it no longer sees.
func poolIdentity(svc model.Service) []string {
	id := gpuIdentity(svc)
	if !slices.Contains(id, "Hostname") {
		id = append(id, "Hostname")
	}
	return append(id, "UUID", "job")
}

// claimedGPUs are every GPU of the pool's job, named as a claimed GPU's
// alert names them: by its mapping's labels and the claiming service.
func (p Pool) claimedGPUs() gpus {
	svc := p.Services[0]
	return gpus{
		svc:     svc,
		field:   func(name string) *parser.VectorSelector { return pql.Metric(name, pql.Eq("job", p.Job)) },
		id:      poolIdentity(svc),
		name:    gpuName(svc),
		serving: ", serving " + label("service") + ",",
	}
}

// unclaimedGPUs are the same GPUs named by host, as no service's pod
// says which a GPU is.
func (p Pool) unclaimedGPUs() gpus {
	g := p.claimedGPUs()
	g.name = "GPU " + label("gpu") + " on " + label("Hostname")
	g.serving = ""
	return g
}
