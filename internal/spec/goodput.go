package spec

import (
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/profile"
)

// goodput resolves a goodput SLO's bounds, each checked as a latency SLO
// of its kind would be, and bounds its bad requests by theirs.
func (r *resolver) goodput(raw rawBounds, p profile.Profile, scope profile.Scope, at func(...string) []string) ([]model.Bound, model.SLI, bool) {
	given := []struct {
		field, threshold string
		kind             model.Kind
	}{{"ttft", raw.TTFT, model.TTFT}, {"tpot", raw.TPOT, model.TPOT}, {"e2e", raw.E2E, model.Latency}}
	var bounds []model.Bound
	var parts []model.SLI
	ok, n := true, 0
	for _, g := range given {
		if g.threshold == "" {
			continue
		}
		n++
		atBound := func(...string) []string { return at("bounds", g.field) }
		d, sli, resolved := r.latency(g.kind, g.threshold, p, scope, atBound)
		if !resolved {
			ok = false
			continue
		}
		bounds = append(bounds, model.Bound{Kind: g.kind, Threshold: d})
		parts = append(parts, sli)
	}
	if n < 2 {
		r.errorf(at("bounds"), `a goodput SLO needs at least two of bounds.ttft, bounds.tpot and bounds.e2e, e.g. bounds: {ttft: "1s", tpot: "50ms"}; with one, write a ttft, tpot or latency SLO`)
		return nil, model.SLI{}, false
	}
	if !ok {
		return nil, model.SLI{}, false
	}
	return bounds, profile.GoodputSLI(parts), true
}
