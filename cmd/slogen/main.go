// Command slogen compiles CUE service specs into Prometheus SLO rules,
// their unit tests, scrape configs and Grafana dashboards.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

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

// exitError carries an exit code through cobra. It prints as detail, when
// there is one (a list of problems, as they are), then err with each line
// prefixed "slogen: ".
type exitError struct {
	code   int
	detail string
	err    error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// fail ends the command with code, printing err as slogen's message.
func fail(code int, err error) error { return &exitError{code: code, err: err} }

// failf is fail with a formatted message.
func failf(code int, format string, args ...any) error {
	return fail(code, fmt.Errorf(format, args...))
}

// failAfter ends the command with code, printing detail before err.
func failAfter(code int, detail string, err error) error {
	return &exitError{code: code, detail: detail, err: err}
}

// print writes the error the way every command ends: the detail, then
// each line of the message after "slogen: ".
func (e *exitError) print(w io.Writer) {
	if e.detail != "" {
		fmt.Fprintln(w, e.detail)
	}
	if e.err == nil || e.err.Error() == "" {
		return
	}
	for line := range strings.SplitSeq(e.err.Error(), "\n") {
		fmt.Fprintln(w, "slogen:", line)
	}
}

// run executes one command line; it is main without os.Exit, for tests.
func run(args []string, stdout, stderr io.Writer) int {
	root := newRoot(stdout, stderr)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if !errors.As(err, &ee) {
		ee = &exitError{code: exitBadSpec, err: err} // cobra's own errors are command-line mistakes
	}
	ee.print(stderr)
	return ee.code
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
	root.AddCommand(newBuild(), newTest(), newVet(), newBudget(), newBacktest(), newVersion(), newDiscover(), newImport(), newInit())
	return root
}
