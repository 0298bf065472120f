package main

import (
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/slogen-dev/slogen/generate"
	"github.com/slogen-dev/slogen/generate/runbooks"
	"github.com/slogen-dev/slogen/generate/target"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/outdir"
	"github.com/slogen-dev/slogen/internal/spec"
)

func newBuild() *cobra.Command {
	var out, templateDir, targetName, namespace, dashboardLabel string
	var check, force bool
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
other name is an error.`,
		Example: `  slogen build examples/vllm/chat-llama.cue
  slogen build --out deploy/slo specs/*.cue
  slogen build --check --out deploy/slo specs/*.cue
  slogen build --templates runbook-templates --out deploy/slo specs/*.cue`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			svcs, err := load(cmd, args)
			if err != nil {
				return err
			}
			gen, err := generateOptions(templateDir)
			if err != nil {
				return err
			}
			if !slices.Contains(target.Names, target.Name(targetName)) {
				return failf(exitBadSpec, "--target %q: use one of %v", targetName, target.Names)
			}
			gen.Target, gen.Namespace = target.Name(targetName), namespace
			if spanning := globalServices(svcs); gen.Target == target.Operator && namespace == "" && len(spanning) > 0 {
				return failf(exitBadSpec, "--target operator: %s span clusters (global), so their global ruler gets a PrometheusRule of its own, whose namespace no selector tells; give --namespace, the global ruler's namespace",
					strings.Join(spanning, ", "))
			}
			if name, _, ok := strings.Cut(dashboardLabel, "="); !ok || name == "" {
				return failf(exitBadSpec, "--dashboard-label %q: give name=value, e.g. %s", dashboardLabel, target.DefaultDashboardLabel)
			}
			gen.DashboardLabel = dashboardLabel
			if check {
				return checkOutputs(cmd, out, svcs, gen)
			}
			return write(cmd, out, svcs, gen, outdir.Options{Force: force, Inputs: args})
		},
	}
	cmd.Flags().StringVarP(&out, "out", "o", "generated", "output directory; slogen replaces it while it holds only files slogen wrote")
	cmd.Flags().BoolVar(&check, "check", false, "write nothing; exit 1 listing the files that are stale")
	cmd.Flags().BoolVar(&force, "force", false, "replace --out even when it holds files slogen did not write")
	cmd.Flags().StringVar(&templateDir, "templates", "", "directory of runbook templates that replace slogen's own of the same file name")
	cmd.Flags().StringVar(&targetName, "target", string(target.Prometheus), "where the rules run: prometheus (rule files), operator (PrometheusRules too), mimir or thanos (their ruler files too)")
	cmd.Flags().StringVar(&dashboardLabel, "dashboard-label", target.DefaultDashboardLabel, "with --target operator: the label name=value on the dashboard ConfigMap that Grafana's sidecar looks for")
	cmd.Flags().StringVar(&namespace, "namespace", "", "with --target operator: the PrometheusRules' namespace, instead of the selector's")
	return cmd
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
	// A build keeps little live, since each service's files are written as
	// soon as they are made: collecting half as often saves a fifth of its
	// CPU and keeps a 1000-service build's peak near 200 MB
	// (docs/benchmarks.md). GOGC still overrides.
	if os.Getenv("GOGC") == "" {
		defer debug.SetGCPercent(debug.SetGCPercent(200))
	}
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

func checkOutputs(cmd *cobra.Command, out string, svcs model.Spec, gen generate.Options) error {
	var generateErr error
	diffs, n, err := outdir.Diff(out, func(emit func(string, []byte) error) error {
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
		return failAfter(exitFailed, "  "+strings.Join(diffs, "\n  "),
			fmt.Errorf("%d file(s) under %s are stale; run slogen build to update them", len(diffs), out))
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
