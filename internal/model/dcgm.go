package model

import (
	"regexp"
	"strings"

	"github.com/prometheus/prometheus/model/labels"
)

// GPU mappings: how a service's GPUs are found among dcgm-exporter series.
const (
	MappingPod  = "pod"  // Kubernetes pod mapping: pod and namespace labels
	MappingHost = "host" // outside Kubernetes: the Hostname label
)

// DCGM says where the service's GPU series come from.
type DCGM struct {
	Job     string
	Mapping string
	// Pod is a regular expression matching the service's pods (pod mapping).
	Pod string
	// Namespace is the service's namespace (pod mapping).
	Namespace string
	// Hosts are the GPU hosts (host mapping).
	Hosts       []string
	HonorLabels bool
}

// PodLabel and NamespaceLabel are the names the pod mapping's labels have
// after the scrape: dcgm-exporter's pod and namespace clash with the
// target's, so without honor_labels Prometheus prefixes them exported_.
func (d DCGM) PodLabel() string {
	if d.HonorLabels {
		return "pod"
	}
	return "exported_pod"
}

// NamespaceLabel: see PodLabel.
func (d DCGM) NamespaceLabel() string {
	if d.HonorLabels {
		return "namespace"
	}
	return "exported_namespace"
}

// Matchers select the service's GPUs among dcgm-exporter's series.
func (d DCGM) Matchers() []*labels.Matcher {
	ms := []*labels.Matcher{labels.MustNewMatcher(labels.MatchEqual, "job", d.Job)}
	switch d.Mapping {
	case MappingHost:
		quoted := make([]string, len(d.Hosts))
		for i, h := range d.Hosts {
			quoted[i] = regexp.QuoteMeta(h)
		}
		ms = append(ms, labels.MustNewMatcher(labels.MatchRegexp, "Hostname", strings.Join(quoted, "|")))
	default:
		if d.Namespace != "" {
			ms = append(ms, labels.MustNewMatcher(labels.MatchEqual, d.NamespaceLabel(), d.Namespace))
		}
		ms = append(ms, labels.MustNewMatcher(labels.MatchRegexp, d.PodLabel(), d.Pod))
	}
	return ms
}
