package gputests

import (
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/spec"
)

// services loads a spec of services that differ in name, selector and
// pod, and then in thresholds: queue_depth, and vram_percent at 100,
// which no test can cross.
func services(t *testing.T) []gpualerts.Plan {
	t.Helper()
	res, err := spec.LoadSources(spec.Source{Name: "fleet.cue", Data: []byte(`package slo
services: [Name=string]: {runtime: "vllm", selector: {namespace: "inference", job: Name}, slos: availability: objective: 99.5}
services: a: {}
services: b: dcgm: pod: "b-worker-.*"
services: c: thresholds: queue_depth: 7
services: d: thresholds: vram_percent: 100
`)})
	if err != nil {
		t.Fatal(err)
	}
	var plans []gpualerts.Plan
	for _, svc := range res.Spec.Services {
		plans = append(plans, gpualerts.NewPlan(svc))
	}
	return plans
}

func TestServicesAlikeShareOneSchedule(t *testing.T) {
	plans := services(t)
	c := NewCache()
	if c.schedule(plans[0]) != c.schedule(plans[1]) {
		t.Error("services that differ only in names and labels got a schedule each")
	}
	if c.schedule(plans[0]) == c.schedule(plans[2]) {
		t.Error("services with different thresholds share a schedule")
	}
}

// TestASharedCacheGivesEachServiceItsOwnTests: services tested in parallel
// through one cache get exactly the tests a fresh cache gives each alone.
func TestASharedCacheGivesEachServiceItsOwnTests(t *testing.T) {
	plans := services(t)
	shared := NewCache()
	got := make([]Suite, len(plans))
	var wg sync.WaitGroup
	for i, plan := range plans {
		wg.Go(func() { got[i] = shared.Tests(plan) })
	}
	wg.Wait()
	for i, plan := range plans {
		want := NewCache().Tests(plan)
		if !reflect.DeepEqual(got[i], want) {
			t.Errorf("%s: the shared cache's tests differ from a fresh cache's", plan.Service.Name)
		}
	}
}

// Untested names what Tests leaves out: an alert whose threshold no
// scenario can cross, and every scenario of a service whose GPU series
// cannot be labelled (no pod name matches "a$b").
func TestUntestedNamesWhatTestsLeavesOut(t *testing.T) {
	plans := services(t)
	if untested := NewCache().Untested(plans[3]); len(untested) != 1 || untested[0].Alert != gpualerts.MemoryHigh {
		t.Errorf("vram_percent 100: untested %v; want GPUMemoryHigh", untested)
	}
	res, err := spec.LoadSources(spec.Source{Name: "odd.cue", Data: []byte(`package slo
services: odd: {runtime: "vllm", selector: {namespace: "inference", job: "odd"}, dcgm: pod: "a$b", slos: availability: objective: 99.5}
`)})
	if err != nil {
		t.Fatal(err)
	}
	plan := gpualerts.NewPlan(res.Spec.Services[0])
	suite := NewCache().Tests(plan)
	untested := NewCache().Untested(plan)
	if len(suite.Tests)+len(suite.Diagnosis) != 0 {
		t.Errorf("unlabellable GPU series: %d tests written", len(suite.Tests)+len(suite.Diagnosis))
	}
	if len(untested) <= len(NewCache().Untested(plans[0])) || !strings.Contains(untested[len(untested)-1].Reason, "cannot make up a value") {
		t.Errorf("unlabellable GPU series: untested %v; want every scenario, saying why", untested)
	}
}
