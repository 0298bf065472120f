package promtest

import (
	"context"
	"math"
	"slices"
	"sort"
	"sync"

	"github.com/prometheus/prometheus/model/histogram"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/storage"
	"github.com/prometheus/prometheus/tsdb/chunkenc"
	"github.com/prometheus/prometheus/tsdb/chunks"
	"github.com/prometheus/prometheus/util/annotations"
)

// memStorage is an in-memory float-only series store. It replaces the TSDB
// that promtool runs tests against, so it keeps the TSDB rules that change
// verdicts: stale markers are stored as ordinary samples, and appends that
// are out of order or conflict with an existing sample are rejected.
type memStorage struct {
	mu     sync.RWMutex
	series map[string]*memSeries
}

type memSeries struct {
	lset    labels.Labels
	samples []chunks.Sample // sorted by timestamp
}

func newMemStorage() *memStorage {
	return &memStorage{series: map[string]*memSeries{}}
}

// append adds one float sample. Like the TSDB head with out-of-order
// ingestion disabled, it rejects samples older than the newest one and
// samples at the newest timestamp with a different value; an exact
// duplicate is silently dropped.
func (s *memStorage) append(lset labels.Labels, t int64, v float64) error {
	return s.appendSample(lset, floatSample{t: t, f: v})
}

// appendSample adds one sample, a float or a native histogram, by the
// same rules; a histogram repeated at the newest timestamp must be equal.
func (s *memStorage) appendSample(lset labels.Labels, smp floatSample) error {
	t := smp.t
	s.mu.Lock()
	defer s.mu.Unlock()

	key := string(lset.Bytes(nil))
	ser, ok := s.series[key]
	if !ok {
		ser = &memSeries{lset: lset}
		s.series[key] = ser
	}
	if n := len(ser.samples); n > 0 {
		last := ser.samples[n-1]
		switch {
		case t < last.T():
			return storage.ErrOutOfOrderSample
		case t == last.T() && !sameValue(smp, last):
			return storage.ErrDuplicateSampleForTimestamp
		case t == last.T():
			return nil
		}
	}
	ser.samples = append(ser.samples, smp)
	return nil
}

func sameValue(a floatSample, b chunks.Sample) bool {
	if a.fh != nil || b.FH() != nil {
		return a.fh != nil && b.FH() != nil && a.fh.Equals(b.FH())
	}
	return math.Float64bits(a.f) == math.Float64bits(b.F())
}

// Querier implements storage.Queryable.
func (s *memStorage) Querier(mint, maxt int64) (storage.Querier, error) {
	return &memQuerier{s: s, mint: mint, maxt: maxt}, nil
}

type memQuerier struct {
	s          *memStorage
	mint, maxt int64
}

// Select returns the matching series with their samples cut to the query
// range (narrowed further by the hints, as the TSDB does). Series are always
// sorted; it costs little here and callers may rely on it.
func (q *memQuerier) Select(_ context.Context, _ bool, hints *storage.SelectHints, ms ...*labels.Matcher) storage.SeriesSet {
	mint, maxt := q.mint, q.maxt
	if hints != nil {
		mint, maxt = hints.Start, hints.End
	}
	var out []storage.Series
	for _, ser := range q.s.matching(ms) {
		if samples := cut(ser.samples, mint, maxt); len(samples) > 0 {
			out = append(out, storage.NewListSeries(ser.lset, samples))
		}
	}
	slices.SortFunc(out, func(a, b storage.Series) int { return labels.Compare(a.Labels(), b.Labels()) })
	return &listSeriesSet{series: out, idx: -1}
}

// matching returns a snapshot of the series that match every matcher. The
// sample slices it hands out are safe to read after the lock is released,
// because appends never modify existing elements.
func (s *memStorage) matching(ms []*labels.Matcher) []memSeries {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []memSeries
	for _, ser := range s.series {
		if matchesAll(ser.lset, ms) {
			out = append(out, *ser)
		}
	}
	return out
}

func matchesAll(lset labels.Labels, ms []*labels.Matcher) bool {
	for _, m := range ms {
		if !m.Matches(lset.Get(m.Name)) {
			return false
		}
	}
	return true
}

// cut returns the samples with mint <= t <= maxt.
func cut(samples []chunks.Sample, mint, maxt int64) []chunks.Sample {
	lo := sort.Search(len(samples), func(i int) bool { return samples[i].T() >= mint })
	hi := sort.Search(len(samples), func(i int) bool { return samples[i].T() > maxt })
	return samples[lo:hi:hi]
}

// LabelValues implements storage.LabelQuerier.
func (q *memQuerier) LabelValues(_ context.Context, name string, _ *storage.LabelHints, ms ...*labels.Matcher) ([]string, annotations.Annotations, error) {
	var vals []string
	for _, ser := range q.s.matching(ms) {
		if v := ser.lset.Get(name); v != "" && len(cut(ser.samples, q.mint, q.maxt)) > 0 {
			vals = append(vals, v)
		}
	}
	slices.Sort(vals)
	return slices.Compact(vals), nil, nil
}

// LabelNames implements storage.LabelQuerier.
func (q *memQuerier) LabelNames(_ context.Context, _ *storage.LabelHints, ms ...*labels.Matcher) ([]string, annotations.Annotations, error) {
	var names []string
	for _, ser := range q.s.matching(ms) {
		if len(cut(ser.samples, q.mint, q.maxt)) > 0 {
			ser.lset.Range(func(l labels.Label) { names = append(names, l.Name) })
		}
	}
	slices.Sort(names)
	return slices.Compact(names), nil, nil
}

// Close implements storage.LabelQuerier.
func (*memQuerier) Close() error { return nil }

type listSeriesSet struct {
	series []storage.Series
	idx    int
}

func (s *listSeriesSet) Next() bool                      { s.idx++; return s.idx < len(s.series) }
func (s *listSeriesSet) At() storage.Series              { return s.series[s.idx] }
func (*listSeriesSet) Err() error                        { return nil }
func (*listSeriesSet) Warnings() annotations.Annotations { return nil }

// floatSample is a sample in the form storage.NewListSeries reads: a
// float, or a native histogram where fh is set (the series notation's
// {{...}} values, which only input series hold).
type floatSample struct {
	t  int64
	f  float64
	fh *histogram.FloatHistogram
}

func (s floatSample) T() int64              { return s.t }
func (floatSample) ST() int64               { return 0 }
func (s floatSample) F() float64            { return s.f }
func (floatSample) H() *histogram.Histogram { return nil }

// FH hands out a copy: the engine reads histograms from a series
// iterator as its own, and may change them in place (rate subtracts).
func (s floatSample) FH() *histogram.FloatHistogram {
	if s.fh == nil {
		return nil
	}
	return s.fh.Copy()
}
func (s floatSample) Copy() chunks.Sample { return s }

func (s floatSample) Type() chunkenc.ValueType {
	if s.fh != nil {
		return chunkenc.ValFloatHistogram
	}
	return chunkenc.ValFloat
}
