package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/slogen-dev/slogen/internal/budget"
	"github.com/slogen-dev/slogen/internal/promclient"
	"github.com/slogen-dev/slogen/internal/spec"
)

// exitNoData is budget's exit code when Prometheus cannot be reached or
// holds no recordings for an SLO.
const exitNoData = 3

func newBudget() *cobra.Command {
	var (
		server    string
		conn      promclient.Options
		format    string
		minLeft   float64
		timeout   time.Duration
		threshold bool
	)
	cmd := &cobra.Command{
		Use:   "budget --prometheus URL SPEC...",
		Short: "Print each SLO's error budget left, from a Prometheus running slogen's rules",
		Long: `Budget reads the recordings slogen's rules write and prints, per service and
SLO: the objective, the SLI over the period, the share of the error budget
left and how much of the period that figure covers (a Prometheus younger
than the period, or keeping less of it, counts what it has), where those
figures come from, and the burn rate over 1h, 6h and 1d.

Where the recordings cover less of the period than the raw series do (the
rules are younger than the history), the SLI, budget and coverage come from
the SLI's raw series over what Prometheus keeps, one query per SLO, and the
SOURCE column says "raw history" and how much of the period it holds.

With --min-remaining it exits 1 when an SLO has less budget left, so that a
deploy pipeline can hold a rollout. It exits 2 on a bad spec or command
line, and 3 when Prometheus cannot be reached or holds no recordings for an
SLO (were the rules deployed?). --min-remaining reads the budget shown.`,
		Example: `  slogen budget --prometheus http://prometheus:9090 specs/*.cue
  slogen budget --prometheus https://mimir.example.com/prometheus --bearer-token-file /run/token --min-remaining 0.1 specs/chat.cue
  slogen budget --prometheus http://localhost:9090 --format json specs/chat.cue`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			threshold = cmd.Flags().Changed("min-remaining")
			if format != "table" && format != "json" {
				return failf(exitBadSpec, "--format %q: use table or json", format)
			}
			if threshold && (minLeft < 0 || minLeft > 1) {
				return failf(exitBadSpec, "--min-remaining %v: give a share of the budget between 0 and 1, e.g. 0.1", minLeft)
			}
			res, err := spec.Load(args...)
			if err != nil {
				return specError(err)
			}
			prom, err := conn.API(server)
			if err != nil {
				return fail(exitBadSpec, err)
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			now := time.Now()
			slos, err := budget.Read(ctx, prom, res.Spec.Services, now, cmd.ErrOrStderr())
			if err != nil && !errors.Is(err, budget.ErrNoData) {
				return fail(exitNoData, promclient.Explain(server, err))
			}
			out := cmd.OutOrStdout()
			if format == "json" {
				if werr := budget.WriteJSON(out, server, now, slos); werr != nil {
					return fail(exitFailed, werr)
				}
			} else if werr := budget.WriteTable(out, slos); werr != nil {
				return fail(exitFailed, werr)
			}
			if err != nil {
				return fail(exitNoData, fmt.Errorf("Prometheus at %s: %w", server, err))
			}
			if low := budget.Below(slos, minLeft); threshold && len(low) > 0 {
				return failf(exitFailed, "%d SLO(s) have less than %s of their error budget left, first %s/%s", len(low), share(minLeft), low[0].Service, low[0].SLO+low[0].Group)
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&server, "prometheus", "", "URL of the Prometheus (or Mimir, Thanos) HTTP API that runs slogen's rules")
	f.StringVar(&format, "format", "table", "output: table or json")
	f.Float64Var(&minLeft, "min-remaining", 0, "exit 1 when an SLO has less than this share of its error budget left (0 to 1)")
	f.DurationVar(&timeout, "timeout", 30*time.Second, "give up on Prometheus after this long")
	conn.AddFlags(f)
	_ = cmd.MarkFlagRequired("prometheus")
	return cmd
}

func share(f float64) string { return fmt.Sprintf("%g%%", f*100) }
