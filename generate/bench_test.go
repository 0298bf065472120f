package generate_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/generate"
	"github.com/slogen-dev/slogen/generate/rules"
	"github.com/slogen-dev/slogen/internal/spec"
)

// fleet is a spec of n vLLM services with three SLOs each, the shape the
// issue benchmarks (and Sloth's generate takes about 4 s for at 1000).
func fleet(n int) []byte {
	var b strings.Builder
	b.WriteString("package slo\n\n")
	for i := range n {
		fmt.Fprintf(&b, `services: "svc-%04d": {
	team: "ml-platform"
	runtime: "vllm"
	model: "meta-llama/Llama-3.1-8B-Instruct"
	selector: {namespace: "inference", job: "vllm-%04d"}
	gpu: {product: "NVIDIA H100 80GB HBM3", count: 2}
	slos: {
		availability: {objective: 99.5}
		latency: {objective: 99, threshold: "2.5s"}
		ttft: {objective: 99, threshold: "1s"}
	}
}
`, i, i)
	}
	return []byte(b.String())
}

// BenchmarkBuild loads, validates and generates every file of n services,
// in memory: what slogen build does before it writes.
func BenchmarkBuild(b *testing.B) {
	for _, n := range []int{1, 100, 1000} {
		src := spec.Source{Name: "fleet.cue", Data: fleet(n)}
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, err := spec.LoadSources(src)
				if err != nil {
					b.Fatal(err)
				}
				if _, err := generate.Build(res.Spec); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBuildRules is the part of a build Sloth's generate does too:
// load the spec and write the SLO rule files (no tests, GPU alerts,
// dashboards or scrape configs).
func BenchmarkBuildRules(b *testing.B) {
	for _, n := range []int{1, 100, 1000} {
		src := spec.Source{Name: "fleet.cue", Data: fleet(n)}
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, err := spec.LoadSources(src)
				if err != nil {
					b.Fatal(err)
				}
				for _, svc := range res.Spec.Services {
					groups := rules.Build(svc)
					if errs := rules.Check(groups); len(errs) > 0 {
						b.Fatal(errs)
					}
					if _, err := rules.Marshal(rules.File{Groups: groups}); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
