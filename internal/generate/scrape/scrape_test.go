package scrape

import (
	"bytes"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/spec"
)

var update = flag.Bool("update", false, "rewrite the .golden files")

// outputs builds every scrape file of a spec fixture, keyed by the path
// generate would write it to.
func outputs(t *testing.T, fixture string) map[string][]byte {
	t.Helper()
	svcs := services(t, fixture)
	out := map[string][]byte{}
	for _, svc := range svcs {
		name, data, err := Runtime(svc)
		if err != nil {
			t.Fatalf("%s: %v", svc.Name, err)
		}
		out[svc.Name+"/"+name] = data
	}
	shared, err := dcgmFiles(svcs)
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range shared {
		out[name] = data
	}
	return out
}

// services loads a spec fixture: a file name under testdata/specs, or a
// path.
func services(t *testing.T, fixture string) []model.Service {
	t.Helper()
	path := fixture
	if !strings.Contains(fixture, string(filepath.Separator)) {
		path = filepath.Join("testdata", "specs", fixture)
	}
	res, err := spec.Load(path)
	if err != nil {
		t.Fatalf("loading %s: %v", fixture, err)
	}
	return res.Spec.Services
}

func fixtures(t *testing.T) []string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join("testdata", "specs", "*.cue"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	for i, p := range paths {
		paths[i] = filepath.Base(p)
	}
	return paths
}

// exampleSpecs are the repository's examples, whose scrape configs must
// pass too.
func exampleSpecs(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, ext := range []string{"cue", "yaml", "json"} {
		m, _ := filepath.Glob(filepath.Join("..", "..", "..", "examples", "*", "*."+ext))
		out = append(out, m...)
	}
	if len(out) == 0 {
		t.Fatal("no examples")
	}
	return out
}

// TestGolden compares every generated file with testdata/TestGolden/<fixture>/<path>.golden;
// go test -update rewrites them.
func TestGolden(t *testing.T) {
	for _, fx := range fixtures(t) {
		t.Run(fx, func(t *testing.T) {
			dir := filepath.Join("testdata", "TestGolden", strings.TrimSuffix(fx, ".cue"))
			got := outputs(t, fx)
			if *update {
				_ = os.RemoveAll(dir)
			}
			for name, data := range got {
				golden := filepath.Join(dir, strings.ReplaceAll(name, "/", "__")+".golden")
				if *update {
					if err := os.MkdirAll(dir, 0o755); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(golden, data, 0o644); err != nil {
						t.Fatal(err)
					}
					continue
				}
				want, err := os.ReadFile(golden)
				if err != nil {
					t.Fatalf("%v (run go test -update)", err)
				}
				if string(want) != string(data) {
					t.Errorf("%s differs from %s:\n%s", name, golden, data)
				}
			}
			goldens, _ := filepath.Glob(filepath.Join(dir, "*.golden"))
			if !*update && len(goldens) != len(got) {
				t.Errorf("%d golden files, %d outputs", len(goldens), len(got))
			}
		})
	}
}

func TestOutputIsDeterministic(t *testing.T) {
	for _, fx := range fixtures(t) {
		a, b := outputs(t, fx), outputs(t, fx)
		for name := range a {
			if string(a[name]) != string(b[name]) {
				t.Errorf("%s/%s differs between two runs", fx, name)
			}
		}
	}
}

func TestServicesSharingADCGMJobMustAgree(t *testing.T) {
	a := model.Service{Name: "a", Scrape: model.Scrape{Mode: model.ScrapeKubernetes, DCGM: model.Endpoint{Job: "dcgm-exporter", Port: 9400, Path: "/metrics", Scheme: "http"}}}
	b := a
	b.Name = "b"
	b.Scrape.DCGM.HonorLabels = true
	_, err := dcgmFiles([]model.Service{a, b})
	if err == nil || !strings.Contains(err.Error(), `services a and b scrape dcgm-exporter job "dcgm-exporter" differently`) {
		t.Fatalf("err = %v; want a conflict naming both services", err)
	}
	files, err := dcgmFiles([]model.Service{a, a})
	if err != nil || len(files) != 1 {
		t.Fatalf("identical jobs: files %d, err %v; want one file", len(files), err)
	}
	if n := strings.Count(string(files[DCGMConfigFile]), "job_name:"); n != 1 {
		t.Errorf("identical jobs written %d times; want once", n)
	}
}

// inlineSecret is a credential written as a value rather than a
// reference to a file or a Secret.
var inlineSecret = regexp.MustCompile(`(?m)^[ \t]*(password|credentials|bearer_token|bearerToken):[ \t]*\S`)

func TestNoInlineCredentials(t *testing.T) {
	for _, fx := range fixtures(t) {
		for name, data := range outputs(t, fx) {
			if m := inlineSecret.Find(data); m != nil {
				t.Errorf("%s/%s has an inline credential: %s", fx, name, m)
			}
		}
	}
	if !inlineSecret.MatchString("    password: hunter2") {
		t.Fatal("the pattern misses an inline password")
	}
}

func dcgmFiles(svcs []model.Service) (map[string][]byte, error) {
	d, err := DCGM(svcs)
	if err != nil {
		return nil, err
	}
	return d.Files()
}

// prometheus.yml gathers the jobs of the services' runtime files: the file
// must be what encoding the whole config at once writes.
func TestPrometheusFileIsTheWholeConfig(t *testing.T) {
	for _, f := range append(fixtures(t), exampleSpecs(t)...) {
		svcs := services(t, f)
		var jobs []ScrapeConfig
		var runtimeFiles [][]byte
		for _, svc := range svcs {
			name, data, err := Runtime(svc)
			if err != nil {
				t.Fatal(err)
			}
			if name == ConfigFile {
				jobs = append(jobs, Plain(svc.Scrape, svc.Scrape.Runtime))
				runtimeFiles = append(runtimeFiles, data)
			}
		}
		dcgm, err := DCGM(svcs)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range slices.Sorted(maps.Keys(dcgm.jobs)) {
			jobs = append(jobs, dcgm.jobs[k])
		}
		for _, ruleFiles := range [][]string{{"a/rules.yaml", "b c/rules.yaml"}, nil} {
			got, err := Prometheus(runtimeFiles, dcgm, ruleFiles)
			if err != nil {
				t.Fatal(err)
			}
			if len(runtimeFiles) == 0 {
				if got != nil {
					t.Errorf("%s: every service is scraped through the operator, yet prometheus.yml is\n%s", f, got)
				}
				continue
			}
			want, err := marshalConfig(Config{RuleFiles: ruleFiles, ScrapeConfigs: jobs}, prometheusNote)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s, rule files %v: gathered from the runtime files:\n%s\nwant\n%s", f, ruleFiles, got, want)
			}
		}
	}
	if _, err := Prometheus([][]byte{[]byte("scrape_configs: []\n")}, DCGMJobs{}, nil); err == nil {
		t.Error("a runtime file Runtime did not write: no error")
	}
}
