package main

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/slogen-dev/slogen/internal/promtest"
	"github.com/slogen-dev/slogen/internal/ruletemplate"
)

func newTest() *cobra.Command {
	return &cobra.Command{
		Use:   "test [PATH...]",
		Short: "Run promtool-format rule unit tests in-process, with Prometheus's engine",
		Long: `Test runs rule unit tests (promtool's test file format) without promtool:
each PATH is a test file, or a directory searched for *_test.yaml files.
The default PATH is generated/. In a fleet's output, where services whose
rule files differ only in their identity share one template's tests, it
first proves from the parsed rule files that each service is an instance
of its template (rule-templates.yaml). Output follows promtool's; it exits
1 if any test fails or any service is not an instance of its template, and
2 when a PATH does not exist or holds no test file.`,
		Example: `  slogen test
  slogen test examples/vllm/generated
  slogen test generated/chat-llama/rules_test.yaml`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				args = []string{"generated"}
			}
			files, err := testFiles(args)
			if err != nil {
				return fail(exitBadSpec, err)
			}
			if len(files) == 0 {
				return failf(exitBadSpec, "no *_test.yaml files under %s; run slogen build first", strings.Join(args, ", "))
			}
			notInstances := verifyTemplates(args)
			defer promtest.PaceGC()()
			failed, err := promtest.Run(cmd.Context(), cmd.OutOrStdout(), files...)
			switch {
			case err != nil:
				return fail(exitFailed, errors.Join(notInstances, err))
			case notInstances != nil && failed > 0:
				return failf(exitFailed, "%v\n%d of %d test file(s) failed", notInstances, failed, len(files))
			case notInstances != nil:
				return fail(exitFailed, notInstances)
			case failed > 0:
				return failf(exitFailed, "%d of %d test file(s) failed", failed, len(files))
			}
			return nil
		},
	}
}

// verifyTemplates proves, for each directory that is a fleet's output,
// that every service's rule files are an instance of the rule template
// whose tests run (ruletemplate.Verify).
func verifyTemplates(paths []string) error {
	var errs []error
	for _, p := range paths {
		if info, err := os.Stat(p); err == nil && info.IsDir() {
			errs = append(errs, ruletemplate.Verify(p))
		}
	}
	return errors.Join(errs...)
}

// testFiles expands directories into the *_test.yaml files below them,
// in lexical order.
func testFiles(paths []string) ([]string, error) {
	var files []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			files = append(files, p)
			continue
		}
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(path, "_test.yaml") {
				files = append(files, path)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	return files, nil
}
