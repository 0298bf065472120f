package gpualerts

import (
	"github.com/prometheus/prometheus/promql/parser"
)

// Baselines select the series the diagnosis alerts compare the last hour
// with: each quadrant the service has, recorded over the same hour a day
// earlier. Until Prometheus holds a day of the service's series they are
// missing and no diagnosis alert can fire, which a dashboard must tell
// from a healthy service.
func (p Plan) Baselines() []*parser.VectorSelector {
	var out []*parser.VectorSelector
	for _, s := range []*signal{p.q.latency, p.q.throughput, p.q.errors, p.q.memory} {
		if s != nil {
			out = append(out, recorded(p.Service, s.record+dayAgo))
		}
	}
	return out
}
