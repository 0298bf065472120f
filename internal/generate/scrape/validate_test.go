package scrape

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/prometheus/common/promslog"
	"github.com/prometheus/prometheus/config"
	"go.yaml.in/yaml/v3"

	"github.com/slogen-dev/slogen/internal/testenv"
)

// credentialFiles are the files the fixtures point at, relative to the
// config; Prometheus resolves them against the config's directory.
var credentialFiles = []string{"secrets/vllm-token", "secrets/ca.pem", "secrets/tgi-password"}

// plainConfigs writes every fixture's scrape_configs files, with the
// credential files they name, into a temporary directory.
func plainConfigs(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range credentialFiles {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("placeholder\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	var paths []string
	for _, fx := range append(fixtures(t), exampleSpecs(t)...) {
		for name, data := range outputs(t, fx) {
			if !strings.HasSuffix(name, ConfigFile) {
				continue
			}
			base := strings.TrimSuffix(filepath.Base(fx), filepath.Ext(fx))
			p := filepath.Join(dir, base+"-"+strings.ReplaceAll(name, "/", "-"))
			if err := os.WriteFile(p, data, 0o644); err != nil {
				t.Fatal(err)
			}
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		t.Fatal("no scrape configs generated")
	}
	return paths
}

// TestConfigsLoadInPrometheus loads every scrape config with Prometheus's
// own config package, as a server would. Without the kubernetes build tag
// (kubernetes_sd_test.go) the loader knows no Kubernetes discovery, and a
// kubernetes_sd_configs block is swapped for a static target, as for
// Debian's promtool; .ci/run runs it with the tag too.
func TestConfigsLoadInPrometheus(t *testing.T) {
	for _, p := range plainConfigs(t) {
		if !kubernetesSD && usesKubernetesSD(t, p) {
			p = withoutKubernetesSD(t, p)
		}
		cfg, err := config.LoadFile(p, false, promslog.NewNopLogger())
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(p), err)
			continue
		}
		scs, err := cfg.GetScrapeConfigs()
		if err != nil || len(scs) == 0 {
			t.Errorf("%s: %d scrape configs, %v", filepath.Base(p), len(scs), err)
		}
	}
}

// TestConfigsPassPromtool runs promtool check config, from Prometheus
// 2.42 in CI. Debian builds promtool without Kubernetes discovery, so
// there a kubernetes_sd_configs block is swapped for a static target and
// the rest of the job is checked; the Go loader above checks the block.
func TestConfigsPassPromtool(t *testing.T) {
	promtool := testenv.Tool(t, "promtool")
	for _, p := range plainConfigs(t) {
		out, err := exec.Command(promtool, "check", "config", p).CombinedOutput()
		if err != nil && bytes.Contains(out, []byte("field kubernetes_sd_configs not found")) {
			t.Logf("%s: this promtool has no Kubernetes discovery; checking the job with a static target", filepath.Base(p))
			out, err = exec.Command(promtool, "check", "config", withoutKubernetesSD(t, p)).CombinedOutput()
		}
		if _, exit := errors.AsType[*exec.ExitError](err); err != nil && !exit {
			t.Fatalf("running promtool: %v", err)
		}
		if err != nil {
			t.Errorf("%s:\n%s", filepath.Base(p), out)
		}
	}
}

// kubernetesSD is whether this test binary registered Kubernetes
// discovery with Prometheus's config loader (go test -tags kubernetes).
var kubernetesSD bool

func usesKubernetesSD(t *testing.T, path string) bool {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Contains(data, []byte("kubernetes_sd_configs:"))
}

func withoutKubernetesSD(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var c Config
	if err := yaml.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	for i := range c.ScrapeConfigs {
		if c.ScrapeConfigs[i].KubernetesSDConfigs != nil {
			c.ScrapeConfigs[i].KubernetesSDConfigs = nil
			c.ScrapeConfigs[i].StaticConfigs = []StaticConfig{{Targets: []string{"localhost:9400"}}}
		}
	}
	out, err := MarshalConfig(c)
	if err != nil {
		t.Fatal(err)
	}
	p := strings.TrimSuffix(path, ".yaml") + "-static.yaml"
	if err := os.WriteFile(p, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestValidatorsRejectABrokenJob makes sure both checks above can fail: a
// job with a regular expression that does not compile.
func TestValidatorsRejectABrokenJob(t *testing.T) {
	broken := Config{ScrapeConfigs: []ScrapeConfig{{JobName: "x", MetricsPath: "/metrics", Scheme: "http",
		StaticConfigs:  []StaticConfig{{Targets: []string{"localhost:9400"}}},
		RelabelConfigs: []RelabelConfig{{SourceLabels: []string{"a"}, Regex: "(", Action: "keep"}}}}}
	data, err := MarshalConfig(broken)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "broken.yaml")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := config.LoadFile(p, false, promslog.NewNopLogger()); err == nil {
		t.Error("Prometheus's loader accepted a broken regex")
	}
	if out, err := exec.Command(testenv.Tool(t, "promtool"), "check", "config", p).CombinedOutput(); err == nil {
		t.Errorf("promtool accepted a broken regex:\n%s", out)
	}
}
