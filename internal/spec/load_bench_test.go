package spec

import (
	"testing"

	"github.com/slogen-dev/slogen/internal/testenv"
)

// BenchmarkLoad loads the 1000-service fleet (testenv.Fleet).
func BenchmarkLoad(b *testing.B) {
	src := Source{Name: "fleet.cue", Data: testenv.Fleet(1000)}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := LoadSources(src); err != nil {
			b.Fatal(err)
		}
	}
}
