// Package testenv is what tests and benchmarks share: the external tools
// some tests need, and the fleet slogen's speed is measured on. On a
// developer machine a missing tool skips the test; in CI (CI is set) it
// fails it, so that a broken install step cannot pass as green.
package testenv

import (
	"os"
	"os/exec"
	"testing"

	"github.com/slogen-dev/slogen/internal/promtest"
)

// Tool returns the path of a binary on PATH, or skips (fails under CI).
func Tool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err == nil {
		return p
	}
	if os.Getenv("CI") != "" {
		t.Fatalf("%s is not on PATH, and CI is set: .ci/run must install it (apt-get install -y prometheus prometheus-alertmanager)", name)
	}
	t.Skipf("%s is not on PATH; install Debian's prometheus and prometheus-alertmanager packages to run this test", name)
	return ""
}

// CrossCheck skips a test that runs again under Debian's promtool 2.42
// what the in-process engine (internal/promtest) already proved in the
// everyday go test ./..., unless SLOGEN_CROSSCHECK is set, as .ci/run sets
// it: CI runs both, and the everyday loop stays within its minutes.
func CrossCheck(t testing.TB) {
	t.Helper()
	if os.Getenv("SLOGEN_CROSSCHECK") == "" {
		t.Skip("runs in .ci/run; set SLOGEN_CROSSCHECK=1 to run it here")
	}
}

// Main runs a package's tests with the garbage collector at the pace
// slogen test runs rule tests at (promtest.PaceGC).
func Main(m *testing.M) {
	promtest.PaceGC()
	os.Exit(m.Run())
}
