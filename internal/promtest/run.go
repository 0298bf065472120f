// Package promtest runs promtool-format rule unit tests (`promtool test
// rules`) in process, with Prometheus's own PromQL engine, so users without
// promtool get the same verdicts.
//
// It replaces the parts of promtool that would pull in the TSDB and the
// rules manager (and through them cloud SDKs) with small equivalents: an
// in-memory storage and a rule evaluator that follows rules/group.go,
// rules/recording.go and rules/alerting.go.
//
// Known differences from promtool 3:
//   - rule names are checked with Prometheus 2's legacy rules, so UTF-8
//     metric and label names are rejected as promtool 2 rejects them;
//   - native histograms, in input series or expected samples, are
//     reported as unsupported;
//   - groups run in file order (then group_eval_order), where promtool
//     takes them from a map in random order;
//   - promtool's --run, --diff, --debug, --junit and
//     --ignore-unknown-fields options have no equivalent.
package promtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"runtime/debug"
	"time"

	"github.com/slogen-dev/slogen/internal/parallel"
)

// PaceGC sets the garbage collector's pace for running rule tests, unless
// GOGC says otherwise, and returns what restores it: the engine allocates
// fast and keeps little, so collecting a quarter as often as Go's default
// (GOGC=400) saves some 40 % of the CPU.
func PaceGC() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(400)
	return func() { debug.SetGCPercent(old) }
}

// Run runs every test file and writes promtool-style results to w.
//
// failed counts the failures printed: mismatched alert or expression
// checks, rule evaluation errors and broken test groups (bad input series,
// missing alertname). err reports files that could not run at all
// (unreadable, bad YAML, bad rule file); they are printed as failed too,
// and the remaining files still run. A cancelled ctx stops the run.
//
// Files run in parallel, one per core, since each is independent; their
// output is printed in the order given.
func Run(ctx context.Context, w io.Writer, files ...string) (failed int, err error) {
	results := runAll(ctx, files)
	if cerr := ctx.Err(); cerr != nil {
		return 0, cerr
	}
	var errs []error
	for i, r := range results {
		fmt.Fprintln(w, "Unit Testing: ", files[i])
		w.Write(r.out.Bytes())
		failures := r.failures
		if r.err != nil {
			errs = append(errs, r.err)
			failures = []error{r.err}
		} else {
			failed += len(failures)
		}
		printResult(w, failures)
	}
	return failed, errors.Join(errs...)
}

// fileResult is one file's run: what it printed, and its verdict.
type fileResult struct {
	out      bytes.Buffer
	failures []error
	err      error
}

func runAll(ctx context.Context, files []string) []fileResult {
	results := make([]fileResult, len(files))
	parallel.Each(len(files), runtime.GOMAXPROCS(0), func(i int) {
		r := &results[i]
		r.failures, r.err = runFile(ctx, &r.out, files[i])
	})
	return results
}

func printResult(w io.Writer, failures []error) {
	if len(failures) == 0 {
		fmt.Fprint(w, "  SUCCESS\n\n")
		return
	}
	fmt.Fprintln(w, "  FAILED:")
	for _, e := range failures {
		fmt.Fprintf(w, "%s\n\n", e)
	}
	fmt.Fprintln(w)
}

// runFile runs one test file's groups in order and returns their failures;
// the error is for problems that stop the whole file.
func runFile(ctx context.Context, w io.Writer, path string) ([]error, error) {
	tf, err := readTestFile(path, w)
	if err != nil {
		return nil, err
	}
	order, err := evalOrder(tf.GroupEvalOrder)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	env := fileEnv{order: order, evalInterval: time.Duration(tf.EvaluationInterval), fuzzy: tf.FuzzyCompare}
	// promtool loads the rules inside each test group, so a file without
	// tests never reads them.
	if len(tf.Tests) > 0 {
		if env.rules, err = loadRuleFiles(tf.RuleFiles); err != nil {
			return nil, err
		}
	}
	var failures []error
	for i := range tf.Tests {
		failures = append(failures, tf.Tests[i].run(ctx, env)...)
	}
	return failures, nil
}
