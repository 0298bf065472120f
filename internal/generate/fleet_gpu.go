package generate

import (
	"github.com/slogen-dev/slogen/internal/generate/gputests"
	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/testfile"
)

// fleetGPURules writes a fleet's alerts about GPUs once for the output,
// at its root: gpu-rules.yaml, one rule group per dcgm-exporter job with
// each of its pools' alerts, and their tests. The services' own
// gpu-rules.yaml claim the GPUs their mappings select, which these
// alerts name them by. Pools are planned and tested once each, not per
// service.
func fleetGPURules(f *Fleet, out Files) error {
	pools := gpualerts.Pools(f.Spec.Services)
	if len(pools) == 0 {
		return nil
	}
	plans := make([]gpualerts.PoolPlan, len(pools))
	for i, p := range pools {
		plans[i] = p.Plan()
	}
	groups := gpualerts.BuildPools(plans)
	rf, err := rules.Marshal(rules.File{Groups: groups})
	if err != nil {
		return err
	}
	out[GPURulesFile] = rf
	if err := poolTargetFiles(f, groups, out); err != nil {
		return err
	}
	tests := gputests.NewCache().PoolTests(plans)
	if len(tests) == 0 {
		return nil
	}
	tf, err := testfile.Marshal(testfile.File{RuleFiles: []string{GPURulesFile}, EvaluationInterval: genfile.Duration(gputests.EvaluationInterval), Tests: tests})
	out[GPURuleTestsFile] = tf
	return err
}

// poolsOwner names the pools' groups where a target needs a name: a
// PrometheusRule's, a Mimir namespace. A dot keeps it from any service's
// name, which is a DNS label.
const poolsOwner = "fleet.gpus"

// poolTargetFiles wraps the pools' groups for the target beside
// gpu-rules.yaml (gpu-rules.prometheusrule.yaml, …).
func poolTargetFiles(f *Fleet, groups []rules.Group, out Files) error {
	return rootTargetFiles(f, poolsOwner, "gpu-rules.", groups, out)
}
