package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"

	"github.com/spf13/cobra"

	"github.com/slogen-dev/slogen/internal/importer/sloth"
)

func newImport() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "import [--out FILE] SLOTH_FILE...",
		Short: "Write Sloth SLO specs as one slogen spec, reporting what changed",
		Long: `Import reads Sloth's SLO specs (version: "prometheus/v1") and Kubernetes
PrometheusServiceLevel resources (apiVersion: sloth.slok.dev/v1), several
documents to a file allowed, and writes them as one commented CUE spec: each
Sloth service a service with runtime "custom", each SLO a ratio SLO with its
queries, {{.window}} written as $window.

For each service and SLO it reports on stderr, with file and line, what maps
exactly, what changes (alert names, tiers, labels) and what cannot be carried
(plugins, per-tier labels, annotations).

It writes to stdout, or to --out, which it never overwrites. It exits 2 on
bad input, 1 when --out exists or cannot be written.`,
		Example: `  slogen import sloth/myservice.yml > specs/myservice.cue
  slogen import --out specs/imported.cue sloth/*.yml`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, files []string) error {
			services, err := readSloth(files)
			if err != nil {
				return err
			}
			spec, err := sloth.Spec(services)
			if err != nil {
				return fail(exitFailed, err)
			}
			sloth.Report(cmd.ErrOrStderr(), services)
			if !slices.ContainsFunc(services, func(s sloth.Converted) bool { return !s.Empty() }) {
				return failf(exitBadSpec, "none of these SLOs can be carried (the report above says why); nothing was written")
			}
			if out == "" {
				_, err = cmd.OutOrStdout().Write(spec)
				return err
			}
			return writeNew(out, spec, "import writes only a new file; move it away or choose another --out")
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "write the spec to this file, which must not exist")
	return cmd
}

// readSloth reads and converts every file, reporting every problem of
// every file before it gives up.
func readSloth(files []string) ([]sloth.Converted, error) {
	var all []sloth.Service
	var errs []error
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		services, err := sloth.Read(f, data)
		errs = append(errs, err)
		all = append(all, services...)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fail(exitBadSpec, fmt.Errorf("%w\nnothing was written", err))
	}
	converted, err := sloth.Convert(all)
	if err != nil {
		return nil, fail(exitBadSpec, fmt.Errorf("%w\nnothing was written", err))
	}
	return converted, nil
}

// writeNew writes a file that must not exist yet; hint says what to do
// when it does.
func writeNew(path string, data []byte, hint string) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if errors.Is(err, fs.ErrExist) {
		return failf(exitFailed, "refusing to overwrite %s: %s", path, hint)
	}
	if err != nil {
		return fail(exitFailed, err)
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fail(exitFailed, err)
	}
	if err := f.Close(); err != nil {
		return fail(exitFailed, err)
	}
	return nil
}
