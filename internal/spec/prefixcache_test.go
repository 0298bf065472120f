package spec

import (
	"strings"
	"testing"
)

func TestPrefixCacheHitVsYesterday(t *testing.T) {
	tests := map[string]struct {
		thresholds string
		want       float64
		wantErr    string
	}{
		"Unset, it is half of yesterday's hit ratio.": {"", 0.5, ""},
		"A share between 0 and 1 is taken as given.":  {"thresholds: prefix_cache_hit_vs_yesterday: 0.3", 0.3, ""},
		"0 would never fire: refused, saying what the field is.": {"thresholds: prefix_cache_hit_vs_yesterday: 0", 0,
			"s.cue:5:44: services.s.thresholds.prefix_cache_hit_vs_yesterday: must be >0 and <1 (got 0); prefix_cache_hit_vs_yesterday is the share of yesterday's hit ratio below which PrefixCacheColdStart fires, strictly between 0 and 1, e.g. 0.5"},
		"1 would fire on any dip: refused.": {"thresholds: prefix_cache_hit_vs_yesterday: 1", 0, "must be >0 and <1 (got 1)"},
		"A percentage is refused.":          {"thresholds: prefix_cache_hit_vs_yesterday: 50", 0, "must be >0 and <1 (got 50)"},
		"A share above 1 is refused.":       {"thresholds: prefix_cache_hit_vs_yesterday: 1.5", 0, "must be <1 (got 1.5)"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			svc, _, err := load(t, tc.thresholds)
			switch {
			case tc.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v; want one containing %q", err, tc.wantErr)
				}
			case err != nil:
				t.Fatal(err)
			case svc.Thresholds.PrefixCacheHitVsYesterday != tc.want:
				t.Errorf("got %v, want %v", svc.Thresholds.PrefixCacheHitVsYesterday, tc.want)
			}
		})
	}
}

func TestCustomPrefixCacheCounters(t *testing.T) {
	custom := func(metrics string) string {
		return "services: app: {\nruntime: \"custom\"\nmetrics: {requests: \"req_total\", errors: \"err_total\", " + metrics + "}\nslos: availability: objective: 99\n}\n"
	}
	res, err := LoadSources(Source{Name: "app.cue", Data: []byte(custom(`prefix_cache_hits: "cache_hit_tokens_total", prefix_cache_queries: "cache_query_tokens_total{cache=\"gpu\"}"`))})
	if err != nil {
		t.Fatal(err)
	}
	m := res.Spec.Services[0].Metrics
	if m.PrefixCacheHits.String() != "cache_hit_tokens_total" || m.PrefixCacheQueries.String() != `cache_query_tokens_total{cache="gpu"}` {
		t.Errorf("hits %s, queries %s", m.PrefixCacheHits, m.PrefixCacheQueries)
	}
	for field, other := range map[string]string{"prefix_cache_hits": "prefix_cache_queries", "prefix_cache_queries": "prefix_cache_hits"} {
		_, err := LoadSources(Source{Name: "app.cue", Data: []byte(custom(field + `: "x_total"`))})
		if want := "services.app.metrics." + field + ": needs metrics." + other + " beside it"; err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s alone: %v; want %q", field, err, want)
		}
	}
}
