package gpualerts

import (
	"fmt"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
)

// ref is annotation template text, written as is. text escapes every
// other string it formats, so that a spec value cannot run as a template.
type ref string

// text formats an annotation: refs stay templates, strings are escaped.
func text(format string, args ...any) string {
	out := make([]any, len(args))
	for i, a := range args {
		switch v := a.(type) {
		case ref:
			out[i] = string(v)
		case string:
			out[i] = rules.EscapeTemplate(v)
		default:
			out[i] = a
		}
	}
	return fmt.Sprintf(format, out...)
}

// label is a label of the firing alert, as its annotations name it.
func label(name string) ref { return ref("{{ $labels." + name + " }}") }

// The alert's value as its annotations write it: a 0–1 ratio as a
// percentage (0.975 is 97.5%), or a number to four significant digits.
// Both functions are in Prometheus 2.42's templates and later ones.
const (
	valuePercent ref = "{{ $value | humanizePercentage }}"
	valueNumber  ref = "{{ $value | humanize }}"
)

// gpuName names the GPU a per-GPU alert is about by the labels it keeps:
// the pod it serves, or the host it is in.
func gpuName(svc model.Service) ref {
	if svc.DCGM.Mapping == model.MappingHost {
		return "GPU " + label("gpu") + " on " + label("Hostname")
	}
	return "GPU " + label("gpu") + " of pod " + label(svc.DCGM.NamespaceLabel()) + "/" + label(svc.DCGM.PodLabel())
}

// replicaName names the replica a per-replica alert is about: its pod
// where Kubernetes discovers it, else its scrape target.
func replicaName(svc model.Service) ref {
	if svc.Scrape.Mode == model.ScrapeStatic {
		return "replica " + label("instance")
	}
	return "pod " + label("pod")
}
