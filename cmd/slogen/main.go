// Command slogen compiles CUE service specs into Prometheus SLO rules,
// their unit tests, scrape configs and Grafana dashboards.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// Exit codes.
const (
	exitOK      = 0
	exitFailed  = 1 // a failed --check or test, or an I/O error
	exitBadSpec = 2 // the spec, or the command line, is wrong
)

// exitError carries an exit code through cobra.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func fail(code int, err error) error { return &exitError{code: code, err: err} }

// run executes one command line; it is main without os.Exit, for tests.
func run(args []string, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil && ee.err.Error() != "" {
			fmt.Fprintln(stderr, ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "slogen:", err)
	return exitBadSpec // cobra's own errors are command-line mistakes
}

func newRoot(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:           "slogen",
		Short:         "Compile inference-service SLO specs into Prometheus rules, tests, scrape configs and dashboards",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.AddCommand(newBuild(), newTest(), newVet(), newVersion(), newDiscover())
	return root
}
