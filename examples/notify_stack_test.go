package examples_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	"go.yaml.in/yaml/v3"

	"github.com/slogen-dev/slogen/internal/testenv"
)

// notification is what Alertmanager's webhook integration posts: one
// notification to one receiver, about the alerts of one group.
type notification struct {
	Receiver string `json:"receiver"`
	Status   string `json:"status"`
	GroupKey string `json:"groupKey"`
	Alerts   []struct {
		Status string            `json:"status"`
		Labels map[string]string `json:"labels"`
	} `json:"alerts"`
	at time.Time
}

func (n notification) String() string {
	var alerts []string
	for _, a := range n.Alerts {
		alerts = append(alerts, fmt.Sprintf("%s{slo=%q,tier=%q} %s", a.Labels["alertname"], a.Labels["slo"], a.Labels["tier"], a.Status))
	}
	return fmt.Sprintf("%s %s to %s, group %s: %s", n.at.Format("15:04:05.000"), strings.ToUpper(n.Status), n.Receiver, n.GroupKey, strings.Join(alerts, ", "))
}

// webhook records every notification Alertmanager sends it.
type webhook struct {
	url string
	mu  sync.Mutex
	got []notification
}

func newWebhook(t *testing.T) *webhook {
	h := &webhook{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var n notification
		if err := json.NewDecoder(r.Body).Decode(&n); err != nil {
			t.Errorf("webhook: %v", err)
		}
		n.at = time.Now()
		h.mu.Lock()
		h.got = append(h.got, n)
		h.mu.Unlock()
	}))
	t.Cleanup(srv.Close)
	h.url = srv.URL
	return h
}

// to are the notifications to a receiver so far.
func (h *webhook) to(receiver string) []notification {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []notification
	for _, n := range h.got {
		if n.Receiver == receiver {
			out = append(out, n)
		}
	}
	return out
}

// first waits for the receiver's first notification, or fails the test.
func (h *webhook) first(t *testing.T, receiver string, limit time.Duration) notification {
	t.Helper()
	for deadline := time.Now().Add(limit); time.Now().Before(deadline); time.Sleep(time.Second) {
		if got := h.to(receiver); len(got) > 0 {
			return got[0]
		}
	}
	t.Fatalf("no notification to %s within %s", receiver, limit)
	return notification{}
}

// stack is one scenario's Prometheus and Alertmanager, the latter with
// the generated alertmanager.yaml, and the webhook its receivers post to.
type stack struct {
	prom  *testenv.Prometheus
	am    *testenv.Alertmanager
	hook  *webhook
	api   v1.API
	rules string
}

// startStack starts Prometheus without rules, ready to take history by
// remote write before loadRules gives it the generated rules.
func startStack(t *testing.T, generated map[string][]byte) *stack {
	dir := t.TempDir()
	s := &stack{hook: newWebhook(t), rules: filepath.Join(dir, "rules")}
	for _, d := range []string{s.rules, filepath.Join(dir, "am")} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	s.am = testenv.StartAlertmanager(t, filepath.Join(dir, "am"), withWebhooks(t, generated["alertmanager.yaml"], s.hook.url))
	s.prom = testenv.StartPrometheus(t, dir, fmt.Sprintf(`global: {evaluation_interval: 15s}
rule_files: [%q]
alerting:
  alertmanagers: [{static_configs: [{targets: [%q]}]}]
`, filepath.Join(s.rules, "*.yaml"), strings.TrimPrefix(s.am.URL, "http://")), "--web.enable-remote-write-receiver", "--web.enable-lifecycle")
	s.api = promAPI(t, s.prom.URL)
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("prometheus log:\n%s\nalertmanager log:\n%s", s.prom.Log(), s.am.Log())
		}
	})
	return s
}

// withWebhooks is the generated Alertmanager config as it is, but that
// every receiver posts its notifications, resolved ones too, to url.
func withWebhooks(t *testing.T, generated []byte, url string) string {
	t.Helper()
	var cfg map[string]any
	if err := yaml.Unmarshal(generated, &cfg); err != nil {
		t.Fatal(err)
	}
	receivers, _ := cfg["receivers"].([]any)
	for _, r := range receivers {
		r.(map[string]any)["webhook_configs"] = []any{map[string]any{"url": url, "send_resolved": true}}
	}
	out, err := yaml.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// loadRules gives Prometheus the generated rule files, as a deployment
// would: the rules start now.
func (s *stack) loadRules(t *testing.T, generated map[string][]byte) time.Time {
	t.Helper()
	for path, data := range generated {
		if name := filepath.Base(path); strings.HasSuffix(name, "rules.yaml") {
			if err := os.WriteFile(filepath.Join(s.rules, strings.ReplaceAll(path, "/", "-")), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := s.prom.Reload(); err != nil {
		t.Fatal(err)
	}
	return time.Now()
}

// history writes v's samples from from to to in half-hour batches, in
// time order across all series: the head refuses a sample more than an
// hour older than its newest.
func (s *stack) history(t *testing.T, v *vllm, from, to time.Time) {
	t.Helper()
	for at := from; at.Before(to); at = at.Add(30 * time.Minute) {
		end := at.Add(30 * time.Minute)
		if end.After(to) {
			end = to
		}
		if err := remoteWrite(s.prom.URL, v.samples(at, end)); err != nil {
			t.Fatal(err)
		}
	}
}

// live writes v's samples as the time passes, one every scrapeStep,
// until the test ends.
func (s *stack) live(t *testing.T, v *vllm) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		tick := time.NewTicker(scrapeStep)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case now := <-tick.C:
				if err := remoteWrite(s.prom.URL, v.samples(now, now.Add(time.Millisecond))); err != nil {
					t.Errorf("live samples: %v", err)
				}
			}
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
}
