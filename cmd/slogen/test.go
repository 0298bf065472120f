package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/slogen-dev/slogen/internal/promtest"
)

func newTest() *cobra.Command {
	return &cobra.Command{
		Use:   "test [PATH...]",
		Short: "Run promtool-format rule unit tests in-process, with Prometheus's engine",
		Long: `Test runs rule unit tests (promtool's test file format) without promtool:
each PATH is a test file, or a directory searched for *_test.yaml files.
The default PATH is generated/. Output follows promtool's; it exits 1 if any
test fails, and 2 when a PATH does not exist or holds no test file.`,
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
			defer promtest.PaceGC()()
			failed, err := promtest.Run(cmd.Context(), cmd.OutOrStdout(), files...)
			switch {
			case err != nil:
				return fail(exitFailed, err)
			case failed > 0:
				return failf(exitFailed, "%d of %d test file(s) failed", failed, len(files))
			}
			return nil
		},
	}
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
