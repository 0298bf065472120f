package promtest

import (
	"context"
	"errors"
	"math"
	"testing"
	"time"

	"github.com/prometheus/prometheus/model/histogram"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/value"
	"github.com/prometheus/prometheus/storage"
	"github.com/prometheus/prometheus/tsdb/chunkenc"
)

func TestMemStorageAppend(t *testing.T) {
	stale := math.Float64frombits(value.StaleNaN)
	tests := map[string]struct {
		t       int64
		v       float64
		wantErr error
	}{
		"A newer sample is stored.":                               {t: 2000, v: 5},
		"A stale marker is stored like any sample.":               {t: 2000, v: stale},
		"An exact duplicate is accepted and dropped.":             {t: 1000, v: 1},
		"An older sample is out of order.":                        {t: 500, v: 1, wantErr: storage.ErrOutOfOrderSample},
		"A different value at the same timestamp is a conflict.":  {t: 1000, v: 2, wantErr: storage.ErrDuplicateSampleForTimestamp},
		"A stale marker at the same timestamp is a conflict too.": {t: 1000, v: stale, wantErr: storage.ErrDuplicateSampleForTimestamp},
	}
	lset := labels.FromStrings("__name__", "up")
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			st := newMemStorage()
			if err := st.append(lset, 1000, 1); err != nil {
				t.Fatal(err)
			}
			if err := st.append(lset, tc.t, tc.v); !errors.Is(err, tc.wantErr) {
				t.Fatalf("append error = %v, want %v", err, tc.wantErr)
			}
		})
	}
}

func TestMemStorageSelectKeepsStaleMarkersAndCutsRange(t *testing.T) {
	st := newMemStorage()
	a := labels.FromStrings("__name__", "up", "job", "a")
	b := labels.FromStrings("__name__", "up", "job", "b")
	for i, v := range []float64{1, 2, math.Float64frombits(value.StaleNaN), 4} {
		mustAppend(t, st, a, int64(i)*1000, v)
	}
	mustAppend(t, st, b, 0, 9)

	q, _ := st.Querier(1000, 2000)
	m := labels.MustNewMatcher(labels.MatchEqual, "job", "a")
	set := q.Select(context.Background(), true, nil, m)
	if !set.Next() {
		t.Fatal("no series selected")
	}
	got := floats(set.At())
	if set.Next() {
		t.Fatalf("unexpected second series %s", set.At().Labels())
	}
	if len(got) != 2 || got[0] != 2 || !value.IsStaleNaN(got[1]) {
		t.Fatalf("samples = %v, want [2 StaleNaN]", got)
	}
}

func mustAppend(t *testing.T, st *memStorage, lset labels.Labels, ts int64, v float64) {
	t.Helper()
	if err := st.append(lset, ts, v); err != nil {
		t.Fatal(err)
	}
}

func floats(s storage.Series) []float64 {
	var out []float64
	it := s.Iterator(nil)
	for it.Next() == chunkenc.ValFloat {
		_, v := it.At()
		out = append(out, v)
	}
	return out
}

// A native histogram is stored as the series notation wrote it, whatever
// a reader does with the copy it is handed: the engine's rate subtracts in
// place. One different at the same timestamp is a conflict.
func TestMemStorageKeepsHistograms(t *testing.T) {
	lset, samples, err := expandSeries(inputSeries{Series: `x`, Values: `{{schema:0 count:4 sum:6 buckets:[1 3]}}+{{schema:0 count:2 sum:3 buckets:[1 1]}}x1`}, time.Unix(0, 0), time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	st := newMemStorage()
	for _, s := range samples {
		if err := st.appendSample(lset, s); err != nil {
			t.Fatal(err)
		}
	}
	q, _ := st.Querier(0, math.MaxInt64)
	read := func() *histogram.FloatHistogram {
		set := q.Select(context.Background(), false, nil, labels.MustNewMatcher(labels.MatchEqual, "__name__", "x"))
		set.Next()
		it := set.At().Iterator(nil)
		if it.Next() != chunkenc.ValFloatHistogram {
			t.Fatal("the first sample is not a histogram")
		}
		_, h := it.AtFloatHistogram(nil)
		return h
	}
	if _, _, _, err := read().Sub(samples[1].fh); err != nil {
		t.Fatal(err)
	}
	if h := read(); h.Count != 4 || h.Sum != 6 {
		t.Errorf("after a reader changed its copy, the stored histogram is %s, want count 4, sum 6", h)
	}
	if err := st.appendSample(lset, floatSample{t: samples[1].t, fh: samples[0].fh}); !errors.Is(err, storage.ErrDuplicateSampleForTimestamp) {
		t.Errorf("a different histogram at the same timestamp: %v, want a conflict", err)
	}
}
