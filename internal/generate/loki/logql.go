package loki

import (
	"strconv"
	"strings"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
)

// The labels the Prometheus version's alerts name the pod by: the
// Collector's count's k8s.namespace.name and k8s.pod.name, as its
// exporter writes them (gpualerts.LogIdentity).
const (
	namespaceLabel = "k8s_namespace_name"
	podLabel       = "k8s_pod_name"
)

// Expr is the LogQL of an alert on text: the service's pods that logged
// a line holding text within gpualerts.HealthWindow, one series per pod,
// labelled as the Prometheus version's:
//
//	sum by (k8s_namespace_name, k8s_pod_name) (count_over_time({namespace="ns", pod=~"svc-.*"}
//	  |= "text" | label_format k8s_namespace_name=namespace, k8s_pod_name=pod [10m])) > 0
//
// text is matched as it is, not as a regular expression (|=), so only
// LogQL's string quoting applies to it; the pod pattern is RE2 already.
func Expr(l model.Loki, text string) string {
	var b strings.Builder
	b.WriteString("sum by (" + namespaceLabel + ", " + podLabel + ") (count_over_time(")
	b.WriteString(selector(l.Streams))
	b.WriteString(" |= " + quote(text))
	b.WriteString(renames(l))
	b.WriteString(" [" + genfile.Duration(gpualerts.HealthWindow) + "])) > 0")
	return b.String()
}

// selector is a LogQL stream selector.
func selector(ms []*labels.Matcher) string {
	parts := make([]string, len(ms))
	for i, m := range ms {
		parts[i] = m.Name + m.Type.String() + quote(m.Value)
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// quote writes s as a LogQL string: Loki's lexer unquotes double-quoted
// strings with Go's escapes (grafana/loki pkg/logql/syntax/lex.go,
// strutil.Unquote), so a quote or backslash in s stays itself.
func quote(s string) string { return strconv.Quote(s) }

// renames gives the pod's stream labels the Prometheus version's names;
// none where the log agent already writes those.
func renames(l model.Loki) string {
	var rs []string
	for _, r := range [][2]string{{namespaceLabel, l.Namespace}, {podLabel, l.Pod}} {
		if r[0] != r[1] {
			rs = append(rs, r[0]+"="+r[1])
		}
	}
	if len(rs) == 0 {
		return ""
	}
	return " | label_format " + strings.Join(rs, ", ")
}
