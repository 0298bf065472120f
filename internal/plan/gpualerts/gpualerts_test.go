package gpualerts_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/profile"
	"github.com/slogen-dev/slogen/internal/promcompat"
	"github.com/slogen-dev/slogen/internal/spec"

	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
)

// fixture loads the one service of testdata/<name>.cue. internal/generate/gputests
// tests the same fixtures' generated tests.
func fixture(t *testing.T, name string) model.Service {
	t.Helper()
	res, err := spec.Load(filepath.Join("testdata", name+".cue"))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return res.Spec.Services[0]
}

// fixtures are one per runtime of the profile table, each in
// testdata/<runtime>.cue.
var fixtures = profile.Names()

func TestRulesAreValidForPrometheus242(t *testing.T) {
	for _, name := range fixtures {
		f, err := rules.Marshal(rules.File{Groups: gpualerts.Build(gpualerts.NewPlan(fixture(t, name)))})
		if err != nil {
			t.Fatal(err)
		}
		for _, err := range promcompat.CheckRules(name, f) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestEveryAlertCarriesServiceSeverityAndRunbook(t *testing.T) {
	for _, name := range fixtures {
		svc := fixture(t, name)
		for _, r := range gpualerts.Build(gpualerts.NewPlan(svc))[0].Rules {
			if r.Alert == "" {
				continue
			}
			if r.Labels["service"] != svc.Name || r.Labels["severity"] == "" || r.Annotations["runbook_url"] == "" {
				t.Errorf("%s: %s has labels %v and annotations %v", name, r.Alert, r.Labels, r.Annotations)
			}
			if svc.Alerting.RunbookURL == "" && r.Annotations["runbook_url"] != rules.RunbookBase+strings.ToLower(r.Alert) {
				t.Errorf("%s: %s links %s", name, r.Alert, r.Annotations["runbook_url"])
			}
		}
	}
}

func TestSkippedAlertsSayWhy(t *testing.T) {
	skipped := func(svc model.Service) map[string]string {
		out := map[string]string{}
		for _, s := range gpualerts.NewPlan(svc).Skipped {
			out[s.Alert] = s.Reason
		}
		return out
	}
	vllm, triton, custom := skipped(fixture(t, "vllm")), skipped(fixture(t, "triton")), skipped(fixture(t, "custom"))
	if !strings.Contains(vllm[gpualerts.OOMEvents], "DCGM exports no OOM metric") {
		t.Errorf("vllm OOM skip: %q", vllm[gpualerts.OOMEvents])
	}
	if !strings.Contains(custom[gpualerts.KVCacheHigh], "metrics.kv_cache") ||
		!strings.Contains(custom[gpualerts.Preemptions], "metrics.preemptions") || !strings.Contains(custom[gpualerts.QueueTimeHigh], "metrics.queue") ||
		!strings.Contains(custom[gpualerts.PrefixCacheCold], "metrics.prefix_cache_hits and metrics.prefix_cache_queries") {
		t.Errorf("custom skips %v; want KVCacheHigh, InferencePreemptions, InferenceQueueTimeHigh and PrefixCacheColdStart, each naming its metrics fields", custom)
	}
	// A custom app can have every alert but the log lines', whose lines
	// slogen knows only of the runtimes it ships: each skip names the
	// field to set.
	for alert, why := range custom {
		if _, logged := gpualerts.LogEvents[alert]; !logged && !strings.Contains(why, "metrics.") {
			t.Errorf("custom skips %s without naming the metrics field that gives it: %q", alert, why)
		}
	}
	tgi := skipped(fixture(t, "tgi"))
	if tgi[gpualerts.KVCacheHigh] == "" {
		t.Error("tgi exports no KV cache, yet KVCacheHigh is not skipped")
	}
	if !strings.Contains(tgi[gpualerts.PrefixCacheCold], "tgi exports no prefix-cache hits") || !strings.Contains(triton[gpualerts.PrefixCacheCold], "response cache") {
		t.Errorf("tgi and triton have no prefix-cache metrics, triton's cache is another: %q, %q", tgi[gpualerts.PrefixCacheCold], triton[gpualerts.PrefixCacheCold])
	}
	for _, p := range profile.Runtimes() {
		s := p.Serving
		counts := !s.PrefixCacheHits.IsZero() || !s.PrefixCacheHitRatio.IsZero()
		if why, ok := skipped(fixture(t, p.Runtime))[gpualerts.PrefixCacheCold]; ok == counts {
			t.Errorf("%s counts prefix-cache hits: %v; skips PrefixCacheColdStart: %v %s", p.Runtime, counts, ok, why)
		}
	}
	if !strings.Contains(skipped(fixture(t, "sglang"))[gpualerts.Preemptions], "a gauge") {
		t.Errorf("sglang's retracted-requests gauge is not a preemption counter: %q", skipped(fixture(t, "sglang"))[gpualerts.Preemptions])
	}
}
