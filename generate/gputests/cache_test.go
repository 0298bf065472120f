package gputests

import (
	"reflect"
	"sync"
	"testing"

	"github.com/slogen-dev/slogen/generate/gpualerts"
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
		wg.Go(func() { got[i], _ = shared.Tests(plan) })
	}
	wg.Wait()
	for i, plan := range plans {
		want, _ := NewCache().Tests(plan)
		if !reflect.DeepEqual(got[i], want) {
			t.Errorf("%s: the shared cache's tests differ from a fresh cache's", plan.Service.Name)
		}
	}
}

func TestUntestedIsWhatTestsSkips(t *testing.T) {
	plans := services(t)
	for _, plan := range plans {
		_, skips := NewCache().Tests(plan)
		if untested := NewCache().Untested(plan); !reflect.DeepEqual(untested, skips) {
			t.Errorf("%s: Untested says %v, Tests skips %v", plan.Service.Name, untested, skips)
		}
	}
	if untested := NewCache().Untested(plans[3]); len(untested) != 1 || untested[0].Alert != gpualerts.MemoryHigh {
		t.Errorf("vram_percent 100: untested %v; want GPUMemoryHigh", untested)
	}
}
