package spec

import (
	"fmt"
	"strings"
	"time"

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
	var measurable []string
	for _, g := range given {
		if p.Histogram(g.kind) != nil {
			measurable = append(measurable, "bounds."+g.field)
		}
	}
	ok, n := true, 0
	for _, g := range given {
		if g.threshold == "" {
			continue
		}
		n++
		atBound := func(...string) []string { return at("bounds", g.field) }
		if p.Histogram(g.kind) == nil {
			r.errorf(atBound(), "%s exports no %s histogram to bound; %s", p.Runtime, g.field, goodputOn(p.Runtime, measurable))
			ok = false
			continue
		}
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
	r.warnRedundantTTFT(bounds, at)
	return bounds, profile.GoodputSLI(parts), true
}

// goodputOn says which bounds a runtime's goodput SLO can take.
func goodputOn(runtime string, measurable []string) string {
	if len(measurable) < 2 {
		return fmt.Sprintf("%s cannot measure goodput, which needs two of them; write a latency SLO of the kind it has", runtime)
	}
	return fmt.Sprintf("a goodput SLO on %s takes %s", runtime, strings.Join(measurable, " and "))
}

// warnRedundantTTFT warns of an e2e bound no longer than the ttft bound: a
// request over the ttft bound is over the e2e one too, so it counts twice
// and the ttft bound adds nothing.
func (r *resolver) warnRedundantTTFT(bounds []model.Bound, at func(...string) []string) {
	var ttft, e2e time.Duration
	for _, b := range bounds {
		switch b.Kind {
		case model.TTFT:
			ttft = b.Threshold
		case model.Latency:
			e2e = b.Threshold
		}
	}
	if ttft > 0 && e2e > 0 && e2e <= ttft {
		r.warnf(at("bounds", "e2e"), "e2e %s is no longer than ttft %s, so every request over the ttft bound is over the e2e one too and counts twice; raise e2e above ttft, or drop one", e2e, ttft)
	}
}
