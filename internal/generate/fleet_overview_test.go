package generate

import (
	"testing"

	"github.com/slogen-dev/slogen/internal/generate/overview"
	"github.com/slogen-dev/slogen/internal/grafana"
)

const twoServices = `package slo
services: chat: {runtime: "vllm", selector: {job: "chat"}, slos: availability: objective: 99.5}
services: search: {runtime: "vllm", selector: {job: "search"}, slos: availability: objective: 99}
`

// A fleet's output holds the overview of its services, once, at the
// root; a service built alone gets none.
func TestAFleetGetsOneOverview(t *testing.T) {
	loaded, fleet := buildSource(t, twoServices, Options{})
	want, err := overview.Build(loaded.Services)
	if err != nil {
		t.Fatal(err)
	}
	js, _ := grafana.Marshal(want)
	if string(fleet[overview.File]) != string(js) {
		t.Errorf("the fleet's %s is not the overview of its services", overview.File)
	}
	loaded.Services = loaded.Services[:1]
	alone, err := build(Options{}, loaded)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := alone[overview.File]; ok {
		t.Errorf("a service built alone got %s", overview.File)
	}
}
