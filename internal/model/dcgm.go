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
	// Matchers select the service's GPUs among dcgm-exporter's series,
	// built once by the spec (BuildMatchers).
	Matchers []*labels.Matcher
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

// BuildMatchers builds the matchers that select the service's GPUs among
// dcgm-exporter's series; it fails on a Pod that is not a regular
// expression. Compiling them is not free, so the spec does it once.
func (d DCGM) BuildMatchers() ([]*labels.Matcher, error) {
	ms := []*labels.Matcher{labels.MustNewMatcher(labels.MatchEqual, "job", d.Job)}
	var gpus *labels.Matcher
	var err error
	switch d.Mapping {
	case MappingHost:
		quoted := make([]string, len(d.Hosts))
		for i, h := range d.Hosts {
			quoted[i] = regexp.QuoteMeta(h)
		}
		gpus, err = labels.NewMatcher(labels.MatchRegexp, "Hostname", strings.Join(quoted, "|"))
	default:
		if d.Namespace != "" {
			ms = append(ms, labels.MustNewMatcher(labels.MatchEqual, d.NamespaceLabel(), d.Namespace))
		}
		gpus, err = labels.NewMatcher(labels.MatchRegexp, d.PodLabel(), d.Pod)
	}
	if err != nil {
		return nil, err
	}
	return append(ms, gpus), nil
}
