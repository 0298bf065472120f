package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/slogen-dev/slogen/internal/testenv"
)

// BenchmarkFleet times slogen build, build --check and vet on a fleet of
// services (three SLOs each, one CUE file) beside Sloth v0.16's generate
// of the same SLOs, each as the process a user runs, and reports its peak
// RSS. Sloth runs when it is on PATH (go install
// github.com/slok/sloth/cmd/sloth@v0.16.0) or named by $SLOTH.
func BenchmarkFleet(b *testing.B) {
	dir := b.TempDir()
	slogen := filepath.Join(dir, "slogen")
	if out, err := exec.Command("go", "build", "-o", slogen, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	sloth := slothBinary()
	for _, n := range []int{100, 1000} {
		cue := writeFleet(b, dir, fmt.Sprintf("fleet-%d.cue", n), testenv.Fleet(n))
		yaml := writeFleet(b, dir, fmt.Sprintf("sloth-%d.yaml", n), testenv.SlothFleet(n))
		out := filepath.Join(dir, fmt.Sprintf("out-%d", n))
		b.Run(fmt.Sprintf("slogen-build/services=%d", n), func(b *testing.B) {
			timeProcess(b, slogen, "build", "--out", out, cue)
		})
		b.Run(fmt.Sprintf("slogen-check/services=%d", n), func(b *testing.B) {
			timeProcess(b, slogen, "build", "--check", "--out", out, cue) // against what build wrote
		})
		b.Run(fmt.Sprintf("slogen-vet/services=%d", n), func(b *testing.B) {
			timeProcess(b, slogen, "vet", cue)
		})
		b.Run(fmt.Sprintf("sloth-generate/services=%d", n), func(b *testing.B) {
			if sloth == "" {
				b.Skip("sloth is not on PATH and $SLOTH is not set")
			}
			timeProcess(b, sloth, "generate", "--no-log", "-i", yaml, "-o", out+"-sloth.yaml")
		})
	}
}

func slothBinary() string {
	if p := os.Getenv("SLOTH"); p != "" {
		return p
	}
	p, _ := exec.LookPath("sloth")
	return p
}

func writeFleet(b *testing.B, dir, name string, data []byte) string {
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		b.Fatal(err)
	}
	return p
}

// timeProcess runs the command once per iteration and reports the
// largest peak RSS any run had.
func timeProcess(b *testing.B, name string, args ...string) {
	var peakKB int64
	for b.Loop() {
		cmd := exec.Command(name, args...)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s: %v\n%s", name, err, out)
		}
		peakKB = max(peakKB, cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss)
	}
	b.ReportMetric(float64(peakKB)/1024, "peak-RSS-MB")
}
