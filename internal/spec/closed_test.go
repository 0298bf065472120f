package spec

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// closedFleet templates services with a definition, as CUE users write
// templates, over n models.
func closedFleet(n int) string {
	var b strings.Builder
	b.WriteString("package slo\n\n_models: {\n")
	for i := range n {
		fmt.Fprintf(&b, "\t\"model-%d\": \"org/model-%d\"\n", i, i)
	}
	b.WriteString(`}

#VLLMService: {
	runtime: "vllm"
	model:   string
	selector: [string]: string
	gpu: product: "NVIDIA H100 80GB HBM3"
	slos: {
		availability: {objective: 99.5}
		ttft: {objective: 99, threshold: "1s"}
	}
}

services: {for name, m in _models {"\(name)": #VLLMService & {model: m, selector: {namespace: "inference", job: name}}}}
`)
	return b.String()
}

// Every default the schema cannot add to every service of a closed
// template is one cause: one problem, at the definition, with the fix.
func TestClosedTemplateIsOneProblem(t *testing.T) {
	for _, sameData := range []bool{true, false} {
		_, err := loadSources([]Source{{Name: "fleet.cue", Data: []byte(closedFleet(150))}}, sameData)
		var ds Diagnostics
		if !errors.As(err, &ds) || len(ds) != 1 {
			t.Fatalf("err = %v; want one problem", err)
		}
		d := ds[0]
		if d.File != "fleet.cue" || d.Line != 156 || d.Path != "#VLLMService" || !strings.Contains(d.Message, "hidden field, _VLLMService: {...}, and use it as _VLLMService & {...}") {
			t.Errorf("problem = %s; want it at fleet.cue:156, #VLLMService, with the fix", d)
		}
	}
}

// A struct closed without a definition is named, at the struct.
func TestClosedWithoutDefinition(t *testing.T) {
	src := `package slo

services: chat: close({
	runtime: "vllm"
	selector: {namespace: "inference", job: "chat"}
	slos: availability: objective: 99.5
})
`
	_, err := LoadSources(Source{Name: "spec.cue", Data: []byte(src)})
	want := `spec.cue:3:11: services.chat: is closed, by a definition or close()`
	if err == nil || !strings.HasPrefix(err.Error(), want) || strings.Count(err.Error(), "\n") != 0 {
		t.Fatalf("err = %v; want one problem starting %q", err, want)
	}
}

// The fleet example written with a definition in place of its hidden
// template is one problem, at the definition; as shipped it loads.
func TestFleetExampleAsDefinition(t *testing.T) {
	const path = "../../examples/fleet/teams-models.cue"
	src := readSource(t, path)
	if _, err := LoadSources(src); err != nil {
		t.Fatalf("as shipped: %v", err)
	}
	src.Data = []byte(strings.ReplaceAll(string(src.Data), "_vllm", "#VLLMService"))
	_, err := LoadSources(src)
	var ds Diagnostics
	if !errors.As(err, &ds) || len(ds) != 1 || ds[0].Path != "#VLLMService" || ds[0].File != path {
		t.Fatalf("with a definition: %v; want one problem at #VLLMService", err)
	}
}
