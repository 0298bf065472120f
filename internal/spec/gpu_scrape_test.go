package spec

import (
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/model"
)

// load loads one vllm service with extra fields, failing on errors.
func load(t *testing.T, extra string) (model.Service, string, error) {
	t.Helper()
	src := "services: s: {\nruntime: \"vllm\"\nselector: {namespace: \"ns\", job: \"j\", cluster: \"c\"}\nslos: availability: objective: 99\n" + extra + "\n}\n"
	res, err := LoadSources(Source{Name: "s.cue", Data: []byte(src)})
	if err != nil {
		return model.Service{}, "", err
	}
	return res.Spec.Services[0], res.Warnings.Error(), nil
}

func TestGPUCatalog(t *testing.T) {
	tests := map[string]struct {
		gpu                   string
		wantMiB               int
		wantProduct, wantWarn string
		wantErr               string
	}{
		"A known product gets its memory from the catalog.":              {`gpu: product: "NVIDIA H100 80GB HBM3"`, 81559, "NVIDIA H100 80GB HBM3", "", ""},
		"A node label spelling finds the product and is normalised.":     {`gpu: product: "NVIDIA-L40S"`, 46068, "NVIDIA L40S", "", ""},
		"An unknown product with its memory is accepted with a warning.": {`gpu: {product: "NVIDIA H200 141GB HBM3e", memory_mib: 144384}`, 144384, "NVIDIA H200 141GB HBM3e", "not in slogen's GPU catalog", ""},
		"An unknown product without memory is an error naming others.":   {`gpu: product: "NVIDIA H100"`, 0, "", "", "nearest: NVIDIA H100 NVL, NVIDIA H100 PCIe, NVIDIA H100 80GB HBM3"},
		"More memory than the product has is a warning.":                 {`gpu: {product: "NVIDIA L4", memory_mib: 90000}`, 90000, "NVIDIA L4", "more than a NVIDIA L4 has", ""},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			svc, warns, err := load(t, tc.gpu)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v; want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if svc.GPU.MemoryMiB != tc.wantMiB || svc.GPU.Product != tc.wantProduct {
				t.Errorf("gpu = %+v", svc.GPU)
			}
			if tc.wantWarn != "" && !strings.Contains(warns, tc.wantWarn) {
				t.Errorf("warnings %q; want %q", warns, tc.wantWarn)
			}
		})
	}
}

// vLLM claims about 90 % of every GPU at start: the VRAM threshold
// defaults above that, and a spec that sets it below is warned.
func TestVLLMPreallocationWarns(t *testing.T) {
	svc, warns, err := load(t, "")
	if err != nil || warns != "" || svc.Thresholds.VRAMPercent != 95 {
		t.Fatalf("default: vram_percent %v, warnings %q, err %v; want 95 and none", svc.Thresholds.VRAMPercent, warns, err)
	}
	if _, warns, _ := load(t, "thresholds: vram_percent: 90"); !strings.Contains(warns, "--gpu-memory-utilization") {
		t.Errorf("no warning at 90%%: %q", warns)
	}
	if _, warns, _ := load(t, "thresholds: vram_percent: 97"); strings.Contains(warns, "vram_percent") {
		t.Errorf("warned at 97%%: %s", warns)
	}
	res, err := LoadSources(Source{Name: "t.cue", Data: []byte(`services: t: {runtime: "tgi", slos: availability: objective: 99}`)})
	if err != nil || res.Spec.Services[0].Thresholds.VRAMPercent != 90 {
		t.Errorf("tgi's default: %v, %v; want 90", res.Spec.Services[0].Thresholds.VRAMPercent, err)
	}
}

func TestScrapeDefaults(t *testing.T) {
	svc, _, err := load(t, "")
	if err != nil {
		t.Fatal(err)
	}
	s := svc.Scrape
	if s.Mode != model.ScrapeKubernetes || s.Runtime.Job != "j" || s.Runtime.Port != 8000 || s.Runtime.Path != "/metrics" ||
		s.Runtime.Namespace != "ns" || s.Runtime.PodName != "s-.*" || len(s.Runtime.Labels) != 1 || s.Runtime.Labels[0].Name != "cluster" {
		t.Errorf("runtime endpoint %+v", s.Runtime)
	}
	if s.DCGM.Job != "dcgm-exporter" || s.DCGM.Port != 9400 || s.DCGM.HonorLabels || len(s.DCGM.MatchLabels) != 1 {
		t.Errorf("dcgm endpoint %+v", s.DCGM)
	}
}

func TestScrapeErrors(t *testing.T) {
	tests := map[string]struct{ scrape, want string }{
		"Static mode needs the runtime's targets.":      {`scrape: mode: "static"`, "needs the runtime's targets"},
		"Static targets lose the pod mapping's labels.": {`scrape: {mode: "static", runtime: targets: ["a:8000"], dcgm: targets: ["a:9400"]}`, "set dcgm.honor_labels: true"},
		"Targets belong to static mode.":                {`scrape: runtime: targets: ["a:8000"]`, `targets apply to mode "static"`},
		"A target is host:port.":                        {`scrape: {mode: "static", runtime: targets: ["a"], dcgm: targets: ["a:9400"]}, dcgm: honor_labels: true`, `"a" is not host:port`},
		"Scrape configs read files, not Secrets.":       {`scrape: {mode: "kubernetes", runtime: authorization: secret: {name: "x", key: "t"}}`, "replace secret with credentials_file"},
		"Credentials come from a file or a Secret.":     {`scrape: runtime: authorization: {credentials_file: "/t", secret: {name: "x", key: "t"}}`, "not both"},
		"Monitors read Secrets, not files.":             {`scrape: {mode: "operator", runtime: authorization: credentials_file: "/t"}`, "replace credentials_file with secret"},
		"Credentials must come from somewhere.":         {`scrape: runtime: basic_auth: username: "u"`, "set password_file"},
		"There is no inline password.":                  {`scrape: runtime: basic_auth: {username: "u", password: "p"}`, `unknown field "password"`},
		"Basic auth is not an authorization type.":      {`scrape: runtime: authorization: {type: "Basic", credentials_file: "/p"}`, "use basic_auth"},
		"A ServiceMonitor needs Service labels.":        {`scrape: {mode: "operator", runtime: monitor: "service"}`, "set scrape.runtime.match_labels"},
		"A monitor kind belongs to operator mode.":      {`scrape: {mode: "kubernetes", runtime: monitor: "service"}`, `monitor applies to mode "operator"`},
		"The scrape namespace must be the selector's.":  {`scrape: runtime: namespace: "other"`, `differs from selector.namespace "ns"`},
		"A timeout above the interval is rejected.":     {`scrape: {interval: "10s", timeout: "15s"}`, "at most 10s"},
		"Match labels are Kubernetes label keys.":       {`scrape: runtime: match_labels: "bad key": "x"`, "not a Kubernetes label key"},
		"A client certificate needs its key.":           {`scrape: runtime: tls: cert_file: "/c"`, "needs its key"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, _, err := load(t, tc.scrape)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v; want %q", err, tc.want)
			}
		})
	}
}
