package spec

import (
	"maps"
	"slices"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/promcompat"
)

// global checks the external label that tells a service's clusters apart:
// a name Prometheus 2.42 reads, not one slogen sets, and no SLO's
// group_by label, which the global rules keep apart from clusters.
func (r *resolver) global(raw rawService) *model.Global {
	if raw.Global == nil {
		return nil
	}
	l := raw.Global.Label
	at := fields("global", "label")
	switch {
	case !promcompat.LegacyLabelName(l):
		r.errorf(at, "%q is not a label name Prometheus 2.42 can read: letters, digits and underscores, not starting with a digit", l)
	case slices.Contains(reservedLabels, l):
		r.errorf(at, "%q is set by slogen on every recording or alert; name your clusters' external label, such as cluster", l)
	case slices.Contains(r.alertLabels, l):
		r.errorf(at, "%q is also set on every alert by alerting.labels (or team), which would hide the cluster an alert is about; drop it there", l)
	default:
		for _, name := range slices.Sorted(maps.Keys(raw.SLOs)) {
			if slices.Contains(raw.SLOs[name].GroupBy, l) {
				r.errorf(fields("slos", name, "group_by"), "%q is the global label: the SLO already spans every value of it; remove it from group_by", l)
				return nil
			}
		}
		return &model.Global{Label: l}
	}
	return nil
}
