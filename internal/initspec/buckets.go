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
// whose histogram has no series is left out of the proposals; one whose
// boundaries differ from the table's gets them in the spec's buckets.
func (s *Service) readBuckets(ctx context.Context, prom v1.API, o Options) error {
	s.Buckets = map[model.Kind][]float64{}
	s.histograms = map[model.Kind]bool{}
	for _, k := range model.LatencyKinds {
		h := s.Profile.Histogram(k)
		if h == nil || h.Native {
			continue
		}
		v, _, _, err := prom.Query(ctx, fmt.Sprintf("group by (le) (%s)", s.bucketSelector(h)), o.Now)
		if err != nil {
			return err
		}
		les := boundaries(v)
		if len(les) == 0 {
			continue
		}
		s.histograms[k] = true
		if !sameBuckets(les, h.Buckets) {
			s.Buckets[k] = les
		}
	}
	return nil
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

// buckets are the boundaries the kind's histogram has on the server.
func (s Service) buckets(k model.Kind) []float64 {
	if b, ok := s.Buckets[k]; ok {
		return b
	}
	return s.Profile.Histogram(k).Buckets
}
