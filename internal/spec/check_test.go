package spec

import (
	"runtime"
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/testenv"
)

// TestLoadIsTheSameOnAnyNumberOfCPUs loads fleets of several chunks on one
// CPU and on four, where other goroutines check most services in contexts
// of their own: the result, or the problems, must not show it. The valid
// fleet's services are the same data but for their selectors, so most are
// derived from one stand-in, three chunks of them; each fleet is loaded a
// second time with every service checked with CUE.
func TestLoadIsTheSameOnAnyNumberOfCPUs(t *testing.T) {
	fleet := string(testenv.Fleet(3 * chunkSize))
	broken := strings.Replace(fleet, `threshold: "2.5s"`, `threshold: "2.5x"`, 5)
	broken = strings.Replace(broken, "team:", "tema:", 70)
	for name, srcs := range map[string][]Source{
		"valid": {{Name: "fleet.cue", Data: []byte(fleet)}},
		"broken": {
			{Name: "fleet.cue", Data: []byte(broken)},
			{Name: "more.cue", Data: testenv.Fleet(3)}, // declares svc-0000 to svc-0002 again
		},
	} {
		t.Run(name, func(t *testing.T) {
			one := loadOn(t, 1, srcs, true)
			for _, sameData := range []bool{true, false} {
				if four := loadOn(t, 4, srcs, sameData); four != one {
					t.Errorf("on four CPUs, deriving %v:\n%s\non one:\n%s", sameData, four, one)
				}
			}
			if lines := strings.Count(one, "\n"); lines < 70 {
				t.Errorf("want every service or problem, got %d lines:\n%s", lines, one)
			}
		})
	}
}

// loadOn loads the sources on so many CPUs and prints the result, or the
// problems.
func loadOn(t *testing.T, cpus int, srcs []Source, sameData bool) string {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(cpus))
	return loadPrinted(t, srcs, sameData)
}

// A service may be a disjunction with a default; the field walk, which
// would see neither branch's fields, runs only on a service CUE finds
// wrong.
func TestServiceWrittenAsADisjunction(t *testing.T) {
	src := `package slo

_s: {selector: {namespace: "inference", job: "chat-a"}, slos: availability: objective: 99.5}
services: "chat-a": *(_s & {runtime: "vllm"}) | (_s & {runtime: "tgi"})
`
	res, err := LoadSources(Source{Name: "disjunction.cue", Data: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Spec.Services[0].Runtime; got != "vllm" {
		t.Errorf("runtime %q, want the default's vllm", got)
	}
}
