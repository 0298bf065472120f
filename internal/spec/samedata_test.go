package spec

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"

	"github.com/slogen-dev/slogen/internal/testenv"
)

// TestSameDataLoadsAsCheckingEach loads specs twice, checking one service
// of each group written as the same data but for its selector, and
// checking every service: the results, or the problems, must be the same.
// The fleets hold selector values the schema must accept as they are, and
// services that share a problem the schema finds, or one resolving finds.
func TestSameDataLoadsAsCheckingEach(t *testing.T) {
	cases := map[string][]Source{
		"fleet":        {{Name: "fleet.cue", Data: testenv.Fleet(3 * chunkSize)}},
		"varied":       {{Name: "varied.cue", Data: []byte(sameDataFleet)}},
		"problems":     {{Name: "problems.cue", Data: []byte(sameDataProblems)}},
		"schema error": {{Name: "tema.cue", Data: []byte(strings.ReplaceAll(sameDataFleet, "team:", "tema:"))}},
		"teams":        {{Name: "teams.cue", Data: testenv.TeamsFleet(60)}},
		"traps":        {{Name: "traps.cue", Data: []byte(sameDataTraps)}},
		"references":   {{Name: "references.cue", Data: []byte(sameDataReferences)}},
		"yaml":         {{Name: "fleet.yaml", Data: []byte(sameDataYAML)}},
		"json":         {{Name: "fleet.json", Data: []byte(sameDataJSON)}},
		"two files": {
			{Name: "fleet.cue", Data: testenv.Fleet(5)},
			{Name: "more.cue", Data: testenv.Fleet(3)}, // declares svc-0000 to svc-0002 again
		},
	}
	for _, p := range specFiles(t) {
		cases[p] = []Source{readSource(t, p)}
	}
	for name, srcs := range cases {
		t.Run(name, func(t *testing.T) {
			derived, each := loadPrinted(t, srcs, true), loadPrinted(t, srcs, false)
			if derived != each {
				t.Errorf("checking one of each group:\n%s\nchecking each:\n%s", derived, each)
			}
		})
	}
}

// loadPrinted loads the sources and prints the result, or the problems.
func loadPrinted(t *testing.T, srcs []Source, sameData bool) string {
	res, err := loadSources(srcs, sameData)
	if err != nil {
		return err.Error()
	}
	out, err := json.MarshalIndent(res, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// sameDataService is a service of sameDataFleet: the same data, but for
// its selector and what is appended.
func sameDataService(name, selector, more string) string {
	return fmt.Sprintf(`services: %q: {
	team: "ml-platform"
	runtime: "vllm"
	%s
	slos: {
		availability: {objective: 99.5}
		latency: {objective: 99, threshold: "2.5s"}
	}
	%s
}
`, name, selector, more)
}

var sameDataFleet = "package slo\n\n#team: \"ml-platform\"\n\n" + strings.Join([]string{
	sameDataService("plain-a", `selector: {namespace: "inference", job: "vllm-a"}`, ""),
	sameDataService("plain-b", `selector: {namespace: "inference", job: "vllm-b"}`, ""),
	// Values the schema must take as they are.
	sameDataService("empty", `selector: {namespace: "", job: ""}`, ""),
	sameDataService("spaced", `selector: {namespace: "A B", job: "ü"}`, ""),
	sameDataService("templated", `selector: {namespace: "{{ $labels.x }}", job: "true"}`, ""),
	sameDataService("dupe", `selector: {namespace: "inference", job: "inference"}`, ""),
	// Other labels, another order, none.
	sameDataService("reordered", `selector: {job: "vllm-r", namespace: "inference"}`, ""),
	sameDataService("pod-only", `selector: {pod: "vllm-p"}`, ""),
	sameDataService("no-selector-a", "", ""),
	sameDataService("no-selector-b", "", ""),
	sameDataService("empty-selector", "selector: {}", ""),
	// Written otherwise, the same data: an escape, a reference.
	sameDataService("escaped", `selector: {namespace: "inference", job: "a\"b"}`, ""),
	sameDataService("referenced", `selector: {namespace: "inference", job: "vllm-c"}`, "team: #team"),
	// Not plain data: each checked itself.
	sameDataService("defaulted", `selector: {namespace: "inference", job: "vllm-d"}`, `model: *"m" | "n"`),
	sameDataService("optional", `selector: {namespace: "inference", job: "vllm-e"}`, `model?: "m"`),
	sameDataService("twice", `selector: {namespace: "inference", job: "vllm-f"}`, ""),
	`services: twice: model: "m"` + "\n",
}, "")

// sameDataTraps pairs services whose data is the same but for identity,
// where the second of each pair holds what the schema's fields meet in a
// way the data does not show, or numbers of another kind: each must be
// checked itself. The first of each pair stands for its group, but for
// m-window-default, whose default would stand for the service after it.
var sameDataTraps = "package slo\n\n" + `#closed: {runtime: "vllm", slos: availability: objective: 99.5}
#gpu: {product: "NVIDIA H100 80GB HBM3", count: 4}
` + strings.Join([]string{
	sameDataService("a-plain", `selector: {job: "a"}`, `gpu: {product: "NVIDIA H100 80GB HBM3", count: 4}`),
	sameDataService("b-defaulted", `selector: {job: "b"}`, `gpu: {product: "NVIDIA H100 80GB HBM3", count: *4 | 8}`),
	sameDataService("c-float", `selector: {job: "c"}`, `gpu: {product: "NVIDIA H100 80GB HBM3", count: 4.0}`),
	sameDataService("d-closed", `selector: {job: "d"}`, `gpu: #gpu`),
	sameDataService("e-pattern", `selector: {job: "e"}`, `gpu: {product: "NVIDIA H100 80GB HBM3", count: 4}, [=~"^alert"]: page_severity: 5`),
	sameDataService("f-optional", `selector: {job: "f"}`, `gpu: {product: "NVIDIA H100 80GB HBM3", count: 4}, alerting?: page_severity: 5`),
	sameDataService("g-definition", `selector: {job: "g"}`, `gpu: {product: "NVIDIA H100 80GB HBM3", count: 4}, #note: "x"`),
	sameDataService("h-model", `selector: {job: "h"}`, `gpu: {product: "NVIDIA H100 80GB HBM3", count: 4}, model: "Qwen/Qwen2.5-7B-Instruct"`),
	sameDataService("i-model", `selector: {job: "i"}`, `gpu: {product: "NVIDIA H100 80GB HBM3", count: 4}, model: "meta-llama/Llama-3.1-8B-Instruct"`),
	sameDataService("o-product", `selector: {job: "o"}`, `gpu: {product: "NVIDIA H200", count: 4}`),
	strings.Replace(sameDataService("j-team", `selector: {job: "j"}`, `gpu: {product: "NVIDIA H100 80GB HBM3", count: 4}`), "ml-platform", "search", 1),
	// The schema takes no 14d: meeting it, the default's other choice
	// is left, and the second service's data is wrong.
	sameDataService("m-window-default", `selector: {job: "m"}`, `slos: availability: window: *"14d" | "7d"`),
	sameDataService("n-window", `selector: {job: "n"}`, `slos: availability: window: "14d"`),
	"services: \"k-plain-service\": {runtime: \"vllm\", slos: availability: objective: 99.5}\nservices: \"l-closed-service\": #closed\n",
}, "")

// sameDataReferences has a service whose data alone is its twin's, but
// which reads a field the schema fills in: with the schema, its page_on
// lists the thresholds' defaults, which are no alerts.
var sameDataReferences = "package slo\n\n" + strings.Join([]string{
	sameDataService("a-literal", `selector: {job: "a"}`, `thresholds: {}, alerting: page_on: []`),
	sameDataService("b-reference", `selector: {job: "b"}`, `thresholds: {}, alerting: page_on: [for k, _ in thresholds {k}]`),
	sameDataService("c-computed", `selector: {job: "c"}`, `gpu: count: 4`),
	sameDataService("d-computed", `selector: {job: "d"}`, `gpu: count: 8 / 2`),
}, "")

// sameDataProblems have problems: one the schema finds, and one that
// resolving finds, in two services of the same data.
var sameDataProblems = "package slo\n\n" + strings.Join([]string{
	sameDataService("number", `selector: {namespace: "inference", job: 5}`, ""),
	sameDataService("between-a", `selector: {namespace: "inference", job: "vllm-g"}`, `buckets: latency: [0.5, 1, 2]`),
	sameDataService("between-b", `selector: {namespace: "inference", job: "vllm-h"}`, `buckets: latency: [0.5, 1, 2]`),
}, "")

const sameDataYAML = `services:
  yaml-a:
    runtime: vllm
    selector: {namespace: inference, job: vllm-a}
    slos:
      availability: {objective: 99.5}
  yaml-b:
    runtime: vllm
    selector: {namespace: inference, job: vllm-b}
    slos:
      availability: {objective: 99.5}
  yaml-c:
    runtime: vllm
    selector: {namespace: inference, job: "x\ty"}
    slos:
      availability: {objective: 99.5}
`

const sameDataJSON = `{"services": {
  "json-a": {"runtime": "vllm", "selector": {"job": "vllm-a"}, "slos": {"availability": {"objective": 99.5}}},
  "json-b": {"runtime": "vllm", "selector": {"job": "vllm-b"}, "slos": {"availability": {"objective": 99.5}}},
  "json-c": {"runtime": "vllm", "selector": {"job": "vllm\u0063"}, "slos": {"availability": {"objective": 99.5}}}
}}`

// TestStandIns checks which services a check of another stands for, so
// that TestSameDataLoadsAsCheckingEach compares two ways indeed.
func TestStandIns(t *testing.T) {
	for _, tc := range []struct {
		name string
		src  Source
		want map[string]string // service: the service that stands for it
	}{
		{"fleet", Source{Name: "fleet.cue", Data: testenv.Fleet(3)},
			map[string]string{"svc-0001": "svc-0000", "svc-0002": "svc-0000"}},
		{"problems", Source{Name: "problems.cue", Data: []byte(sameDataProblems)}, map[string]string{"between-b": "between-a"}},
		// Services are listed by name, so dupe stands for its group.
		{"varied", Source{Name: "varied.cue", Data: []byte(sameDataFleet)}, map[string]string{
			"empty": "dupe", "escaped": "dupe", "plain-a": "dupe", "plain-b": "dupe", "referenced": "dupe", "spaced": "dupe", "templated": "dupe",
			"no-selector-b": "no-selector-a",
		}},
		{"yaml", Source{Name: "fleet.yaml", Data: []byte(sameDataYAML)}, map[string]string{"yaml-b": "yaml-a", "yaml-c": "yaml-a"}},
		{"json", Source{Name: "fleet.json", Data: []byte(sameDataJSON)}, map[string]string{"json-b": "json-a", "json-c": "json-a"}},
		// Services are compared as CUE evaluated them.
		{"embedding", Source{Name: "embedded.cue", Data: append(testenv.Fleet(3), "{}\n"...)}, fleetOf3},
		{"comprehension", Source{Name: "for.cue", Data: append(testenv.Fleet(3), `for k, v in {} {services: (k): v}`+"\n"...)}, fleetOf3},
		{"pattern over services", Source{Name: "pattern.cue", Data: append(testenv.Fleet(3), `services: [string]: alerting: {}`+"\n"...)}, fleetOf3},
		{"computed label", Source{Name: "label.cue", Data: append(testenv.Fleet(3), `("serv" + "ices"): x: {}`+"\n"...)}, fleetOf3},
		{"definition beside", Source{Name: "def.cue", Data: append(testenv.Fleet(3), `#x: {}`+"\n"...)}, fleetOf3},
		// A reference to a regular field: the whole file is checked
		// service by service.
		{"references", Source{Name: "references.cue", Data: []byte(sameDataReferences)}, map[string]string{}},
		{"value alias", Source{Name: "alias.cue", Data: append(testenv.Fleet(3), `services: "svc-0001": X={alerting: runbook_base_url: "https://runbooks/\(X.team)"}`+"\n"...)}, map[string]string{}},
		{"traps", Source{Name: "traps.cue", Data: []byte(sameDataTraps)}, map[string]string{
			"i-model": "h-model", "j-team": "a-plain", "o-product": "a-plain",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, f := listed(t, tc.src)
			stand := standInsOf(f, true)
			got := map[string]string{}
			for j, in := range stand.by {
				if in != j {
					got[f.services[j].Unquoted()] = f.services[in].Unquoted()
				}
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("stand-ins %v, want %v", got, tc.want)
			}
		})
	}
}

var fleetOf3 = map[string]string{"svc-0001": "svc-0000", "svc-0002": "svc-0000"}

// TestTeamsFleetChecksOneServicePerKind: the teams fleet, one comprehension
// over teams, models, tiers and GPUs, is checked once for each runtime,
// tier and GPU count it holds (18 at 144 services and more), not once a
// service.
func TestTeamsFleetChecksOneServicePerKind(t *testing.T) {
	_, f := listed(t, Source{Name: "teams.cue", Data: testenv.TeamsFleet(3 * 48)})
	checked := 0
	for j, in := range standInsOf(f, true).by {
		if in == j {
			checked++
		}
	}
	if checked != 18 {
		t.Errorf("%d of %d services checked with CUE, want 18", checked, len(f.services))
	}
}

// specFiles are the examples' and tests' spec files.
func specFiles(t *testing.T) []string {
	var paths []string
	for _, pattern := range []string{"../../examples/*/*.cue", "../../examples/*/*.yaml", "../generate/*/testdata/*.cue", "../plan/*/testdata/*.cue", "../generate/scrape/testdata/specs/*.cue", "testdata/*"} {
		files, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, files...)
	}
	return paths
}

func readSource(t *testing.T, path string) Source {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return Source{Name: path, Data: data}
}

// TestDeriveChecksWhatItCannotDerive has a fleet's selectors misread, as
// a reading of the data that CUE's decoding disagrees with would: the stand-in's
// check shows it, and each service is checked itself.
func TestDeriveChecksWhatItCannotDerive(t *testing.T) {
	src := Source{Name: "fleet.cue", Data: testenv.Fleet(3)}
	def, f := listed(t, src)
	stand := standInsOf(f, true)
	for j := range stand.identity {
		stand.identity[j].selector = map[string]string{"job": fmt.Sprint("misread-", j)}
	}
	files := []file{f}
	res, ds := build(files, checkServices(def, files, []standIns{stand}, &helpers{}))
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	got, err := json.MarshalIndent(res, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	if want := loadPrinted(t, []Source{src}, false); string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

// TestSchemaConstrainsNoValueOfTheIdentity pins what deriving a service
// from its stand-in rests on: the schema takes any service name, selector
// value, team, model and GPU product (resolving, which every service goes
// through itself, checks names).
func TestSchemaConstrainsNoValueOfTheIdentity(t *testing.T) {
	for _, odd := range []string{"", "0", "A B", "ü", "{{ $labels.x }}", "true", `a"b`, "x\ny", strings.Repeat("n", 300)} {
		src := Source{Name: "odd.cue", Data: []byte(fmt.Sprintf("services: %q: {runtime: \"vllm\", team: %[1]q, model: %[1]q, gpu: product: %[1]q, selector: {job: %[1]q, namespace: %[1]q}, slos: availability: objective: 99.5}\n", odd))}
		def, f := listed(t, src)
		files := []file{f}
		checked := checkServices(def, files, []standIns{standInsOf(f, false)}, &helpers{})
		got := checked[0][0]
		if len(got.invalid) > 0 || !sameIdentity(got.raw, identity{team: odd, model: odd, gpuProduct: odd, selector: map[string]string{"job": odd, "namespace": odd}}) {
			t.Errorf("identity values %q: the schema says %v, decodes %+v", odd, got.invalid, got.raw)
		}
	}
}

// listed compiles a source in a context of its own and lists its
// services.
func listed(t *testing.T, src Source) (cue.Value, file) {
	ctx := cuecontext.New()
	def := specSchema(ctx)
	v, err := compile(ctx, src)
	if err != nil {
		t.Fatal(err)
	}
	f, _ := listServices(def, src, v)
	return def, f
}
