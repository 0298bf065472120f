package generate

import (
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
)

const twoRuntimes = `package slo
services: chat: {
	runtime: "vllm", selector: {job: "chat", namespace: "ml"}
	slos: availability: objective: 99.5
}
services: rank: {
	runtime: "triton", model: "r", selector: {job: "rank", namespace: "ml"}
	slos: availability: objective: 99.9
}
`

// A fleet's alerts about GPUs are in the root gpu-rules.yaml, with its
// tests, once, and prometheus.yml loads it; each service's gpu-rules.yaml
// has its own alerts (its GPUExporterDown among them, for a mapping that
// finds no GPU) and its claim. A service built alone has them all.
func TestAFleetsAlertsAboutGPUsAreWrittenOnce(t *testing.T) {
	loaded, files := buildSource(t, twoRuntimes, Options{})
	root := string(files[GPURulesFile])
	for _, a := range gpualerts.GPUScoped {
		if !strings.Contains(root, "alert: "+a+"\n") {
			t.Errorf("the root %s has no %s", GPURulesFile, a)
		}
		for _, svc := range []string{"chat", "rank"} {
			own := string(files[svc+"/"+GPURulesFile])
			if a != gpualerts.ExporterDown && strings.Contains(own, "alert: "+a+"\n") {
				t.Errorf("%s/%s has %s", svc, GPURulesFile, a)
			}
		}
	}
	for _, svc := range []string{"chat", "rank"} {
		if !strings.Contains(string(files[svc+"/"+GPURulesFile]), "record: "+gpualerts.ServiceClaims+"\n") {
			t.Errorf("%s/%s records no claim", svc, GPURulesFile)
		}
	}
	if len(files[GPURuleTestsFile]) == 0 {
		t.Errorf("no %s at the root", GPURuleTestsFile)
	}
	if !strings.Contains(string(files["prometheus.yml"]), "\n  - "+GPURulesFile+"\n") {
		t.Errorf("prometheus.yml does not load the root %s:\n%s", GPURulesFile, files["prometheus.yml"])
	}

	loaded.Services = loaded.Services[:1]
	alone, err := build(Options{}, loaded)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := alone[GPURulesFile]; ok {
		t.Errorf("a service built alone has a root %s", GPURulesFile)
	}
	if own := string(alone["chat/"+GPURulesFile]); !strings.Contains(own, "alert: "+gpualerts.XIDErrors+"\n") || strings.Contains(own, gpualerts.ServiceClaims) {
		t.Errorf("chat built alone: its %s lacks its alerts about GPUs, or claims them", GPURulesFile)
	}
}
