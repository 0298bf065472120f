package initspec

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"time"

	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	pmodel "github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/profile"
)

// day is the step of the history's range queries: each point is a day's
// increase, so that a long history is read in one query per series set
// without asking the server for one 28-day range.
const day = 24 * time.Hour

// Proposal is one SLO init proposes, or why it proposes none, with the
// figures behind it.
type Proposal struct {
	Kind model.Kind
	// Objective in percent; zero when Skipped.
	Objective float64
	// Threshold is a bucket boundary as a spec writes it ("1s"); empty
	// for availability.
	Threshold string
	// Days counts the days of the history that held requests.
	Days     int
	Requests float64
	// Bad are the failed requests (availability).
	Bad float64
	// Met is the share of requests that were good.
	Met float64
	// Within is, per boundary near the threshold, the share of requests
	// at or below it.
	Within []Share
	// Skipped says why no SLO is proposed.
	Skipped string
}

// Share is the part of the requests within one boundary.
type Share struct {
	Bound string
	Share float64
}

// propose reads the history of every kind the runtime serves.
func (s *Service) propose(ctx context.Context, prom v1.API, o Options) error {
	for _, k := range kinds {
		var p Proposal
		var err error
		switch h := s.Profile.Histogram(k); {
		case k == model.Availability && s.Profile.Availability != nil:
			progress(o, "%s: reading %s of %s history", s.Name, days(History), k)
			p, err = s.availability(ctx, prom, o)
		case h != nil && s.histograms[k]:
			progress(o, "%s: reading %s of %s history", s.Name, days(History), k)
			p, err = s.latency(ctx, prom, o, k, h)
		default:
			continue
		}
		if err != nil {
			return err
		}
		p.Kind = k
		if p.Requests > 0 {
			s.SLOs = append(s.SLOs, p)
		}
	}
	return nil
}

func (s Service) availability(ctx context.Context, prom v1.API, o Options) (Proposal, error) {
	var p Proposal
	for _, sel := range s.Profile.Availability.Total {
		n, d, err := s.increase(ctx, prom, o, sel)
		if err != nil {
			return p, err
		}
		p.Requests += n
		p.Days = max(p.Days, d)
	}
	for _, sel := range s.Profile.Availability.Failed {
		n, _, err := s.increase(ctx, prom, o, sel)
		if err != nil {
			return p, err
		}
		p.Bad += n
	}
	if p.Requests > 0 {
		p.Met = max(0, 1-p.Bad/p.Requests)
	}
	p.Objective = objectiveMet(p.Met, ladder[0])
	if p.Objective == 0 && p.Requests > 0 {
		p.Skipped = fmt.Sprintf("only %s of requests succeeded, under the lowest objective init proposes (%g %%)", percent(p.Met), ladder[len(ladder)-1])
	}
	return p, nil
}

// increase is a counter's increase over the history, and the days that
// saw one.
func (s Service) increase(ctx context.Context, prom v1.API, o Options, sel profile.Selector) (float64, int, error) {
	m, err := daily(ctx, prom, o, fmt.Sprintf("sum(increase(%s))", ranged(s.selector(sel))))
	if err != nil || len(m) == 0 {
		return 0, 0, err
	}
	total, n := sumPoints(m[0].Values)
	return total, n, nil
}

// latency reads how many requests each boundary held over the history
// and proposes the smallest boundary within which 99 % of them were.
func (s Service) latency(ctx context.Context, prom v1.API, o Options, k model.Kind, h *profile.Histogram) (Proposal, error) {
	var p Proposal
	m, err := daily(ctx, prom, o, fmt.Sprintf("sum by (le) (increase(%s))", ranged(s.bucketSelector(h))))
	if err != nil {
		return p, err
	}
	within := map[float64]float64{}
	for _, series := range m {
		le, err := strconv.ParseFloat(string(series.Metric["le"]), 64)
		if err != nil {
			continue
		}
		n, d := sumPoints(series.Values)
		within[le] += n
		if math.IsInf(le, 1) {
			p.Days = d
		}
	}
	p.Requests = within[math.Inf(1)]
	if p.Requests == 0 {
		return p, nil
	}
	return pickThreshold(p, h, within), nil
}

// daily runs query, an increase over a day, at each day of the history.
func daily(ctx context.Context, prom v1.API, o Options, query string) (pmodel.Matrix, error) {
	r := v1.Range{Start: o.Now.Add(-History + day), End: o.Now, Step: day}
	v, _, _, err := prom.QueryRange(ctx, query, r)
	if err != nil {
		return nil, err
	}
	m, _ := v.(pmodel.Matrix)
	return m, nil
}

func ranged(vs *parser.VectorSelector) string {
	return (&parser.MatrixSelector{VectorSelector: vs, Range: day}).String()
}

// sumPoints adds a series' daily increases, and counts the days that
// had any.
func sumPoints(ps []pmodel.SamplePair) (float64, int) {
	var total float64
	var n int
	for _, p := range ps {
		if v := float64(p.Value); !math.IsNaN(v) && v > 0 {
			total += v
			n++
		}
	}
	return total, n
}

func days(d time.Duration) string { return fmt.Sprintf("%d days", int(d/day)) }

func percent(f float64) string { return strconv.FormatFloat(f*100, 'f', 3, 64) + " %" }
