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
	rf, err := rules.Marshal(rules.File{Groups: gpualerts.BuildPools(plans)})
	if err != nil {
		return err
	}
	out[GPURulesFile] = rf
	tests := gputests.NewCache().PoolTests(plans)
	if len(tests) == 0 {
		return nil
	}
	tf, err := testfile.Marshal(testfile.File{RuleFiles: []string{GPURulesFile}, EvaluationInterval: genfile.Duration(gputests.EvaluationInterval), Tests: tests})
	out[GPURuleTestsFile] = tf
	return err
}
