// Package generate runs every output generator over a validated spec and
// returns the files to write, keyed by their path under the output
// directory. It writes nothing itself.
package generate

import (
	"errors"
	"fmt"
	"path"

	"github.com/slogen-dev/slogen/generate/rules"
	"github.com/slogen-dev/slogen/generate/ruletests"
	"github.com/slogen-dev/slogen/model"
	"github.com/slogen-dev/slogen/promcompat"
)

// Files maps a slash-separated path under the output directory to content.
type Files map[string][]byte

// Paths of a service's outputs, under the output directory.
const (
	RulesFile     = "rules.yaml"
	RuleTestsFile = "rules_test.yaml"
)

// ServiceDir is the directory holding one service's outputs. Service
// names are DNS labels (checked by spec), so it never leaves the output
// directory.
func ServiceDir(svc model.Service) string { return svc.Name }

// stage generates some of one service's files.
type stage func(svc model.Service, out Files) error

// stages run in order for every service.
var stages = []stage{
	ruleFiles, // the rule file and its promtool tests
}

// Build generates every file for every service.
func Build(spec model.Spec) (Files, error) {
	out := Files{}
	var errs []error
	for _, svc := range spec.Services {
		for _, st := range stages {
			if err := st(svc, out); err != nil {
				errs = append(errs, fmt.Errorf("service %s: %w", svc.Name, err))
			}
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	return out, nil
}

// ruleFiles writes the rule file, checked as Prometheus 2.42 would read it
// (a failure is a slogen bug, and nothing is written), and its tests.
func ruleFiles(svc model.Service, out Files) error {
	rf, err := rules.Marshal(rules.File{Groups: rules.Build(svc)})
	if err != nil {
		return err
	}
	if errs := promcompat.CheckRules(RulesFile, rf); len(errs) > 0 {
		return fmt.Errorf("slogen wrote an invalid rule file (a bug; please report it): %w", errors.Join(errs...))
	}
	out[path.Join(ServiceDir(svc), RulesFile)] = rf
	tests := ruletests.Build(svc, RulesFile)
	if len(tests.Tests) == 0 {
		return nil
	}
	tf, err := ruletests.Marshal(tests)
	if err != nil {
		return err
	}
	out[path.Join(ServiceDir(svc), RuleTestsFile)] = tf
	return nil
}
