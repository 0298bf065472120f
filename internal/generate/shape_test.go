package generate

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/generate/gputests"
	"github.com/slogen-dev/slogen/internal/generate/runbooks"
	"github.com/slogen-dev/slogen/internal/generate/target"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan"
	"github.com/slogen-dev/slogen/internal/profile"
	"github.com/slogen-dev/slogen/internal/spec"
	"github.com/slogen-dev/slogen/internal/testenv"
)

// variedFleet has services of one shape whose identities differ in length,
// three whose job is their name, three of another shape, one whose shape
// no other shares, a pair too few for a shape, and some no shape can
// stand for: a name too long, a pod named after the service, a selector
// on the model label the runtime matches on too, a job named as
// dcgm-exporter's.
const variedFleet = `package slo

_svc: {
	runtime: "vllm"
	model:   "meta-llama/Llama-3.1-8B-Instruct"
	slos: {
		availability: {objective: 99.5}
		ttft: {objective: 99, threshold: "1s"}
	}
}
services: {
	"chat": _svc & {selector: {namespace: "inference", job: "vllm-a"}}
	"chat-with-a-longer-name": _svc & {selector: {namespace: "ns-a-good-deal-longer-x", job: "vllm-chat-long"}}
	"summarize": _svc & {selector: {namespace: "batch", job: "vllm-sum"}}
	"named-as-job": _svc & {selector: {namespace: "inference", job: "named-as-job"}}
	"also-as-job": _svc & {selector: {namespace: "batch", job: "also-as-job"}}
	"third-as-job": _svc & {selector: {namespace: "serving", job: "third-as-job"}}
	"other-shape": _svc & {selector: {namespace: "inference", job: "other-job"}, slos: latency: {objective: 99, threshold: "2.5s"}}
	"other-shape-too": _svc & {selector: {namespace: "inference", job: "vllm-other"}, slos: latency: {objective: 99, threshold: "2.5s"}}
	"other-shape-three": _svc & {selector: {namespace: "batch", job: "vllm-other-three"}, slos: latency: {objective: 99, threshold: "2.5s"}}
	"a-pair": _svc & {selector: {namespace: "inference", job: "vllm-pair-a"}, slos: latency: {objective: 98, threshold: "2.5s"}}
	"b-pair": _svc & {selector: {namespace: "inference", job: "vllm-pair-b"}, slos: latency: {objective: 98, threshold: "2.5s"}}
	"alone": _svc & {selector: {namespace: "inference", job: "vllm-alone"}, slos: queue: {objective: 99, threshold: "1s"}}
	"a-name-much-too-long-for-a-shape-even-at-48-chars": _svc & {selector: {namespace: "inference", job: "long"}}
	"pod-a": _svc & {selector: {namespace: "inference", exported_pod: "pod-a-0"}}
	"by-model": _svc & {selector: {namespace: "inference", job: "vllm-m", model_name: "llama-8b"}}
	"as-dcgm": _svc & {selector: {namespace: "inference", job: "dcgm-exporter"}}
}
`

// comparedFleet has services whose identity the outputs compare with other
// text in ways no two sets of placeholders show: shapes must leave them
// alone.
const comparedFleet = `package slo

services: {
	// The selector's model_name sorts after Sample's placeholder, as the
	// model's does: the printed matchers' order depends on the value.
	"chat": {
		runtime: "vllm"
		model:   "zephyr-7b"
		selector: {namespace: "inference", job: "chat", model_name: "zephyr-7b-beta"}
		slos: availability: objective: 99.5
	}
	// A job named as dcgm-exporter's makes a runtime series and an
	// exporter series alike, and the GPU tests write it once.
	"an-app": {
		runtime: "custom"
		selector: {job: "dcgm-exporter"}
		metrics: {latency: "inference_latency_seconds", kv_cache: "up{instance=\"10.0.0.2:9400\"}"}
		slos: latency: {objective: 99, threshold: "500ms"}
	}
	// The pod dcgm-exporter's series are matched by is the service's
	// name-0, and equal to the selector's exported_pod: a shape writes
	// the pod with the name's placeholder in it, and must reproduce
	// that, for podded, podder and poddet alike.
	"podded": _podded & {selector: {exported_pod: "podded-0"}}
	"podder": _podded & {selector: {exported_pod: "podder-0"}}
	"poddet": _podded & {selector: {exported_pod: "poddet-0"}}
	// A team and a model YAML would quote, which no placeholder is.
	"quoted-a": _quoted & {selector: {namespace: "team-a"}}
	"quoted-b": _quoted & {selector: {namespace: "team-b"}}
	"quoted-c": _quoted & {selector: {namespace: "team-c"}}
}

_quoted: {
	runtime: "vllm"
	team:    "yes"
	model:   "True"
	slos: availability: objective: 99.5
}

_podded: {
	runtime: "custom"
	metrics: {latency: "inference_latency_seconds",
		kv_cache: "DCGM_FI_DEV_FB_USED{job=\"dcgm-exporter\",gpu=\"0\",UUID=\"GPU-00000000-0000-0000-0000-000000000000\",modelName=\"NVIDIA H100 80GB HBM3\",instance=\"10.0.0.2:9400\"}"}
	slos: latency: {objective: 99, threshold: "500ms"}
}
`

// TestShapesMakeWhatEachServiceWouldGet builds every example, a fleet,
// variedFleet, comparedFleet and the teams fleet, for the plain and the operator target, once through shapes
// and once generating every service itself, and wants the same files.
func TestShapesMakeWhatEachServiceWouldGet(t *testing.T) {
	specs := map[string][]spec.Source{
		"fleet":    {{Name: "fleet.cue", Data: testenv.Fleet(3)}},
		"varied":   {{Name: "varied.cue", Data: []byte(variedFleet)}},
		"compared": {{Name: "compared.cue", Data: []byte(comparedFleet)}},
		"teams":    {{Name: "teams.cue", Data: testenv.TeamsFleet(100)}},
	}
	examples, err := filepath.Glob("../../examples/*/*.*")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range examples {
		if ext := filepath.Ext(p); ext == ".cue" || ext == ".yaml" || ext == ".json" {
			specs[p] = append(specs[p], readSource(t, p))
		}
	}
	for name, srcs := range specs {
		res, err := spec.LoadSources(srcs...)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, o := range []Options{{}, {Target: target.Operator, Namespace: "monitoring", Operator: target.Overrides{Labels: []labels.Label{{Name: "release", Value: "kube-prometheus-stack"}}}}} {
			t.Run(fmt.Sprintf("%s/%s", name, o.target()), func(t *testing.T) {
				got, err := build(o, res.Spec)
				if err != nil {
					t.Fatal(err)
				}
				want, err := build(o, withoutShapes(res.Spec))
				if err != nil {
					t.Fatal(err)
				}
				sameFiles(t, got, want)
			})
		}
	}
}

func withoutShapes(s model.Spec) model.Spec {
	svcs := slices.Clone(s.Services)
	for i := range svcs {
		svcs[i].Shape = nil
	}
	return model.Spec{Services: svcs}
}

func sameFiles(t *testing.T, got, want Files) {
	t.Helper()
	if g, w := slices.Sorted(maps.Keys(got)), slices.Sorted(maps.Keys(want)); !slices.Equal(g, w) {
		t.Fatalf("files through shapes:\n%v\nwant:\n%v", g, w)
	}
	for p, data := range want {
		if !bytes.Equal(got[p], data) {
			t.Errorf("%s differs through shapes", p)
		}
	}
}

// TestVariedFleetSharesShapes pins what the test above relies on: which
// services of the varied fleet share a shape, and which have none.
func TestVariedFleetSharesShapes(t *testing.T) {
	res, err := spec.LoadSources(spec.Source{Name: "varied.cue", Data: []byte(variedFleet)})
	if err != nil {
		t.Fatal(err)
	}
	shapeOf := map[string]*model.Shape{}
	for _, svc := range res.Spec.Services {
		shapeOf[svc.Name] = svc.Shape
	}
	one := shapeOf["chat"]
	if one == nil || shapeOf["chat-with-a-longer-name"] != one || shapeOf["summarize"] != one {
		t.Errorf("chat, chat-with-a-longer-name and summarize should share a shape: %v", shapeOf)
	}
	for _, three := range [][3]string{{"named-as-job", "also-as-job", "third-as-job"}, {"other-shape", "other-shape-too", "other-shape-three"}} {
		if sh := shapeOf[three[0]]; sh == nil || sh == one || shapeOf[three[1]] != sh || shapeOf[three[2]] != sh {
			t.Errorf("%v should share a shape of their own: %v", three, shapeOf)
		}
	}
	for _, none := range []string{"a-pair", "b-pair", "alone", "a-name-much-too-long-for-a-shape-even-at-48-chars", "pod-a", "by-model", "as-dcgm"} {
		if shapeOf[none] != nil {
			t.Errorf("%s should have no shape", none)
		}
	}
}

// TestTeamsFleetIsGeneratedOncePerShape: the fleet as teams write it,
// whose services differ in team, model (capitals, dots, slashes), GPU,
// namespace and a job that holds the service's name, is 6 shapes (one per
// runtime and tier) at 100 services as at 1000, and each is generated
// twice (Sample and Check), not once per service.
func TestTeamsFleetIsGeneratedOncePerShape(t *testing.T) {
	res, err := spec.LoadSources(spec.Source{Name: "teams.cue", Data: testenv.TeamsFleet(100)})
	if err != nil {
		t.Fatal(err)
	}
	shapes := map[*model.Shape]bool{}
	for _, svc := range res.Spec.Services {
		if svc.Shape != nil {
			shapes[svc.Shape] = true
		}
	}
	if len(shapes) != 6 || len(res.NoShape) != 0 {
		t.Fatalf("%d shapes and %d services without, want 6 and 0: %v", len(shapes), len(res.NoShape), res.NoShape)
	}
	if generated := generatedThroughShapes(t, res.Spec); generated != 2*6 {
		t.Errorf("generated %d times, want %d", generated, 2*6)
	}
}

// TestShapeNotUsedWhenOutputsReadTheGPU: a shape's placeholder services
// have GPUs of different counts and memory, so an output that reads either
// (as a service's own GPU tests read its memory) makes Check's files differ
// from Sample's, and each service is generated itself.
func TestShapeNotUsedWhenOutputsReadTheGPU(t *testing.T) {
	var b strings.Builder
	b.WriteString("package slo\n\n")
	for _, svc := range []struct{ name, product string }{{"chat-a", "NVIDIA H100 80GB HBM3"}, {"chat-b", "NVIDIA H200"}, {"chat-c", "NVIDIA L40S"}} {
		fmt.Fprintf(&b, "services: %q: {runtime: \"vllm\", selector: {namespace: %[1]q}, gpu: {product: %q, count: 2}, slos: availability: objective: 99.5}\n", svc.name, svc.product)
	}
	res, err := spec.LoadSources(spec.Source{Name: "gpus.cue", Data: []byte(b.String())})
	if err != nil {
		t.Fatal(err)
	}
	if sh := res.Spec.Services[0].Shape; sh == nil || res.Spec.Services[2].Shape != sh {
		t.Fatalf("the three services should share a shape: %v", res.NoShape)
	}
	for _, read := range map[string]func(model.GPU) string{
		"memory": func(g model.GPU) string { return fmt.Sprint(g.MemoryMiB) },
		"count":  func(g model.GPU) string { return fmt.Sprint(g.Count) },
	} {
		generated := 0
		s := newShapes(func(svc model.Service) (Files, error) {
			generated++
			return Files{svc.Name + "/a": []byte(svc.GPU.Product + " " + read(svc.GPU))}, nil
		})
		for _, svc := range res.Spec.Services {
			files, err := emitted(s, svc)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := string(files[svc.Name+"/a"]), svc.GPU.Product+" "+read(svc.GPU); got != want {
				t.Errorf("%s: got %q, want %q", svc.Name, got, want)
			}
		}
		if generated != 5 { // Sample, Check, and each service
			t.Errorf("generated %d times, want 5", generated)
		}
	}
}

// TestShapeNotUsedWhenOutputsTransformTheIdentity: an output that writes
// the identity other than verbatim (here, in capitals) makes Check's files
// differ from Sample's with Check's identity written in, so each service
// is generated itself.
func TestShapeNotUsedWhenOutputsTransformTheIdentity(t *testing.T) {
	sh := &model.Shape{Sample: model.Service{Name: "q-0z"}, Check: model.Service{Name: "qy-wwwwwwwwwwwwwwwwwww9x"}}
	generated := 0
	s := newShapes(func(svc model.Service) (Files, error) {
		generated++
		return Files{svc.Name + "/a": []byte("name " + strings.ToUpper(svc.Name))}, nil
	})
	for _, name := range []string{"chat", "summarize"} {
		files, err := emitted(s, model.Service{Name: name, Shape: sh})
		if err != nil {
			t.Fatal(err)
		}
		if got, want := string(files[name+"/a"]), "name "+strings.ToUpper(name); got != want {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
	}
	if generated != 4 { // Sample, Check, and each service
		t.Errorf("generated %d times, want 4", generated)
	}
}

// TestShapeFillsIdentity: a shape that carries the identity verbatim is
// generated twice (Sample and Check) however many services share it, and
// each service gets its own identity in every path and content.
func TestShapeFillsIdentity(t *testing.T) {
	sh := &model.Shape{
		Sample: model.Service{Name: "q-0z", Selector: labelsOf("job", "q-1z")},
		Check:  model.Service{Name: "qy-wwwwwwwwwwwwwwwwwww9x", Selector: labelsOf("job", "qy-wwwwwwwwwwwwwwwwwww8x")},
	}
	generated := 0
	s := newShapes(func(svc model.Service) (Files, error) {
		generated++
		job := svc.Selector[0].Value
		return Files{svc.Name + "/rules.yaml": []byte("job=" + job + " svc=" + svc.Name + " again " + job)}, nil
	})
	for i := range 5 {
		name, job := fmt.Sprintf("svc-%d", i), fmt.Sprintf("vllm-%d", i)
		files, err := emitted(s, model.Service{Name: name, Selector: labelsOf("job", job), Shape: sh})
		if err != nil {
			t.Fatal(err)
		}
		want := "job=" + job + " svc=" + name + " again " + job
		if got := string(files[name+"/rules.yaml"]); got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
	if generated != 2 {
		t.Errorf("generated %d times, want 2", generated)
	}
}

func TestShapeGeneratesServiceWhenSampleFails(t *testing.T) {
	sh := &model.Shape{Sample: model.Service{Name: "q-0z"}, Check: model.Service{Name: "qy-wwwwwwwwwwwwwwwwwww9x"}}
	s := newShapes(func(svc model.Service) (Files, error) {
		return nil, errors.New("cannot generate " + svc.Name)
	})
	if _, err := emitted(s, model.Service{Name: "chat", Shape: sh}); err == nil || err.Error() != "cannot generate chat" {
		t.Errorf("got %v, want the service's own error", err)
	}
}

func labelsOf(name, value string) []labels.Label {
	return []labels.Label{{Name: name, Value: value}}
}

func readSource(t *testing.T, p string) spec.Source {
	t.Helper()
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return spec.Source{Name: p, Data: data}
}

// TestFleetGeneratedTwicePerShape: the outputs slogen makes today carry a
// service's identity verbatim, so a fleet of one shape is generated twice
// (Sample and Check), not once per service.
func TestFleetGeneratedTwicePerShape(t *testing.T) {
	res, err := spec.LoadSources(spec.Source{Name: "fleet.cue", Data: testenv.Fleet(20)})
	if err != nil {
		t.Fatal(err)
	}
	if generated := generatedThroughShapes(t, res.Spec); generated != 2 {
		t.Errorf("generated %d times for 20 services of one shape, want 2", generated)
	}
}

// generatedThroughShapes emits every service of the spec through shapes,
// as a fleet, and says how many times a service's files were generated.
func generatedThroughShapes(t *testing.T, spec model.Spec) int {
	t.Helper()
	rb, err := runbooks.Embedded()
	if err != nil {
		t.Fatal(err)
	}
	generated := 0
	each := serviceFiles(stages(gputests.NewCache(), rb, Options{}, plan.Fleet), plan.Fleet)
	s := newShapes(func(svc model.Service) (Files, error) {
		generated++
		return each(svc)
	})
	for _, svc := range spec.Services {
		if _, err := emitted(s, svc); err != nil {
			t.Fatal(err)
		}
	}
	return generated
}

// emitted collects what shapes emit for one service.
func emitted(s *shapes, svc model.Service) (Files, error) {
	out := Files{}
	err := s.emit(svc, func(p string, data []byte) error {
		out[p] = bytes.Clone(data)
		return nil
	})
	return out, err
}

// TestShapesOnRandomIdentities compares both ways over fleets whose
// identities are drawn at random from words the outputs hold (runtime,
// exporter and namespace names) and from others, in random selectors and
// runtimes, with teams and models (capitals, dots, slashes) or none: a generator that starts comparing an identity with other
// text, in a way two sets of placeholders cannot show, fails it.
func TestShapesOnRandomIdentities(t *testing.T) {
	words := []string{"dcgm-exporter", "vllm", "sglang", "inference", "monitoring", "slogen", "default",
		"prometheus", "chat", "chat-0", "zulu-9", "aaaa", "svc-0001", "serving", "model-name", "gpu-0"}
	labels := []string{"job", "namespace", "pod", "instance", "cluster", "exported_pod"}
	teams := []string{"ads", "rag", "ml-platform", "chat", "vllm"}
	models := []string{"meta-llama/Llama-3.1-8B-Instruct", "Qwen/Qwen2.5-7B-Instruct", "google/gemma-2-27b-it",
		"deepseek-ai/DeepSeek-R1-Distill-Qwen-32B", "mistralai/Mixtral-8x7B-Instruct-v0.1", "chat", "llama_3.1"}
	// Every runtime of the table that serves the availability SLO drawn,
	// but custom, whose spec names its metrics.
	runtimes := slices.DeleteFunc(profile.Names(), func(n string) bool {
		p, ok := profile.ByRuntime(n)
		return !ok || p.Availability == nil
	})
	rnd := rand.New(rand.NewPCG(7, 11))
	pick := func(from []string) string { return from[rnd.IntN(len(from))] }
	shaped := 0
	for n := range 24 {
		var b strings.Builder
		b.WriteString("package slo\n\nservices: {\n")
		runtime, selector := pick(runtimes), labels[:1+rnd.IntN(len(labels))]
		withTeam, withModel := rnd.IntN(2) == 0, rnd.IntN(2) == 0
		for i := range 4 {
			fmt.Fprintf(&b, "\t%q: {runtime: %q, ", fmt.Sprintf("%s-%d", pick(words), i), runtime)
			if withTeam {
				fmt.Fprintf(&b, "team: %q, ", pick(teams))
			}
			if withModel {
				fmt.Fprintf(&b, "model: %q, ", pick(models))
			}
			b.WriteString("selector: {")
			for _, l := range selector {
				fmt.Fprintf(&b, "%s: %q, ", l, pick(words))
			}
			b.WriteString("}, " + validBody(runtime) + "}\n")
		}
		b.WriteString("}\n")
		res, err := spec.LoadSources(spec.Source{Name: fmt.Sprintf("random-%d.cue", n), Data: []byte(b.String())})
		if err != nil {
			continue // a spec the drawing made invalid (two names alike, a label a runtime forbids)
		}
		for _, svc := range res.Spec.Services {
			if svc.Shape != nil {
				shaped++
			}
		}
		got, err := build(Options{}, res.Spec)
		if err != nil {
			t.Fatal(err)
		}
		want, err := build(Options{}, withoutShapes(res.Spec))
		if err != nil {
			t.Fatal(err)
		}
		t.Run(fmt.Sprint(n), func(t *testing.T) { sameFiles(t, got, want) })
	}
	if shaped < 10 {
		t.Errorf("only %d of the services drawn have a shape: the draw tests little", shaped)
	}
}

// validBody is what a drawn service of runtime needs besides its
// selector: an availability SLO, and a gateway's engine pods.
func validBody(runtime string) string {
	if p, _ := profile.Lookup(runtime); p.Gateway {
		return `slos: availability: objective: 99.5, dcgm: pod: "engine-.*"`
	}
	return "slos: availability: objective: 99.5"
}

// build generates every file for every service, in memory.
func build(o Options, spec model.Spec) (Files, error) {
	out := Files{}
	var mu sync.Mutex
	err := o.Stream(spec, func(p string, data []byte) error {
		mu.Lock()
		defer mu.Unlock()
		out[p] = bytes.Clone(data)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
