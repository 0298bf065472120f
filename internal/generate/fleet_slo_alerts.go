package generate

import (
	"github.com/slogen-dev/slogen/internal/generate/target"
	"github.com/slogen-dev/slogen/internal/plan"
	"github.com/slogen-dev/slogen/internal/plan/rules"
)

// SLOAlertsFile holds, at a fleet's root, the burn-rate and error-budget
// alerts its services share (rules.Shared): one copy for all the services
// whose alerts are the same, instead of one in each rule file.
const SLOAlertsFile = rules.SharedFile

// fleetSLOAlerts writes the alerts the services share, each set once, in
// the order of the first service it watches. The services of a rule
// template share one set, so each template's first service has them all.
func fleetSLOAlerts(f *Fleet, out Files) error {
	var groups []rules.Group
	seen := map[string]bool{}
	for _, t := range f.Templates {
		s := plan.NewIn(f.Spec.Services[t[0]], plan.Fleet).Shared
		if s == nil || seen[s.ID] {
			continue
		}
		seen[s.ID] = true
		groups = append(groups, s.Groups...)
	}
	if len(groups) == 0 {
		return nil
	}
	rf, err := rules.Marshal(rules.File{Groups: groups})
	if err != nil {
		return err
	}
	out[SLOAlertsFile] = rf
	return rootTargetFiles(f, sloAlertsOwner, "slo-alerts.", groups, out)
}

// sloAlertsOwner names the shared alerts' groups where a target needs a
// name, as poolsOwner does the pools'.
const sloAlertsOwner = "fleet.slo-alerts"

// rootTargetFiles wraps groups written at the output's root for the
// target, as a service's are, under prefix: in --namespace or the first
// service's, with its operator labels, named owner.
func rootTargetFiles(f *Fleet, owner, prefix string, groups []rules.Group, out Files) error {
	svc := f.Spec.Services[0]
	svc.Name = owner
	files, err := target.Files(f.Options.target(), svc, target.Groups{Local: groups}, f.Options.Namespace)
	for name, data := range files {
		out[prefix+name] = data
	}
	return err
}
