package spec

import (
	"slices"

	"github.com/prometheus/prometheus/model/labels"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/profile"
)

// loki reads the opt-in loki block: the service's log streams are its
// pods (dcgm.pod, or pods named after the service) in the selector's
// namespace, of the selector's container where it names one, under the
// log agent's label names.
func (r *resolver) loki(svc model.Service, raw rawService) *model.Loki {
	if raw.Loki == nil {
		return nil
	}
	if len(profile.TelemetryOf(svc.Runtime).FatalLines) == 0 {
		r.notef(fields("loki"), "runtime %q writes no fatal line slogen knows: loki-rules.yaml gets nothing for it", svc.Runtime)
	}
	names := raw.Loki.Labels
	l := &model.Loki{Namespace: names.Namespace, Pod: names.Pod}
	if ns := raw.Selector["namespace"]; ns != "" {
		l.Streams = append(l.Streams, labels.MustNewMatcher(labels.MatchEqual, names.Namespace, ns))
	}
	pod := raw.DCGM.Pod
	if pod == "" {
		pod = defaultPod(svc.Name)
	}
	m, err := labels.NewMatcher(labels.MatchRegexp, names.Pod, pod)
	if err != nil {
		if raw.DCGM.Mapping == model.MappingHost { // else dcgm's own check names it
			r.errorf(fields("dcgm", "pod"), "not a regular expression: %v", err)
		}
		return nil
	}
	l.Streams = append(l.Streams, m)
	if c := raw.Selector["container"]; c != "" {
		l.Streams = append(l.Streams, labels.MustNewMatcher(labels.MatchEqual, names.Container, c))
	}
	if !slices.ContainsFunc(l.Streams, func(m *labels.Matcher) bool { return !m.Matches("") }) {
		r.errorf(fields("dcgm", "pod"), "%q matches an empty pod name, and neither selector.namespace nor selector.container narrows the log streams: Loki refuses a stream selector that matches everything; set selector: namespace, or a pod pattern such as %q", pod, defaultPod(svc.Name))
	}
	return l
}
