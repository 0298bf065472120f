package examples_test

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/klauspost/compress/snappy"
	"github.com/prometheus/prometheus/model/value"
	"github.com/prometheus/prometheus/prompb"
)

// scrapeStep is how far apart the synthetic vLLM's samples lie, as if
// scraped every 15s.
const scrapeStep = 15 * time.Second

// vllm is notifySpec's synthetic vLLM under 10 requests a second, of which the share
// failing gives at a time fail. Failed requests count in
// http_requests_total alone: they never reach the latency histograms.
// Every request that succeeds is fast enough for every SLO. Its pod's GPU
// is seen by a dcgm-exporter, so that the GPU rules are not blind.
type vllm struct {
	labels     [][]prompb.Label
	counts     []func(ok, failed float64) float64
	failing    func(time.Time) float64
	ok, failed float64
	last       time.Time
}

func newVLLM(failing func(time.Time) float64) *vllm {
	v := &vllm{failing: failing}
	add := func(count func(ok, failed float64) float64, pairs ...string) {
		var ls []prompb.Label
		for i := 0; i+1 < len(pairs); i += 2 {
			ls = append(ls, prompb.Label{Name: pairs[i], Value: pairs[i+1]})
		}
		slices.SortFunc(ls, func(a, b prompb.Label) int { return strings.Compare(a.Name, b.Name) })
		v.labels = append(v.labels, ls)
		v.counts = append(v.counts, count)
	}
	good := func(ok, _ float64) float64 { return ok }
	runtime := func(count func(ok, failed float64) float64, name string, pairs ...string) {
		add(count, append(pairs, "__name__", name, "job", chatJob, "namespace", chatNamespace)...)
	}
	runtime(good, "http_requests_total", "status", "2xx")
	runtime(func(_, failed float64) float64 { return failed }, "http_requests_total", "status", "5xx")
	for _, h := range []struct{ name, le string }{{"vllm:e2e_request_latency_seconds", "2.5"}, {"vllm:time_to_first_token_seconds", "1.0"}} {
		runtime(good, h.name+"_bucket", "model_name", chatModel, "le", h.le)
		runtime(good, h.name+"_bucket", "model_name", chatModel, "le", "+Inf")
		runtime(good, h.name+"_count", "model_name", chatModel)
	}
	add(func(_, _ float64) float64 { return 30000 }, "__name__", "DCGM_FI_DEV_FB_USED", "job", "dcgm-exporter",
		"exported_namespace", chatNamespace, "exported_pod", chatPod, "gpu", "0")
	return v
}

// advance counts the requests up to at, at the failing share of at.
func (v *vllm) advance(at time.Time) {
	if !v.last.IsZero() {
		n := 10 * at.Sub(v.last).Seconds()
		f := v.failing(at)
		v.ok += n * (1 - f)
		v.failed += n * f
	}
	v.last = at
}

// samples are the series from one sample every scrapeStep from from, up
// to but not including to.
func (v *vllm) samples(from, to time.Time) []prompb.TimeSeries {
	out := make([]prompb.TimeSeries, len(v.labels))
	for i := range out {
		out[i].Labels = v.labels[i]
	}
	for at := from; at.Before(to); at = at.Add(scrapeStep) {
		v.advance(at)
		for i, count := range v.counts {
			out[i].Samples = append(out[i].Samples, prompb.Sample{Value: count(v.ok, v.failed), Timestamp: at.UnixMilli()})
		}
	}
	return out
}

// stale marks every series stale at at, as a scrape that finds the target
// gone does: the series vanish at once instead of after five minutes.
func (v *vllm) stale(at time.Time) []prompb.TimeSeries {
	out := make([]prompb.TimeSeries, len(v.labels))
	for i := range out {
		out[i] = prompb.TimeSeries{Labels: v.labels[i], Samples: []prompb.Sample{{Value: math.Float64frombits(value.StaleNaN), Timestamp: at.UnixMilli()}}}
	}
	return out
}

// remoteWrite sends series to a Prometheus started with
// --web.enable-remote-write-receiver, in remote write 1.0's wire format.
func remoteWrite(promURL string, series []prompb.TimeSeries) error {
	raw, err := (&prompb.WriteRequest{Timeseries: series}).Marshal()
	if err != nil {
		return err
	}
	req, err := http.NewRequest(http.MethodPost, promURL+"/api/v1/write", bytes.NewReader(snappy.Encode(nil, raw)))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Encoding", "snappy")
	req.Header.Set("Content-Type", "application/x-protobuf")
	req.Header.Set("X-Prometheus-Remote-Write-Version", "0.1.0")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		body, _ := io.ReadAll(resp.Body)
		return fmt.Errorf("remote write: %s: %s", resp.Status, body)
	}
	return nil
}
