package testenv

import (
	"fmt"
	"strings"
)

// TeamsFleet is a CUE spec of n services of the fleet as teams run one,
// written as docs/fleets.md shows: hidden tables of models, tiers and
// per-runtime templates, a hidden table with a row of plain data per
// service, and a comprehension that stamps each row into a service.
func TeamsFleet(n int) []byte {
	var b strings.Builder
	b.WriteString("package slo\n\n// The fleet as teams run one (testenv.TeamsFleet).\n\n")
	writeCUEModels(&b)
	writeCUETiers(&b)
	writeCUERuntimes(&b)
	b.WriteString("// One row per service.\n_services: {\n")
	for _, s := range teamServices(n) {
		fmt.Fprintf(&b, "\t%q: {team: %q, runtime: %q, model: %q, tier: %q, gpu: %q}\n",
			s.name, s.team, s.runtime.name, s.model.key, s.tier.name, s.gpu)
	}
	b.WriteString("}\n\n" + stampServices)
	return []byte(b.String())
}

const stampServices = `services: {
	for name, s in _services {
		(name): _runtimes[s.runtime] & {
			team:  s.team
			model: _models[s.model].name
			selector: {namespace: name, job: "\(s.runtime)-\(name)"}
			gpu: {product: s.gpu, count: _models[s.model].gpus}
			slos: {for sli, objective in _tiers[s.tier] {(sli): "objective": objective}}
		}
	}
}
`

func writeCUEModels(b *strings.Builder) {
	b.WriteString("// What each model is and how many GPUs a replica takes.\n_models: {\n")
	for _, m := range fleetModels {
		fmt.Fprintf(b, "\t%q: {name: %q, gpus: %d}\n", m.key, m.name, m.gpus)
	}
	b.WriteString("}\n\n")
}

func writeCUETiers(b *strings.Builder) {
	b.WriteString("// Each tier's objectives, in percent.\n_tiers: {\n")
	for _, t := range fleetTiers {
		fmt.Fprintf(b, "\t%s: {availability: %g, ttft: %g, latency: %g}\n", t.name, t.availability, t.ttft, t.latency)
	}
	b.WriteString("}\n\n")
}

func writeCUERuntimes(b *strings.Builder) {
	b.WriteString("// What every service of a runtime shares.\n_runtimes: {\n")
	for _, r := range fleetRuntimes {
		fmt.Fprintf(b, "\t%s: {\n\t\truntime: %q\n\t\tslos: {\n\t\t\tttft: threshold:    \"%gs\"\n\t\t\tlatency: threshold: \"%gs\"\n\t\t}\n\t}\n",
			r.name, r.name, r.ttft, r.latency)
	}
	b.WriteString("}\n\n")
}
