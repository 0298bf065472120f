package generate_test

import (
	"fmt"
	"testing"

	"github.com/slogen-dev/slogen/internal/generate"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/spec"
	"github.com/slogen-dev/slogen/internal/testenv"
)

// BenchmarkBuild loads, validates and generates every file of n services,
// handing each to an emit that keeps nothing; build streams the files to
// disk and build --check compares them with the disk's (BenchmarkFleet in
// cmd/slogen measures build).
func BenchmarkBuild(b *testing.B) {
	for _, n := range []int{1, 100, 1000} {
		src := spec.Source{Name: "fleet.cue", Data: testenv.Fleet(n)}
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, err := spec.LoadSources(src)
				if err != nil {
					b.Fatal(err)
				}
				if err := (generate.Options{}).Stream(res.Spec, func(string, []byte) error { return nil }); err != nil {
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
		src := spec.Source{Name: "fleet.cue", Data: testenv.Fleet(n)}
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				res, err := spec.LoadSources(src)
				if err != nil {
					b.Fatal(err)
				}
				for _, svc := range res.Spec.Services {
					if _, err := rules.Marshal(rules.File{Groups: rules.Build(svc)}); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
	}
}
