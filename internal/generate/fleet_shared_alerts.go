package generate

import (
	"errors"
	"strings"

	"github.com/slogen-dev/slogen/internal/generate/target"
	"github.com/slogen-dev/slogen/internal/plan"
	"github.com/slogen-dev/slogen/internal/plan/rules"
)

// SLOAlertsFile holds, at a fleet's root, the burn-rate and error-budget
// alerts its services share (rules.Shared): one copy for all the services
// whose alerts are the same, instead of one in each rule file.
// ServingAlertsFile holds likewise the serving alerts that read only
// recordings.
const (
	SLOAlertsFile     = rules.SharedFile
	ServingAlertsFile = rules.ServingFile
)

// sharedAlerts is one file of shared alerts: which of a service's plans
// they are, and the owner its groups are named by where a target needs a
// name, as poolsOwner does the pools'.
type sharedAlerts struct {
	file, owner string
	of          func(*plan.Service) *rules.Shared
}

var (
	sloAlerts     = sharedAlerts{SLOAlertsFile, "fleet.slo-alerts", func(p *plan.Service) *rules.Shared { return p.Shared }}
	servingAlerts = sharedAlerts{ServingAlertsFile, "fleet.serving-alerts", func(p *plan.Service) *rules.Shared { return p.Serving }}
)

// fleetSharedAlerts writes the alerts the services share, each file's.
func fleetSharedAlerts(f *Fleet, out Files) error {
	return errors.Join(sloAlerts.write(f, out), servingAlerts.write(f, out))
}

// write writes the alerts the services share, each set once, in the
// order of the first service it watches. The services of a rule template
// share one set, so each template's first service has them all.
func (a sharedAlerts) write(f *Fleet, out Files) error {
	var groups []rules.Group
	seen := map[string]bool{}
	for _, t := range f.Templates {
		s := a.of(plan.NewIn(f.Spec.Services[t[0]], plan.Fleet))
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
	out[a.file] = rf
	return rootTargetFiles(f, a.owner, strings.TrimSuffix(a.file, "yaml"), groups, out)
}

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
