package rules

import (
	"fmt"
	"maps"
	"slices"

	"github.com/slogen-dev/slogen/internal/promcompat"
)

// Check reports every rule that Prometheus 2.42 would reject: a name or
// label it cannot take, or PromQL it cannot parse. A finding is a slogen
// bug; the build stops before anything is written.
func Check(groups []Group) []error {
	p := promcompat.Parser()
	var errs []error
	for _, g := range groups {
		for i, r := range g.Rules {
			names := slices.Collect(maps.Keys(r.Labels))
			if err := promcompat.CheckRule(p, r.Record, r.Expr, names...); err != nil {
				errs = append(errs, fmt.Errorf("group %q, rule %d: %w", g.Name, i+1, err))
			}
		}
	}
	return errs
}
