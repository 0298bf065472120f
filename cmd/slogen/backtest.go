package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	promodel "github.com/prometheus/common/model"
	"github.com/spf13/cobra"

	"github.com/slogen-dev/slogen/internal/backtest"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/outdir"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/promclient"
	"github.com/slogen-dev/slogen/internal/spec"
)

func newBacktest() *cobra.Command {
	var (
		server, fromFlag, toFlag, format, plot string
		gpu                                    bool
		every, timeout                         time.Duration
		conn                                   promclient.Options
	)
	cmd := &cobra.Command{
		Use:   "backtest --prometheus URL [--from 7d] SPEC...",
		Short: "Show what the SLO rules would have alerted on, over a Prometheus's recent history",
		Long: `Backtest fetches from a Prometheus the raw series each service's SLO rules
(and with --gpu its GPU and serving alerts) read (only those, over the window and the 3 days before it that the longest
alert window needs), evaluates the generated rule groups over them in
process, each group at its interval, and prints every alert that would
have fired: name, labels, when it fired and resolved, and for how long;
then per SLO the pages and tickets it would have raised and the share of
its error budget the window spent.

It exits 2 on a bad spec or command line, 3 when Prometheus cannot be
reached, refuses, or holds none of the series the rules read.`,
		Example: `  slogen backtest --prometheus http://prometheus:9090 --from 7d specs/chat.cue
  slogen backtest --prometheus http://prometheus:9090 --from 2026-11-20T00:00:00Z --to 2026-11-27T00:00:00Z --format json specs/*.cue`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			now := time.Now().UTC().Truncate(time.Minute)
			from, to, err := window(fromFlag, toFlag, now)
			if err != nil {
				return fail(exitBadSpec, err)
			}
			if format != "table" && format != "json" {
				return failf(exitBadSpec, "--format %q: use table or json", format)
			}
			if every <= 0 || rules.PeriodInterval%every != 0 {
				return failf(exitBadSpec, "--evaluation-interval %s: give your Prometheus's evaluation_interval, one that divides the period group's %s (15s, 30s, 1m, 2m)", every, rules.PeriodInterval)
			}
			res, err := spec.Load(args...)
			if err != nil {
				return specError(err)
			}
			plots := plotPaths(plot, res.Spec.Services)
			if err := writable(plots); err != nil {
				return fail(exitBadSpec, err)
			}
			prom, err := conn.API(server)
			if err != nil {
				return fail(exitBadSpec, err)
			}
			ctx, cancel := context.WithTimeout(cmd.Context(), timeout)
			defer cancel()
			b := backtester{api: prom, server: server, from: from, to: to, every: every, log: cmd.ErrOrStderr(), plot: plot != "", gpu: gpu}
			var results []backtest.Result
			for _, svc := range res.Spec.Services {
				r, err := b.run(ctx, svc)
				if err != nil {
					return err
				}
				results = append(results, r)
				if err := writePlots(plots, svc, r, cmd.ErrOrStderr()); err != nil {
					return fail(exitFailed, err)
				}
			}
			out := cmd.OutOrStdout()
			if format == "json" {
				return failIf(backtest.WriteJSON(out, server, res.Spec.Services, results))
			}
			for i, r := range results {
				if err := backtest.WriteTable(out, res.Spec.Services[i], r); err != nil {
					return fail(exitFailed, err)
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.StringVar(&server, "prometheus", "", "URL of the Prometheus (or Mimir, Thanos) HTTP API holding the history")
	f.StringVar(&fromFlag, "from", "7d", "start of the window: a duration back from now (7d, 36h) or an RFC 3339 time")
	f.StringVar(&toFlag, "to", "now", "end of the window: now, a duration back from now, or an RFC 3339 time")
	f.DurationVar(&every, "evaluation-interval", time.Minute, "your Prometheus's global evaluation_interval, at which the rules are evaluated")
	f.StringVar(&format, "format", "table", "output: table or json")
	f.StringVar(&plot, "plot", "", "write an SVG per SLO of its error ratio, the tiers' thresholds and the alerts' spans: FILE.svg, or FILE-<service>-<slo>.svg when there are several")
	f.BoolVar(&gpu, "gpu", false, "backtest the GPU and serving alerts (gpu-rules.yaml) too, from dcgm-exporter's and the runtime's history")
	f.DurationVar(&timeout, "timeout", 10*time.Minute, "give up after this long")
	conn.AddFlags(f)
	_ = cmd.MarkFlagRequired("prometheus")
	return cmd
}

func failIf(err error) error {
	if err != nil {
		return fail(exitFailed, err)
	}
	return nil
}

// window resolves --from and --to against now, to whole minutes.
func window(fromFlag, toFlag string, now time.Time) (from, to time.Time, err error) {
	if from, err = instant("--from", fromFlag, now); err != nil {
		return
	}
	if to, err = instant("--to", toFlag, now); err != nil {
		return
	}
	switch {
	case !from.Before(to):
		err = fmt.Errorf("--from %s is not before --to %s", stamp(from), stamp(to))
	case to.After(now):
		err = fmt.Errorf("--to %s is in the future", stamp(to))
	case to.Sub(from) > 31*24*time.Hour:
		err = fmt.Errorf("--from %s: a window of %s is longer than 31 days; backtest a month at a time", fromFlag, to.Sub(from))
	}
	return from, to, err
}

func instant(flag, v string, now time.Time) (time.Time, error) {
	if v == "now" {
		return now, nil
	}
	if d, err := promodel.ParseDuration(v); err == nil {
		return now.Add(-time.Duration(d)), nil
	}
	t, err := time.Parse(time.RFC3339, v)
	if err != nil {
		return time.Time{}, fmt.Errorf("%s %q: give a duration back from now, such as 7d or 36h, or an RFC 3339 time such as 2026-11-20T00:00:00Z", flag, v)
	}
	return t.UTC().Truncate(time.Minute), nil
}

func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// backtester runs one service's backtest, telling the user how far it is.
type backtester struct {
	api      backtest.Querier
	server   string
	from, to time.Time
	every    time.Duration
	log      io.Writer
	plot     bool
	gpu      bool
}

func (b backtester) run(ctx context.Context, svc model.Service) (backtest.Result, error) {
	groups := backtest.Groups(svc, b.gpu)
	sels := backtest.Selectors(groups)
	start := b.from.Add(-backtest.Warmup)
	fmt.Fprintf(b.log, "%s: fetching %d series selector(s) from %s, %s to %s\n", svc.Name, len(sels), b.server, stamp(start), stamp(b.to))
	inputs, err := backtest.Fetch(ctx, b.api, sels, start, b.to, every10(b.log, svc.Name+": fetched %d%%"))
	if err != nil {
		return backtest.Result{}, fail(exitNoData, promclient.Explain(b.server, err))
	}
	if len(inputs) == 0 {
		return backtest.Result{}, failf(exitNoData, "Prometheus at %s holds none of the series %s's rules read between %s and %s (%v): check the spec's selector and model against what is scraped",
			b.server, svc.Name, stamp(start), stamp(b.to), sels)
	}
	evaluated := every10(b.log, svc.Name+": evaluated %d%% of the rules")
	cfg := backtest.Config{Every: b.every, Groups: groups, Progress: func(share float64) { evaluated(int(share*1000), 1000) }}
	if b.plot {
		cfg.Points = plotPoints
	}
	r, err := backtest.Run(ctx, svc, inputs, b.from, b.to, cfg)
	if errors.Is(err, context.DeadlineExceeded) {
		return r, failf(exitFailed, "%s: gave up after --timeout", svc.Name)
	}
	if err != nil {
		return r, fail(exitFailed, err)
	}
	return r, nil
}

// every10 reports progress at each tenth.
func every10(w io.Writer, format string) func(done, total int) {
	last := -1
	return func(done, total int) {
		if pct := done * 100 / total; pct/10 != last {
			last = pct / 10
			fmt.Fprintf(w, format+"\n", pct)
		}
	}
}

// plotPoints is how many points of each error ratio a plot draws: about
// one per pixel of its width.
const plotPoints = 1000

// plotPaths names each SLO's plot: the path given when there is one SLO,
// else the path with -<service>-<slo> before its extension.
func plotPaths(plot string, svcs []model.Service) map[[2]string]string {
	out := map[[2]string]string{}
	if plot == "" {
		return out
	}
	n := 0
	for _, svc := range svcs {
		n += len(svc.SLOs)
	}
	ext := filepath.Ext(plot)
	for _, svc := range svcs {
		for _, slo := range svc.SLOs {
			p := plot
			if n > 1 {
				p = strings.TrimSuffix(plot, ext) + "-" + svc.Name + "-" + slo.Name + ext
			}
			out[[2]string{svc.Name, slo.Name}] = p
		}
	}
	return out
}

// writable checks, before any fetching, that every plot can be written:
// its directory exists and takes a new file.
func writable(paths map[[2]string]string) error {
	dirs := map[string]bool{}
	for _, p := range paths {
		dirs[filepath.Dir(p)] = true
	}
	for d := range dirs {
		f, err := os.CreateTemp(d, ".slogen-plot-*")
		if err != nil {
			return fmt.Errorf("--plot: cannot write in %s: %w", d, err)
		}
		f.Close()
		os.Remove(f.Name())
	}
	return nil
}

// writePlots writes the service's SLOs' plots, each through a temporary
// file (outdir.WriteFile), so that a failed plot leaves no half-written one.
func writePlots(paths map[[2]string]string, svc model.Service, r backtest.Result, log io.Writer) error {
	for _, slo := range svc.SLOs {
		p, ok := paths[[2]string{svc.Name, slo.Name}]
		if !ok {
			continue
		}
		var buf bytes.Buffer
		if err := backtest.Plot(&buf, svc, slo, r); err != nil {
			return fmt.Errorf("--plot %s: %w", p, err)
		}
		if err := outdir.WriteFile(p, buf.Bytes()); err != nil {
			return fmt.Errorf("--plot: %w", err)
		}
		fmt.Fprintf(log, "%s/%s: plotted to %s\n", svc.Name, slo.Name, p)
	}
	return nil
}
