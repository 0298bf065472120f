// Package ruletemplate finds the services of a fleet whose rule files are
// one template: equal once each service's identity (its name, team, model
// and selector values, which only label or select) is set aside. The
// output then holds one set of tests per template, run against the
// template's first service, and a record (rule-templates.yaml) of which
// services are instances of which template; Verify proves, from the
// parsed rule files, that each is.
package ruletemplate

import (
	"maps"
	"slices"

	"github.com/slogen-dev/slogen/internal/model"
)

// Identity is what tells a service from the other instances of its
// template.
type Identity struct {
	Team     string            `yaml:"team,omitempty"`
	Model    string            `yaml:"model,omitempty"`
	Selector map[string]string `yaml:"selector,omitempty"`
}

// IdentityOf is the service's identity.
func IdentityOf(svc model.Service) Identity {
	sel := make(map[string]string, len(svc.Selector))
	for _, l := range svc.Selector {
		sel[l.Name] = l.Value
	}
	return Identity{Team: svc.Team, Model: svc.Model, Selector: sel}
}

// values are the identity of the named service, in a fixed order: its
// name, team, model, then its selector's values by label name. A value's
// position is what it is set aside as, so two services' rule files
// compare equal only when their identities sit in the same places.
func (id Identity) values(name string) []string {
	v := []string{name, id.Team, id.Model}
	for _, k := range slices.Sorted(maps.Keys(id.Selector)) {
		v = append(v, id.Selector[k])
	}
	return v
}

// names say what each of values is, for messages.
func (id Identity) names() []string {
	return append([]string{"service", "team", "model"}, slices.Sorted(maps.Keys(id.Selector))...)
}
