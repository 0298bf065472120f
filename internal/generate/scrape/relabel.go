package scrape

import (
	"regexp"
	"strconv"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/model"
)

// podRelabeling keeps the endpoint's pods and port and names the target by
// namespace, pod and container: the labels the pod mapping renames on
// dcgm-exporter's series unless honor_labels is set.
func podRelabeling(e model.Endpoint) []RelabelConfig {
	rs := selectPods(e, "__meta_kubernetes_pod_name", "__meta_kubernetes_pod_label_")
	rs = append(rs, selectPort(e, "__meta_kubernetes_pod_container_port_name", "__meta_kubernetes_pod_container_port_number"))
	rs = append(rs,
		// Pods that finished or never started have no endpoint to scrape.
		RelabelConfig{SourceLabels: []string{"__meta_kubernetes_pod_phase"}, Regex: "Pending|Succeeded|Failed", Action: "drop"},
		RelabelConfig{SourceLabels: []string{"__meta_kubernetes_namespace"}, TargetLabel: "namespace"},
		RelabelConfig{SourceLabels: []string{"__meta_kubernetes_pod_name"}, TargetLabel: "pod"},
		RelabelConfig{SourceLabels: []string{"__meta_kubernetes_pod_container_name"}, TargetLabel: "container"},
		RelabelConfig{SourceLabels: []string{"__meta_kubernetes_pod_node_name"}, TargetLabel: "node"},
	)
	return append(rs, constantLabels(e.Labels)...)
}

// selectPods keeps targets whose pod name matches PodName, or whose
// labels equal MatchLabels.
func selectPods(e model.Endpoint, nameLabel, labelPrefix string) []RelabelConfig {
	var rs []RelabelConfig
	if e.PodName != "" {
		rs = append(rs, RelabelConfig{SourceLabels: []string{nameLabel}, Regex: e.PodName, Action: "keep"})
	}
	for _, l := range e.MatchLabels {
		rs = append(rs, RelabelConfig{SourceLabels: []string{labelPrefix + metaName(l.Name)}, Regex: regexp.QuoteMeta(l.Value), Action: "keep"})
	}
	return rs
}

// selectPort keeps the container port by name when the spec names it,
// else by number.
func selectPort(e model.Endpoint, nameLabel, numberLabel string) RelabelConfig {
	if e.PortName != "" {
		return RelabelConfig{SourceLabels: []string{nameLabel}, Regex: regexp.QuoteMeta(e.PortName), Action: "keep"}
	}
	return RelabelConfig{SourceLabels: []string{numberLabel}, Regex: strconv.Itoa(e.Port), Action: "keep"}
}

func constantLabels(ls []labels.Label) []RelabelConfig {
	var rs []RelabelConfig
	for _, l := range ls {
		rs = append(rs, RelabelConfig{TargetLabel: l.Name, Replacement: l.Value})
	}
	return rs
}

var metaUnsafe = regexp.MustCompile(`[^a-zA-Z0-9_]`)

// metaName is how Kubernetes discovery spells a label key in a meta label:
// app.kubernetes.io/name becomes app_kubernetes_io_name.
func metaName(key string) string { return metaUnsafe.ReplaceAllString(key, "_") }
