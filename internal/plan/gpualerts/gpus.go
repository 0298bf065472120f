package gpualerts

import (
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
)

// gpus are the GPUs an alert about GPUs watches, and how its text names
// them: one service's, built alone, or a pool's in a fleet, whose alerts
// learn the service from its claim (pools.go).
type gpus struct {
	// svc holds the thresholds, and the mapping whose labels name a GPU.
	svc model.Service
	// field selects a DCGM field on the GPUs.
	field func(name string) *parser.VectorSelector
	// id names one GPU after aggregation.
	id []string
	// name is the GPU as annotations name it.
	name ref
	// serving follows the GPU's name in a description: the service that
	// uses it, set off by commas, or nothing where none is known.
	serving ref
}

// serviceGPUs are the GPUs the service's mapping selects.
func serviceGPUs(svc model.Service) gpus {
	return gpus{
		svc:     svc,
		field:   func(name string) *parser.VectorSelector { return gpuSelector(svc, name) },
		id:      gpuIdentity(svc),
		name:    gpuName(svc),
		serving: ref(", serving " + rules.EscapeTemplate(svc.Name) + ","),
	}
}

// per aggregates by the GPUs' identity.
func (g gpus) per() pql.Agg { return pql.By(g.id...) }
