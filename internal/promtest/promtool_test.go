package promtest

import (
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestVerdictsMatchPromtool runs every testdata file through `promtool test
// rules` too and requires the same pass/fail verdict. The files set
// `interval:` explicitly because promtool 2.42 spaces input samples 0s apart
// when it is missing, and they avoid queries whose results changed when
// range selectors became left-open in Prometheus 3.
func TestVerdictsMatchPromtool(t *testing.T) {
	promtool, err := exec.LookPath("promtool")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("promtool is not on PATH; CI must install it")
		}
		t.Skip("promtool is not on PATH")
	}
	files, err := filepath.Glob(filepath.Join("testdata", "*_test.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			cmd := exec.Command(promtool, "test", "rules", filepath.Base(f))
			cmd.Dir = "testdata"
			out, err := cmd.CombinedOutput()
			if _, ok := errors.AsType[*exec.ExitError](err); err != nil && !ok {
				t.Fatalf("running promtool: %v", err)
			}
			promtoolPass := err == nil

			failed, err := Run(context.Background(), io.Discard, f)
			if pass := failed == 0 && err == nil; pass != promtoolPass {
				t.Errorf("promtest pass = %v (failed %d, err %v), promtool pass = %v:\n%s",
					pass, failed, err, promtoolPass, out)
			}
		})
	}
}
