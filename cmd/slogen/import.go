package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/slogen-dev/slogen/internal/importer"
	"github.com/slogen-dev/slogen/internal/importer/openslo"
	"github.com/slogen-dev/slogen/internal/importer/recognise"
	"github.com/slogen-dev/slogen/internal/importer/sloth"
)

func newImport() *cobra.Command {
	var out string
	cmd := &cobra.Command{
		Use:   "import [--out FILE] FILE_OR_DIR...",
		Short: "Write Sloth or OpenSLO SLOs as one slogen spec, reporting what changed",
		Long: `Import reads Sloth's SLO specs (version: "prometheus/v1"), Kubernetes
PrometheusServiceLevel resources (apiVersion: sloth.slok.dev/v1) and OpenSLO v1
objects (apiVersion: openslo/v1: SLO, SLI, DataSource, AlertPolicy,
AlertCondition, AlertNotificationTarget, Service), several documents to a file
allowed, a directory read for its .yaml and .yml files. A file's format is
told by its first document's apiVersion (openslo/... is OpenSLO).

It writes them as one commented CUE spec: each service a service with runtime
"custom", each SLO a ratio SLO with its queries, {{.window}} written as
$window; an SLO whose queries are a runtime's histogram over its count, or its
error ratio, becomes that runtime's kind (ttft, latency, availability...).

For each service and SLO it reports on stderr, with file and line, what maps
exactly, what changes (windows, alert tiers, names) and what cannot be
carried (plugins, calendar windows, time slices, annotations).

It writes to stdout (also with --out -), or to --out, which it never
overwrites. It exits 2 on
bad input, 1 when --out exists or cannot be written.`,
		Example: `  slogen import sloth/myservice.yml > specs/myservice.cue
  slogen import --out specs/imported.cue openslo/`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			services, err := readImports(args)
			if err != nil {
				return err
			}
			recognise.Services(services)
			importer.Scope(services)
			spec, err := importer.Spec(services)
			if err != nil {
				return fail(exitFailed, err)
			}
			importer.Report(cmd.ErrOrStderr(), services)
			if !slices.ContainsFunc(services, func(s importer.Service) bool { return !s.Empty() }) {
				return failf(exitBadSpec, "none of these SLOs can be carried (the report above says why); nothing was written")
			}
			if out == "" || out == "-" { // "-" is stdout, as for init
				_, err = cmd.OutOrStdout().Write(spec)
				return err
			}
			return writeNew(out, spec, "import writes only a new file; move it away or choose another --out")
		},
	}
	cmd.Flags().StringVar(&out, "out", "", "write the spec to this file, which must not exist; - is stdout")
	return cmd
}

// readImports reads and converts every file, reporting every problem of
// every file before it gives up.
func readImports(args []string) ([]importer.Service, error) {
	files, err := importFiles(args)
	if err != nil {
		return nil, fail(exitBadSpec, err)
	}
	var slothServices []sloth.Service
	var objects []openslo.Object
	var errs []error
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if openslo.Is(data) {
			o, err := openslo.Read(f, data)
			errs = append(errs, err)
			objects = append(objects, o...)
			continue
		}
		s, err := sloth.Read(f, data)
		errs = append(errs, err)
		slothServices = append(slothServices, s...)
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fail(exitBadSpec, fmt.Errorf("%w\nnothing was written", err))
	}
	var services []importer.Service
	if len(slothServices) > 0 {
		converted, err := sloth.Convert(slothServices)
		errs = append(errs, err)
		services = sloth.Imported(converted)
	}
	if len(objects) > 0 {
		converted, err := openslo.Convert(objects)
		errs = append(errs, err)
		services = append(services, converted...)
	}
	if err := errors.Join(append(errs, importer.Unique(services))...); err != nil {
		return nil, fail(exitBadSpec, fmt.Errorf("%w\nnothing was written", err))
	}
	return services, nil
}

// importFiles lists the files to read: each file argument, and each
// directory's .yaml and .yml files, in name order, subdirectories too.
func importFiles(args []string) ([]string, error) {
	var files []string
	for _, a := range args {
		info, err := os.Stat(a)
		if err != nil || !info.IsDir() {
			files = append(files, a)
			continue
		}
		err = filepath.WalkDir(a, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
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
