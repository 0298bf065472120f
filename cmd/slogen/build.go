package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/slogen-dev/slogen/generate"
	"github.com/slogen-dev/slogen/spec"
)

func newBuild() *cobra.Command {
	var out string
	var check bool
	cmd := &cobra.Command{
		Use:   "build [flags] SPEC...",
		Short: "Generate every service's outputs from spec files (.cue, .yaml, .json)",
		Long: `Build validates the spec files and writes, for each service, its rule file,
the rule file's promtool tests and its other outputs under --out, replacing
what was there. Nothing is written unless everything succeeds.

With --check nothing is written: build lists every file under --out that
differs from what it would write, and exits 1 if any does.`,
		Example: `  slogen build examples/vllm/chat-llama.cue
  slogen build --out deploy/slo specs/*.cue
  slogen build --check --out deploy/slo specs/*.cue`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			files, err := load(cmd, args)
			if err != nil {
				return err
			}
			if check {
				return checkOutputs(cmd, out, files)
			}
			if err := generate.Write(out, files); err != nil {
				return fail(exitFailed, fmt.Errorf("slogen: writing %s: %w", out, err))
			}
			fmt.Fprintf(cmd.OutOrStdout(), "wrote %d files to %s\n", len(files), out)
			return nil
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "generated", "output directory; slogen owns it and replaces its contents")
	cmd.Flags().BoolVar(&check, "check", false, "write nothing; exit 1 listing the files that are stale")
	return cmd
}

// load reads and validates specs, prints their warnings and generates
// every file in memory.
func load(cmd *cobra.Command, args []string) (generate.Files, error) {
	res, err := spec.Load(args...)
	if err != nil {
		return nil, specError(err)
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(cmd.ErrOrStderr(), "warning:", w)
	}
	files, err := generate.Build(res.Spec)
	if err != nil {
		return nil, fail(exitFailed, fmt.Errorf("slogen: %w", err))
	}
	return files, nil
}

func specError(err error) error {
	var ds spec.Diagnostics
	if errors.As(err, &ds) {
		return fail(exitBadSpec, fmt.Errorf("%s\nslogen: %d problem(s) in the spec; nothing was written", ds, len(ds)))
	}
	return fail(exitBadSpec, err)
}

func checkOutputs(cmd *cobra.Command, out string, files generate.Files) error {
	diffs, err := generate.Diff(out, files)
	if err != nil {
		return fail(exitFailed, fmt.Errorf("slogen: %w", err))
	}
	if len(diffs) > 0 {
		return fail(exitFailed, fmt.Errorf("%s\nslogen: %d file(s) under %s are stale; run slogen build to update them",
			"  "+strings.Join(diffs, "\n  "), len(diffs), out))
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%d files under %s are up to date\n", len(files), out)
	return nil
}
