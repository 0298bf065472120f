// Package initspec writes a first spec from what a Prometheus already
// scrapes (slogen init). It reads the runtime table backwards: the metric
// families each runtime's SLOs read tell which runtime a scrape job runs;
// the label values tell its namespace, models, pods and GPUs; the le
// values its histograms really have. From the history the server keeps
// (up to 28 days) it proposes, per SLO kind the runtime serves, an
// objective the service met and a threshold on a real bucket boundary,
// and writes the figures behind them as comments.
package initspec

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	v1 "github.com/prometheus/client_golang/api/prometheus/v1"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/profile"
)

// History is how far back init reads: a month of four weeks, so that
// each weekday counts alike.
const History = 28 * 24 * time.Hour

// ErrNothingFound: the server holds no series of any runtime slogen knows.
var ErrNothingFound = errors.New("no series of any runtime slogen knows")

// Options say where and when to read.
type Options struct {
	// Now is the end of the history read.
	Now time.Time
	// Progress receives a line before each query that may take long.
	Progress io.Writer
}

// Service is one inference service found, with what init proposes.
type Service struct {
	Name    string
	Profile profile.Profile
	// Target is the scrape job and namespace it was found in; Model is
	// the model label's value, empty where the runtime has none.
	Target
	Model string
	// Families are the metric families that told the runtime.
	Families []string
	Pods     []string
	// Instances are the scrape targets (host:port).
	Instances []string
	// Buckets are the le boundaries the server holds, per kind, where
	// they differ from the runtime table's.
	Buckets map[model.Kind][]float64
	SLOs    []Proposal
	GPUs    GPUs
	// histograms are the latency kinds whose histogram has series.
	histograms map[model.Kind]bool
}

// Proposed reports whether the history proposes an SLO for the service;
// a service without one is left out of the spec, which needs one.
func (s Service) Proposed() bool {
	for _, p := range s.SLOs {
		if p.Skipped == "" {
			return true
		}
	}
	return false
}

// Target is a scrape job in a namespace (empty outside Kubernetes).
type Target struct{ Job, Namespace string }

// Propose finds the inference services prom scrapes and proposes their
// SLOs from history.
func Propose(ctx context.Context, prom v1.API, o Options) ([]Service, error) {
	services, err := find(ctx, prom, o)
	if err != nil {
		return nil, err
	}
	gpus, err := readGPUs(ctx, prom, o)
	if err != nil {
		return nil, err
	}
	for i := range services {
		s := &services[i]
		if err := s.readBuckets(ctx, prom, o); err != nil {
			return nil, err
		}
		if err := s.propose(ctx, prom, o); err != nil {
			return nil, err
		}
		s.GPUs = gpus.behind(*s)
	}
	return services, nil
}

func progress(o Options, format string, args ...any) {
	if o.Progress != nil {
		fmt.Fprintf(o.Progress, "init: "+format+"\n", args...)
	}
}
