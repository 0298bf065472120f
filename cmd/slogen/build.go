package main

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/slogen-dev/slogen/internal/generate"
	"github.com/slogen-dev/slogen/internal/generate/runbooks"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/outdir"
	"github.com/slogen-dev/slogen/internal/spec"
)

func newBuild() *cobra.Command {
	var out, templateDir string
	var check, force bool
	var tf targetFlags
	cmd := &cobra.Command{
		Use:   "build [flags] SPEC...",
		Short: "Generate every service's outputs from spec files (.cue, .yaml, .json)",
		Long: `Build validates the spec files and writes, for each service, its rule file,
the rule file's promtool tests and its other outputs under --out, replacing
what slogen wrote there before. Nothing is written unless everything
succeeds.

slogen owns --out only while it is missing, empty, or holds nothing but the
files listed in its .slogen-manifest. Otherwise build refuses (exit 1),
naming the first file it did not write; --force replaces the directory
anyway. Even --force never replaces a directory that holds a spec being
read, a git repository, the root, your home or the working directory.

With --check nothing is written: build lists every file under --out that
differs from what it would write, and exits 1 if any does. It refuses what
build would refuse.

Each service's runbook.md is rendered from templates built into slogen, one
per alert (kvcachehigh.md.tmpl) plus the page's head (page.md.tmpl) and the
rule block the sections share (rule.md.tmpl). With --templates DIR, each
file in DIR replaces the built-in template of the same name; a file of any
other name is an error.

--target operator writes PrometheusRules, PodMonitors or ServiceMonitors
(unless the spec sets scrape.mode) and dashboard ConfigMaps. It refuses
(exit 2) PrometheusRules without labels, which kube-prometheus-stack's
Prometheus never loads: give its ruleSelector's with --operator-label (or
the spec's operator.labels), or say it selects every rule with
--select-all (operator.select_all).`,
		Example: `  slogen build examples/vllm/chat-llama.cue
  slogen build --out deploy/slo specs/*.cue
  slogen build --check --out deploy/slo specs/*.cue
  slogen build --templates runbook-templates --out deploy/slo specs/*.cue
  slogen build --target operator --operator-label release=kube-prometheus-stack --out deploy/slo specs/*.cue`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			defer collectLessOften()()
			svcs, err := load(cmd, args)
			if err != nil {
				return err
			}
			templates, err := generateOptions(templateDir)
			if err != nil {
				return err
			}
			gen, _, err := tf.options(svcs) // Stream resolves the spec for the target itself
			if err != nil {
				return nothingWritten(err)
			}
			gen.Runbooks = templates.Runbooks
			if check {
				return checkOutputs(cmd, out, svcs, gen, args)
			}
			return write(cmd, out, svcs, gen, outdir.Options{Force: force, Inputs: args})
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "generated", "output directory; slogen replaces it while it holds only files slogen wrote")
	cmd.Flags().BoolVar(&check, "check", false, "write nothing; exit 1 listing the files that are stale")
	cmd.Flags().BoolVar(&force, "force", false, "replace --out even when it holds files slogen did not write")
	cmd.Flags().StringVar(&templateDir, "templates", "", "directory of runbook templates that replace slogen's own of the same file name")
	tf.register(cmd)
	return cmd
}

// nothingWritten says so after a refusal's message.
func nothingWritten(err error) error {
	var ee *exitError
	if errors.As(err, &ee) {
		return &exitError{code: ee.code, detail: ee.detail, err: fmt.Errorf("%w\nnothing was written", ee.err)}
	}
	return err
}

// generateOptions reads the runbook templates that --templates names.
func generateOptions(dir string) (generate.Options, error) {
	if dir == "" {
		return generate.Options{}, nil
	}
	rb, err := runbooks.Override(dir)
	if err != nil {
		return generate.Options{}, fail(exitBadSpec, fmt.Errorf("--templates: %w\nnothing was written", err))
	}
	return generate.Options{Runbooks: rb}, nil
}

// collectLessOften halves how often the build collects garbage, from the
// spec's loading on, and returns what restores the setting. A build keeps
// little live, since each service's files are written as soon as they
// are made: collecting half as often saves a fifth of its CPU and keeps a
// 1000-service build's peak near 200 MB (docs/benchmarks.md). The CUE
// values of a loaded spec are garbage once decoded: for the teams fleet
// of 1000 services, loading collected ten times at Go's default and five
// at this setting, with the same peak. GOGC still overrides.
func collectLessOften() (restore func()) {
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(200)
	return func() { debug.SetGCPercent(old) }
}

// load reads and validates specs and prints their warnings.
func load(cmd *cobra.Command, args []string) (model.Spec, error) {
	res, err := spec.Load(args...)
	if err != nil {
		return model.Spec{}, buildSpecError(err)
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(cmd.ErrOrStderr(), "warning:", w)
	}
	return res.Spec, nil
}

// write generates every file straight into --out's replacement, so that
// a fleet's output never has to fit in memory at once.
func write(cmd *cobra.Command, out string, svcs model.Spec, gen generate.Options, opt outdir.Options) error {
	var generateErr error
	n, err := outdir.Stream(out, opt, func(emit func(string, []byte) error) error {
		generateErr = gen.Stream(svcs, emit)
		return generateErr
	})
	switch {
	case err != nil && err == generateErr:
		return fail(exitFailed, fmt.Errorf("%w\nnothing was written", err))
	case err != nil:
		return writeError(out, err)
	}
	fmt.Fprintf(cmd.OutOrStdout(), "wrote %d files and their manifest (%s) to %s\n", n, outdir.Manifest, out)
	return nil
}

// specError reports a spec that did not load, for the commands that write
// nothing; buildSpecError says that build wrote nothing either.
func specError(err error) error { return specErrorSaying(err, "") }

func buildSpecError(err error) error { return specErrorSaying(err, "; nothing was written") }

func specErrorSaying(err error, written string) error {
	var ds spec.Diagnostics
	if errors.As(err, &ds) {
		return failAfter(exitBadSpec, ds.Error(), fmt.Errorf("%d problem(s) in the spec%s", len(ds), written))
	}
	return fail(exitBadSpec, err)
}

// writeError reports a refused or failed write. Only a refusal is sure to
// have written nothing; a failed write says what it left where.
func writeError(out string, err error) error {
	var refused *outdir.RefusedError
	if errors.As(err, &refused) {
		return fail(exitFailed, fmt.Errorf("%w\nnothing was written", err))
	}
	return failf(exitFailed, "%s: %w", out, err)
}

func checkOutputs(cmd *cobra.Command, out string, svcs model.Spec, gen generate.Options, inputs []string) error {
	var generateErr error
	diffs, n, err := outdir.Diff(out, outdir.Options{Inputs: inputs}, func(emit func(string, []byte) error) error {
		generateErr = gen.Stream(svcs, emit)
		return generateErr
	})
	switch {
	case err != nil && err == generateErr:
		return fail(exitFailed, err)
	case err != nil:
		return writeError(out, err)
	}
	if len(diffs) > 0 {
		fix := "run slogen build to update them"
		if slices.ContainsFunc(diffs, func(d string) bool { return strings.HasSuffix(d, outdir.NotGenerated) }) {
			fix += "; build replaces the directory only once the files slogen did not generate are moved away, or with --force"
		}
		return failAfter(exitFailed, "  "+strings.Join(diffs, "\n  "),
			fmt.Errorf("%d file(s) under %s are stale; %s", len(diffs), out, fix))
	}
	fmt.Fprintf(cmd.OutOrStdout(), "%d files and their manifest (%s) under %s are up to date\n", n, outdir.Manifest, out)
	return nil
}

// globalServices names the services that span clusters.
func globalServices(spec model.Spec) []string {
	var out []string
	for _, svc := range spec.Services {
		if svc.Global != nil {
			out = append(out, svc.Name)
		}
	}
	return out
}
