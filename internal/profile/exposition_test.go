package profile

import (
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/testenv"
)

// TestProfilesAreTheirExpositions checks each built-in entry of the table
// against its runtime's exposition in testdata/expositions, written from
// the runtime's source at the release the entry reads (the file names
// it): every metric the entry reads is there, with the labels its
// matchers and model label expect, and every histogram's buckets are the
// exposition's le values, written as its client library writes them.
// examples' TestSelectorsMatchTheRuntimesExposition checks what the rules
// select against the same files.
func TestProfilesAreTheirExpositions(t *testing.T) {
	for _, p := range Runtimes() {
		if p.Runtime == CustomRuntime {
			continue
		}
		t.Run(p.Runtime+"@"+p.Since, func(t *testing.T) {
			series, err := testenv.ReadExposition(expositionOf(p))
			if err != nil {
				t.Fatalf("%v: each runtime of the table has an exposition written from its source", err)
			}
			for _, sel := range p.selectors() {
				if !slices.ContainsFunc(series, func(s labels.Labels) bool { return sel.matches(s, p.ModelLabel) }) {
					t.Errorf("no series of %s matches %s", expositionOf(p), sel)
				}
			}
			for _, k := range model.LatencyKinds {
				if h := p.Histogram(k); h != nil {
					checkBuckets(t, h, series)
				}
			}
		})
	}
}

// expositionOf is the file of the entry's generation: <runtime>.prom for
// the newest, <runtime>-<since>.prom for an older one.
func expositionOf(p Profile) string {
	if newest, _ := Lookup(p.Runtime); newest.Since != p.Since {
		return filepath.Join("testdata", "expositions", p.Runtime+"-"+p.Since+".prom")
	}
	return filepath.Join("testdata", "expositions", p.Runtime+".prom")
}

// wanted is a metric an entry reads: its name, its fixed matchers, and
// whether it carries the model label.
type wanted struct {
	name     string
	matchers []*labels.Matcher
	hasModel bool
}

func (w wanted) String() string { return w.name + matcherList(w.matchers) }

func matcherList(ms []*labels.Matcher) string {
	var parts []string
	for _, m := range ms {
		parts = append(parts, m.String())
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func (w wanted) matches(s labels.Labels, modelLabel string) bool {
	if s.Get(labels.MetricName) != w.name || w.hasModel && modelLabel != "" && !s.Has(modelLabel) {
		return false
	}
	for _, m := range w.matchers {
		if !m.Matches(s.Get(m.Name)) {
			return false
		}
	}
	return true
}

// selectors are the metrics the entry reads: its availability counters,
// its histograms, and its engine gauges and counters.
func (p Profile) selectors() []wanted {
	var out []wanted
	if p.Availability != nil {
		for _, s := range slices.Concat(p.Availability.Total, p.Availability.Failed) {
			out = append(out, wanted{s.Name, s.Matchers, s.HasModel})
		}
	}
	for _, k := range model.LatencyKinds {
		if h := p.Histogram(k); h != nil {
			out = append(out, wanted{name: h.Name + "_count", hasModel: h.HasModel})
		}
	}
	v := reflect.ValueOf(p.Serving)
	for i := range v.NumField() {
		switch f := v.Field(i).Interface().(type) {
		case model.Selector:
			if !f.IsZero() {
				out = append(out, wanted{name: f.Name, matchers: f.Matchers})
			}
		case string:
			if name := v.Type().Field(i).Name; f != "" && name != "FailureClass" { // a histogram's name
				out = append(out, wanted{name: f + "_count"})
			}
		}
	}
	return out
}

// checkBuckets: the histogram's buckets are the exposition's le values,
// each written as the entry's Format says.
func checkBuckets(t *testing.T, h *Histogram, series []labels.Labels) {
	t.Helper()
	var les []string
	for _, s := range series {
		if s.Get(labels.MetricName) == h.Name+"_bucket" && s.Get("le") != "+Inf" && !slices.Contains(les, s.Get("le")) {
			les = append(les, s.Get("le"))
		}
	}
	var got []float64
	for _, le := range les {
		v, err := strconv.ParseFloat(le, 64)
		if err != nil {
			t.Fatalf("%s: le %q: %v", h.Name, le, err)
		}
		got = append(got, v)
		if integral := v == float64(int64(v)); integral && (h.Format == PythonFormat) != strings.Contains(le, ".") {
			t.Errorf("%s: le %q is not written as the profile's format says", h.Name, le)
		}
	}
	if !slices.Equal(got, h.Buckets) {
		t.Errorf("%s: the profile's buckets are %v, the exposition's le values %v", h.Name, h.Buckets, got)
	}
}
