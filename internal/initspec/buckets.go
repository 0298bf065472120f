package initspec

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strconv"

	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	pmodel "github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/profile"
)

// selector is sel narrowed to the service: its job, namespace and, on a
// family that carries it, its model.
func (s Service) selector(sel profile.Selector) *parser.VectorSelector {
	ms := []*labels.Matcher{labels.MustNewMatcher(labels.MatchEqual, "job", s.Job)}
	if s.Namespace != "" {
		ms = append(ms, labels.MustNewMatcher(labels.MatchEqual, "namespace", s.Namespace))
	}
	if sel.HasModel && s.Model != "" && s.Profile.ModelLabel != "" {
		ms = append(ms, labels.MustNewMatcher(labels.MatchEqual, s.Profile.ModelLabel, s.Model))
	}
	return model.Selector{Name: sel.Name, Matchers: sel.Matchers}.With(ms...)
}

func (s Service) bucketSelector(h *profile.Histogram) *parser.VectorSelector {
	return s.selector(profile.Selector{Name: h.Name + "_bucket", HasModel: h.HasModel, Matchers: h.Matchers})
}

// readBuckets asks for the le values each histogram really has. A kind
// whose histogram has no series is left out of the proposals. Where
// generations of the runtime read the same families and differ only in
// buckets (Dynamo 1.0.0 and 1.1.0), the boundaries pick the generation;
// a kind whose boundaries still differ from it gets them in the spec's
// buckets.
func (s *Service) readBuckets(ctx context.Context, prom v1.API, o Options) error {
	les := map[model.Kind][]float64{}
	for _, k := range model.LatencyKinds {
		h := s.Profile.Histogram(k)
		if h == nil || h.Native {
			continue
		}
		v, _, _, err := prom.Query(ctx, fmt.Sprintf("group by (le) (%s)", s.bucketSelector(h)), o.Now)
		if err != nil {
			return err
		}
		if b := boundaries(v); len(b) > 0 {
			les[k] = b
		}
	}
	s.Profile = generationOf(s.Profile, les)
	s.Buckets = map[model.Kind][]float64{}
	s.histograms = map[model.Kind]bool{}
	for k, b := range les {
		s.histograms[k] = true
		if !sameBuckets(b, s.Profile.Histogram(k).Buckets) {
			s.Buckets[k] = b
		}
	}
	return nil
}

// generationOf is, among the generations of p's runtime that read the
// same families, the one whose buckets match the most of les; p on a tie.
func generationOf(p profile.Profile, les map[model.Kind][]float64) profile.Profile {
	best, bestMatch := p, matching(p, les)
	for _, g := range runtimes() {
		if g.Runtime != p.Runtime || !slices.Equal(familyNames(g), familyNames(p)) {
			continue
		}
		if m := matching(g, les); m > bestMatch {
			best, bestMatch = g, m
		}
	}
	return best
}

func matching(p profile.Profile, les map[model.Kind][]float64) int {
	n := 0
	for k, b := range les {
		if sameBuckets(b, p.Histogram(k).Buckets) {
			n++
		}
	}
	return n
}

func familyNames(p profile.Profile) []string {
	var names []string
	for _, sel := range reads(p) {
		names = append(names, sel.Name)
	}
	return names
}

// boundaries are the finite le values of a group by (le) answer,
// ascending.
func boundaries(v pmodel.Value) []float64 {
	vec, _ := v.(pmodel.Vector)
	var les []float64
	for _, smp := range vec {
		le, err := strconv.ParseFloat(string(smp.Metric["le"]), 64)
		if err == nil && !math.IsInf(le, 1) && !slices.Contains(les, le) {
			les = append(les, le)
		}
	}
	slices.Sort(les)
	return les
}

func sameBuckets(a, b []float64) bool {
	return slices.EqualFunc(a, b, func(x, y float64) bool { return math.Abs(x-y) <= 1e-9*math.Max(1, math.Abs(x)) })
}
