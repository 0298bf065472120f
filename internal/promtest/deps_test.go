package promtest

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// TestDependenciesStayLight guards the reason this package exists: it must
// not pull in the TSDB, the rules manager, promqltest or cloud SDKs.
func TestDependenciesStayLight(t *testing.T) {
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("go is not on PATH")
	}
	out, err := exec.Command(goBin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	forbidden := regexp.MustCompile(`(?i)aws|azure|cloud\.google|/tsdb$|/rules$|promqltest`)
	for _, pkg := range strings.Fields(string(out)) {
		if forbidden.MatchString(pkg) {
			t.Errorf("forbidden dependency %s", pkg)
		}
	}
}
