package main

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/slogen-dev/slogen/internal/testenv"
)

// BenchmarkFleet times slogen build, build --check and vet on a fleet of
// services (three SLOs each, one CUE file) beside Sloth v0.16's generate
// of the same SLOs, each as the process a user runs, and reports its peak
// RSS. Sloth runs when it is on PATH (go install
// github.com/slok/sloth/cmd/sloth@v0.16.0) or named by $SLOTH.
func BenchmarkFleet(b *testing.B) {
	dir := b.TempDir()
	slogen := buildSlogen(b, dir)
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

// BenchmarkFleetAsTeamsRunIt measures, side by side in one run, the fleet
// of issue 22 as teams write it (testenv.TeamsFleet: ten teams, vLLM and
// SGLang, real model names, three tiers, four GPU products, each service
// its own namespace and job) at 100 and 1000 services: slogen build
// against Sloth v0.16's generate of the same SLOs (testenv.SlothTeamsFleet;
// Sloth as for BenchmarkFleet), each with its wall and CPU time, peak RSS,
// and the MB and files it wrote; then slogen test over the whole output,
// and build --check against it. All of it goes to the test's temporary
// directory, on the ordinary disk unless TMPDIR says otherwise. slogen
// test takes minutes, hence the -timeout:
//
//	go test ./cmd/slogen -run '^$' -bench 'FleetAsTeams/services=100$' -benchtime 1x -timeout 60m
func BenchmarkFleetAsTeamsRunIt(b *testing.B) {
	dir := b.TempDir()
	slogen := buildSlogen(b, dir)
	sloth := slothBinary()
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("services=%d", n), func(b *testing.B) {
			cue := writeFleet(b, dir, fmt.Sprintf("teams-%d.cue", n), testenv.TeamsFleet(n))
			yaml := writeFleet(b, dir, fmt.Sprintf("teams-sloth-%d.yaml", n), testenv.SlothTeamsFleet(n))
			out := filepath.Join(dir, fmt.Sprintf("teams-out-%d", n))
			var build time.Duration
			b.Run("slogen-build", func(b *testing.B) {
				build = timeProcess(b, slogen, "build", "--out", out, cue)
				reportWritten(b, out)
			})
			b.Run("sloth-generate", func(b *testing.B) {
				if sloth == "" {
					b.Skip("sloth is not on PATH and $SLOTH is not set")
				}
				generate := timeProcess(b, sloth, "generate", "--no-log", "-i", yaml, "-o", out+"-sloth.yaml")
				reportWritten(b, out+"-sloth.yaml")
				if build > 0 { // slogen-build ran
					b.ReportMetric(build.Seconds()/generate.Seconds(), "slogen/sloth")
				}
			})
			b.Run("slogen-test", func(b *testing.B) {
				timeProcess(b, slogen, "test", out)
			})
			b.Run("slogen-check", func(b *testing.B) {
				timeProcess(b, slogen, "build", "--check", "--out", out, cue)
			})
		})
	}
}

// buildSlogen builds the command into dir, to time it as the process a
// user runs.
func buildSlogen(b *testing.B, dir string) string {
	slogen := filepath.Join(dir, "slogen")
	if out, err := exec.Command("go", "build", "-o", slogen, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	return slogen
}

// reportWritten reports the bytes and files under path, a file or a
// directory.
func reportWritten(b *testing.B, path string) {
	var bytes, files int64
	err := filepath.WalkDir(path, func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		bytes += info.Size()
		files++
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(bytes)/1e6, "out-MB")
	b.ReportMetric(float64(files), "files")
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

// timeProcess runs the command once per iteration, reports the largest
// peak RSS any run had and the CPU time (user and system) of a run, which
// on a shared machine says more than the wall time, and returns the wall
// time of a run.
func timeProcess(b *testing.B, name string, args ...string) time.Duration {
	var peakKB int64
	var cpu time.Duration
	for b.Loop() {
		cmd := exec.Command(name, args...)
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%s: %v\n%s", name, err, out)
		}
		usage := cmd.ProcessState.SysUsage().(*syscall.Rusage)
		peakKB = max(peakKB, usage.Maxrss)
		cpu += cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()
	}
	b.ReportMetric(float64(peakKB)/1024, "peak-RSS-MB")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s")
	return b.Elapsed() / time.Duration(b.N)
}
