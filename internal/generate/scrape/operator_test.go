package scrape

import (
	"fmt"
	"strings"
	"testing"

	monitoringv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/yaml"
)

// decodeMonitors reads a monitors file as kubectl does: with
// sigs.k8s.io/yaml, which reads YAML 1.1, into the operator's types,
// rejecting unknown and duplicate fields. Each object is a *PodMonitor or
// a *ServiceMonitor.
func decodeMonitors(data []byte) ([]any, error) {
	var objs []any
	for _, doc := range strings.Split(string(data), "\n---\n") {
		o, err := decodeMonitor([]byte(doc))
		if err != nil {
			return nil, err
		}
		objs = append(objs, o)
	}
	return objs, nil
}

func decodeMonitor(doc []byte) (any, error) {
	var tm metav1.TypeMeta
	if err := yaml.Unmarshal(doc, &tm); err != nil {
		return nil, err
	}
	if tm.APIVersion != monitoringv1.SchemeGroupVersion.String() {
		return nil, fmt.Errorf("apiVersion %q", tm.APIVersion)
	}
	var o any
	switch tm.Kind {
	case monitoringv1.PodMonitorsKind:
		o = &monitoringv1.PodMonitor{}
	case monitoringv1.ServiceMonitorsKind:
		o = &monitoringv1.ServiceMonitor{}
	default:
		return nil, fmt.Errorf("kind %q is not a PodMonitor or ServiceMonitor", tm.Kind)
	}
	if err := yaml.UnmarshalStrict(doc, o); err != nil {
		return nil, err
	}
	return o, nil
}

// checkMonitor runs the operator's own checks of the endpoints' HTTP
// settings, and Kubernetes's of the object's name.
func checkMonitor(o any) error {
	var name string
	switch m := o.(type) {
	case *monitoringv1.PodMonitor:
		name = m.Name
		for _, e := range m.Spec.PodMetricsEndpoints {
			if err := e.HTTPConfigWithProxy.Validate(); err != nil {
				return err
			}
		}
	case *monitoringv1.ServiceMonitor:
		name = m.Name
		for _, e := range m.Spec.Endpoints {
			if err := e.HTTPConfigWithProxyAndTLSFiles.Validate(); err != nil {
				return err
			}
		}
	}
	if errs := validation.IsDNS1123Subdomain(name); len(errs) > 0 {
		return fmt.Errorf("name %q: %s", name, strings.Join(errs, "; "))
	}
	return nil
}

// TestMonitorsDecodeStrictly reads every monitor of the fixtures and the
// examples back into the operator's types and checks it.
func TestMonitorsDecodeStrictly(t *testing.T) {
	n := 0
	for _, fx := range append(fixtures(t), exampleSpecs(t)...) {
		for name, data := range outputs(t, fx) {
			if !strings.HasSuffix(name, MonitorsFile) {
				continue
			}
			objs, err := decodeMonitors(data)
			if err != nil {
				t.Errorf("%s/%s: %v", fx, name, err)
				continue
			}
			for _, o := range objs {
				if err := checkMonitor(o); err != nil {
					t.Errorf("%s/%s: %v", fx, name, err)
				}
			}
			n += len(objs)
		}
	}
	if n == 0 {
		t.Fatal("no monitors generated")
	}
}

// TestMonitorDecodingCanFail makes sure the reader above rejects a
// misspelled field, and reads an unquoted on as kubectl does: as true.
func TestMonitorDecodingCanFail(t *testing.T) {
	const head = "apiVersion: monitoring.coreos.com/v1\nkind: PodMonitor\nmetadata:\n  name: x\n  labels:\n    release: on\n"
	if _, err := decodeMonitors([]byte(head + "spec:\n  podMetricsEndpoints:\n    - portNumber: 80\n      relabellings: []\n  selector: {}\n")); err == nil {
		t.Error("a misspelled field decoded")
	}
	objs, err := decodeMonitors([]byte(head + "spec:\n  podMetricsEndpoints: []\n  selector: {}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := objs[0].(*monitoringv1.PodMonitor).Labels["release"]; got != "true" {
		t.Errorf("release: on decoded as %q; kubectl reads true", got)
	}
}
