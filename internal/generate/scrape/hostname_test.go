package scrape

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/testenv"
)

// A real Prometheus 2.42 scrapes, with slogen's dcgm-exporter job, two
// exporters: one labels its GPUs Hostname (4.x), the other hostname (its
// main branch). Both reach the rules as Hostname, which host mapping
// matches.
func TestHostMappingReadsEitherHostLabel(t *testing.T) {
	exporter := func(label, host string) string {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			fmt.Fprintf(w, "DCGM_FI_DEV_FB_USED{gpu=\"0\",%s=%q} 1000\n", label, host)
		}))
		t.Cleanup(srv.Close)
		return strings.TrimPrefix(srv.URL, "http://")
	}
	svcs := services(t, "static.cue")
	jobs, err := DCGM(svcs)
	if err != nil {
		t.Fatal(err)
	}
	job := jobs.jobs["job/"+svcs[0].DCGM.Job]
	job.StaticConfigs = []StaticConfig{{Targets: []string{exporter("Hostname", "gpu-node-1"), exporter("hostname", "gpu-node-2")}}}
	job.ScrapeInterval = "1s"
	cfg, err := genfile.MarshalYAML(Config{ScrapeConfigs: []ScrapeConfig{job}})
	if err != nil {
		t.Fatal(err)
	}
	prom := testenv.StartPrometheus(t, t.TempDir(), string(cfg))
	query := fmt.Sprintf("count(DCGM_FI_DEV_FB_USED{%s})", svcs[0].DCGM.Matchers[len(svcs[0].DCGM.Matchers)-1])
	deadline := time.Now().Add(20 * time.Second)
	for {
		if n := count(t, prom.URL, query); n == 2 {
			return
		} else if time.Now().After(deadline) {
			t.Fatalf("%s = %d after 20s, want both exporters' GPUs\n%s", query, n, prom.Log())
		}
		time.Sleep(500 * time.Millisecond)
	}
}

// count is the value of a query returning one number, 0 when empty.
func count(t *testing.T, base, query string) int {
	t.Helper()
	resp, err := http.Get(base + "/api/v1/query?query=" + url.QueryEscape(query))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r struct {
		Data struct {
			Result []struct {
				Value [2]any `json:"value"`
			} `json:"result"`
		} `json:"data"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatal(err)
	}
	if len(r.Data.Result) == 0 {
		return 0
	}
	var n int
	fmt.Sscan(r.Data.Result[0].Value[1].(string), &n)
	return n
}
