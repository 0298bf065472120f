package promtest

import (
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRunVerdicts(t *testing.T) {
	tests := map[string]struct {
		file       string
		wantFailed int
		wantErr    string
		wantOut    []string
	}{
		"An alert pending at 14m and firing at 15m passes": {
			file:    "llm_alert_pass_test.yaml",
			wantOut: []string{"Unit Testing:  testdata/llm_alert_pass_test.yaml\n  SUCCESS\n"},
		},
		"Expecting the alert to fire while it is still pending fails": {
			file:       "llm_alert_fail_test.yaml",
			wantFailed: 1,
			wantOut: []string{
				"  FAILED:\n    name: fires too early,\n    alertname: LLMHighErrorRate, time: 13m, \n        exp:[\n",
				"Labels:{alertname=\"LLMHighErrorRate\", job=\"llm\", severity=\"page\"}",
				"\n        got:[]\n",
			},
		},
		"absent() on a recording fires as soon as its source goes stale": {
			file:    "heartbeat_stale_test.yaml",
			wantOut: []string{"  SUCCESS\n"},
		},
		"Matching expression samples pass": {
			file:    "expr_pass_test.yaml",
			wantOut: []string{"  SUCCESS\n"},
		},
		"A wrong expression value fails": {
			file:       "expr_fail_test.yaml",
			wantFailed: 1,
			wantOut: []string{
				"    expr: \"sum(llm_requests_total)\", time: 10m,\n        exp: {} 9.99E+02\n        got: {} 1E+03\n",
			},
		},
		"A rule file that does not parse stops the file with an error": {
			file:    "bad_rules_test.yaml",
			wantErr: "bad.yaml: 5:15: group \"bad\", rule 1, \"job:broken:rate5m\": could not parse expression",
			wantOut: []string{"  FAILED:\n"},
		},
		"Unknown fields in the test file are rejected": {
			file:    "unknown_field_test.yaml",
			wantErr: "field promql_expr_tests not found",
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			var out strings.Builder
			failed, err := Run(context.Background(), &out, filepath.Join("testdata", tc.file))
			if failed != tc.wantFailed {
				t.Errorf("failed = %d, want %d\n%s", failed, tc.wantFailed, out.String())
			}
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("unexpected error: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("error = %v, want it to contain %q", err, tc.wantErr)
			}
			for _, want := range tc.wantOut {
				if !strings.Contains(out.String(), want) {
					t.Errorf("output lacks %q:\n%s", want, out.String())
				}
			}
		})
	}
}

var update = flag.Bool("update", false, "rewrite the golden files in testdata/TestRunOutput")

// TestRunOutput pins the exact promtool-style output for every test file,
// so reviewers can read what users will see.
func TestRunOutput(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "*_test.yaml"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no test files: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".yaml")
		t.Run(name, func(t *testing.T) {
			var out strings.Builder
			_, _ = Run(context.Background(), &out, f)
			golden := filepath.Join("testdata", "TestRunOutput", name+".golden")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(out.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if out.String() != string(want) {
				t.Errorf("output differs from %s:\ngot:\n%s\nwant:\n%s", golden, out.String(), want)
			}
		})
	}
}

func TestRunGoesOnAfterABrokenFile(t *testing.T) {
	var out strings.Builder
	failed, err := Run(context.Background(), &out,
		filepath.Join("testdata", "bad_rules_test.yaml"),
		filepath.Join("testdata", "missing_test.yaml"),
		filepath.Join("testdata", "expr_fail_test.yaml"))
	if failed != 1 {
		t.Errorf("failed = %d, want 1", failed)
	}
	if err == nil || !strings.Contains(err.Error(), "bad.yaml") || !strings.Contains(err.Error(), "missing_test.yaml") {
		t.Errorf("error = %v, want both broken files named", err)
	}
	if got := strings.Count(out.String(), "Unit Testing: "); got != 3 {
		t.Errorf("%d files reported, want 3:\n%s", got, out.String())
	}
}

func TestRunStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := Run(ctx, io.Discard, filepath.Join("testdata", "expr_pass_test.yaml"))
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error = %v, want context.Canceled", err)
	}
}
