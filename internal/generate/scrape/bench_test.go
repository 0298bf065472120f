package scrape

import (
	"path"
	"testing"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/spec"
	"github.com/slogen-dev/slogen/internal/testenv"
)

// fleet loads the benchmark fleet of n services.
func fleet(b *testing.B, n int) []model.Service {
	b.Helper()
	res, err := spec.LoadSources(spec.Source{Name: "fleet.cue", Data: testenv.Fleet(n)})
	if err != nil {
		b.Fatal(err)
	}
	return res.Spec.Services
}

// BenchmarkPrometheus writes the prometheus.yml of 1000 services: a rule
// file and a scrape job for each, the jobs from their scrape.yaml.
func BenchmarkPrometheus(b *testing.B) {
	svcs := fleet(b, 1000)
	dcgm, err := DCGM(svcs)
	if err != nil {
		b.Fatal(err)
	}
	var ruleFiles []string
	var runtimeFiles [][]byte
	for _, svc := range svcs {
		ruleFiles = append(ruleFiles, path.Join(svc.Name, "rules.yaml"))
		_, data, err := Runtime(svc)
		if err != nil {
			b.Fatal(err)
		}
		runtimeFiles = append(runtimeFiles, data)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Prometheus(runtimeFiles, dcgm, ruleFiles); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkRuntime writes the scrape.yaml of each of 1000 services.
func BenchmarkRuntime(b *testing.B) {
	svcs := fleet(b, 1000)
	b.ReportAllocs()
	for b.Loop() {
		for _, svc := range svcs {
			if _, _, err := Runtime(svc); err != nil {
				b.Fatal(err)
			}
		}
	}
}
