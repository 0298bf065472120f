package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"github.com/slogen-dev/slogen/internal/initspec"
	"github.com/slogen-dev/slogen/internal/promclient"
	"github.com/slogen-dev/slogen/internal/spec"
)

func newInit() *cobra.Command {
	var (
		server  string
		conn    promclient.Options
		timeout time.Duration
	)
	cmd := &cobra.Command{
		Use:   "init --prometheus URL FILE|-",
		Short: "Write a first spec from the inference services a Prometheus scrapes and their history",
		Long: `Init asks a Prometheus (or Mimir, Thanos) which inference services it
scrapes: the runtime of each scrape job, told by the metric families
slogen's runtime table reads; its namespace and models; the GPUs
dcgm-exporter reports behind its pods or hosts; and the le boundaries its
histograms really have. From the last 28 days of history (or what the
server keeps) it proposes, per SLO kind the runtime serves, an objective
the service met, rounded down, and a latency threshold on a real bucket
boundary, with the figures behind them as comments.

It writes one CUE spec to FILE, which must not exist, or to stdout for -,
after checking that the spec loads. It exits 2 on a bad command line, 1
when FILE exists or cannot be written, and 3 when Prometheus cannot be
reached, refuses the credentials, or holds no series of a runtime slogen
knows.`,
		Example: `  slogen init --prometheus http://prometheus:9090 specs/inference.cue
  slogen init --prometheus https://mimir.example.com/prometheus --bearer-token-file /run/token -`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			out := args[0]
			if _, err := os.Lstat(out); out != "-" && err == nil {
				return failf(exitFailed, "refusing to overwrite %s: init writes only a new file; move it away or choose another", out)
			}
			prom, err := conn.API(server)
			if err != nil {
				return fail(exitBadSpec, err)
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			now := time.Now()
			services, err := initspec.Propose(ctx, prom, initspec.Options{Now: now, Progress: cmd.ErrOrStderr()})
			if errors.Is(err, initspec.ErrNothingFound) {
				return failf(exitNoData, "Prometheus at %s: %w; is it scraping the inference servers, and are they up?", server, err)
			}
			if err != nil {
				return fail(exitNoData, promclient.Explain(server, err))
			}
			if !slices.ContainsFunc(services, initspec.Service.Proposed) {
				return failf(exitNoData, "Prometheus at %s: %d inference service(s) found, but their history holds no request to propose an SLO from", server, len(services))
			}
			data, err := initspec.Write(server, now, services)
			if err != nil {
				return fail(exitFailed, err)
			}
			if err := checkWritten(cmd, out, data); err != nil {
				return err
			}
			if out == "-" {
				_, err = cmd.OutOrStdout().Write(data)
				return err
			}
			if err := writeNew(out, data, "init writes only a new file; move it away or choose another"); err != nil {
				return err
			}
			fmt.Fprintf(cmd.ErrOrStderr(), "init: wrote %d service(s) to %s\n", countProposed(services), out)
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&server, "prometheus", "", "URL of the Prometheus (or Mimir, Thanos) HTTP API that scrapes the inference services")
	f.DurationVar(&timeout, "timeout", 5*time.Minute, "give up on Prometheus after this long, every query together")
	conn.AddFlags(f)
	_ = cmd.MarkFlagRequired("prometheus")
	return cmd
}

// checkWritten loads the spec init wrote, as build would, and prints its
// warnings; one that does not load is a bug and is not written.
func checkWritten(cmd *cobra.Command, out string, data []byte) error {
	name := filepath.Base(out)
	if out == "-" {
		name = "init.cue"
	}
	res, err := spec.LoadSources(spec.Source{Name: name, Data: data})
	if err != nil {
		return failf(exitFailed, "the spec init wrote would not load, so it was not written (a bug; please report it):\n%v\n%s", err, data)
	}
	for _, w := range res.Warnings {
		fmt.Fprintln(cmd.ErrOrStderr(), "warning:", w)
	}
	return nil
}

func countProposed(services []initspec.Service) int {
	n := 0
	for _, s := range services {
		if s.Proposed() {
			n++
		}
	}
	return n
}
