package gpualerts

import (
	"fmt"
	"slices"
	"time"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/pql"
	"github.com/slogen-dev/slogen/internal/profile"
)

// The engine's fatal log lines, as the service's OpenTelemetry Collector
// counts them (internal/generate/otelcol, a spec's collector block): one
// alert per line a runtime writes when its engine dies or cannot serve.
// SGLang's "KV cache pool is full" is counted but not alerted on: about
// one a minute is normal under load (SGLang's tuning doc), and the
// retractions it announces are what InferencePreemptions reads.

// LogEvents are the events of profile.LogLine that an alert reads, by
// its name.
var LogEvents = map[string]string{
	CUDAOutOfMemory:     "cuda_oom",
	NCCLTimeout:         "nccl_watchdog_timeout",
	VLLMEngineDead:      "vllm_engine_dead",
	VLLMNoKVCacheMemory: "vllm_no_kv_cache_memory",
	SGLangPrefillOOM:    "sglang_prefill_oom",
}

// LogCountMetric is the count of event's lines as Prometheus stores it:
// the count connector's slogen.log.<event>, a monotonic sum with no unit,
// which the Collector's prometheus exporter (v0.161.0, otlptranslator's
// MetricNamer with suffixes, its default) writes with dots as
// underscores and _total appended.
func LogCountMetric(event string) string { return "slogen_log_" + event + "_total" }

// LogIdentity are a count's labels that name where the line came from:
// the count connector's attributes service.name, k8s.namespace.name and
// k8s.pod.name, as the exporter writes them. They are not the service's
// selector: the Collector, not the runtime, exports the counts.
var LogIdentity = []string{"service_name", "k8s_namespace_name", "k8s_pod_name"}

// logLineMemory is how far back a count's series is looked for: a series
// not seen in the hour before the last HealthWindow is new, so its first
// sample, 1, is a line, which increase() cannot see.
const logLineMemory = time.Hour

// fatalLines are, by alert, the line as its text names it and what the
// line means.
var fatalLines = map[string]struct{ line, means string }{
	VLLMEngineDead:      {"EngineDeadError", "its engine core died and every request fails until the pod restarts; the lines above it in the log name the cause."},
	VLLMNoKVCacheMemory: {"No available memory for the cache blocks", "the engine found no GPU memory left for its KV cache after loading the model, and did not start."},
	SGLangPrefillOOM:    {"Prefill out of memory", "a prefill batch found no room in the KV cache; SGLang asks for a smaller batch."},
	CUDAOutOfMemory:     {"CUDA out of memory", "PyTorch's allocator could not get the GPU memory it asked for."},
	NCCLTimeout:         {"Watchdog caught collective operation timeout", "a collective between its GPUs did not finish in time: a rank is hung or a link is down."},
}

// loggedLine writes the alert on one event's lines: a line counted on a
// pod within HealthWindow. increase() sees the lines of a series that
// existed before; a series that appears at 1 (the exporter writes a count
// only once a line came) is new when it was absent in the hour before.
// Each alert reads one metric, so the `or` of its two halves matches a
// series with itself, never another event's.
func loggedLine(alert string) func(model.Service) (alertDef, *Skip) {
	event := LogEvents[alert]
	return func(svc model.Service) (alertDef, *Skip) {
		if skip := logSkip(svc, alert, event); skip != nil {
			return alertDef{}, skip
		}
		d := lineText(svc, alert)
		d.expr = LoggedLines(svc, alert)
		d.keeps, d.from = LogIdentity, LogCountMetric(event)
		return d, nil
	}
}

// lineText is the text of the alert on a fatal line, naming the pod by
// LogIdentity's labels.
func lineText(svc model.Service, alert string) alertDef {
	l := fatalLines[alert]
	pod := label("k8s_namespace_name") + "/" + label("k8s_pod_name")
	w := genfile.Duration(HealthWindow)
	return alertDef{
		summary:     fmt.Sprintf("a pod logged %q", l.line),
		title:       text("pod %s logged %q", pod, l.line),
		description: text("Pod %s of %s logged %q in the last %s: %s The alert resolves %s after the last such line.", pod, svc.Name, l.line, w, l.means, w),
	}
}

// LineAlert is an alert on a fatal log line for a log store that reads
// the lines themselves, such as Loki's ruler: the name, `for`, labels
// and annotations of the alert on the line's count, which name the pod
// by LogIdentity's labels, and Text, the literal part of the line that
// the Collector's count matches (profile.LogLine).
type LineAlert struct {
	Alert
	Text string
}

// LineAlerts are the alerts on the fatal lines the service's runtime
// writes, in the catalog's order, whether or not a Collector counts
// them. Each fires while its line was logged within HealthWindow.
func LineAlerts(svc model.Service) []LineAlert {
	lines := profile.TelemetryOf(svc.Runtime).FatalLines
	var out []LineAlert
	for _, e := range catalog {
		event, logged := LogEvents[e.name]
		i := slices.IndexFunc(lines, func(l profile.LogLine) bool { return l.Event == event })
		if logged && i >= 0 {
			out = append(out, LineAlert{Alert: lineText(svc, e.name).alert(e, svc), Text: lines[i].Text})
		}
	}
	return out
}

// LoggedLines is what the alert on a fatal log line reads: per pod, the
// lines of its event counted within HealthWindow, or a new series' first
// count; nothing for a pod that logged none. Its count series are
// narrowed by the matchers given (a dashboard's picked pods), so that a
// panel drawing it draws what the alert reads.
func LoggedLines(svc model.Service, alert string, narrow ...*labels.Matcher) pql.Expr {
	count := pql.Metric(LogCountMetric(LogEvents[alert]), append([]*labels.Matcher{pql.Eq("service_name", svc.Name)}, narrow...)...)
	seen := pql.Call("last_over_time", pql.Offset(pql.Range(count, logLineMemory), HealthWindow))
	counted := pql.Or(pql.Gt(pql.Increase(count, HealthWindow), pql.Num(0)), pql.Unless(count, seen))
	return pql.Max(counted, pql.By(LogIdentity...))
}

// logSkip says why the service has no alert on event's lines: no
// Collector counts its logs, or its runtime does not write the line.
func logSkip(svc model.Service, alert, event string) *Skip {
	lines := profile.TelemetryOf(svc.Runtime).FatalLines
	if !slices.ContainsFunc(lines, func(l profile.LogLine) bool { return l.Event == event }) {
		return &Skip{alert, fmt.Sprintf("runtime %s writes no line slogen counts as %s", svc.Runtime, event)}
	}
	if svc.Collector == nil {
		return &Skip{alert, "no OpenTelemetry Collector counts its log lines; add a collector block (docs/traces-logs.md)"}
	}
	return nil
}

// DeadEngineMutes are the lines a dead engine's alert speaks for: vLLM
// logs EngineDeadError after the CUDA OOM or NCCL timeout that killed its
// engine core, so the three alerts fire for one incident. The dead engine
// is what its users feel and what needs a restart; its runbook sends the
// reader to the cause above it in the log. Alertmanager mutes the others
// on the same pod while it fires.
var DeadEngineMutes = map[string][]string{VLLMEngineDead: {CUDAOutOfMemory, NCCLTimeout}}

// HasLogAlert reports whether the service gets the alert on a fatal log
// line: on a Collector's count, or in Loki's ruler (LineAlerts), whose
// alert has the same labels.
func HasLogAlert(svc model.Service, alert string) bool {
	event, ok := LogEvents[alert]
	if ok && svc.Loki != nil {
		return slices.ContainsFunc(LineAlerts(svc), func(a LineAlert) bool { return a.Name == alert })
	}
	return ok && logSkip(svc, alert, event) == nil
}
