package runbooks

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
)

// facts are what a fleet's runbook may head a part of a section with, to
// tell services whose sections differ apart: what a spec sets besides the
// identity, each written as the heading writes it. A fact's key starts
// with its tier: what the runtime reads first (runtime, model, selector),
// then the alerts' settings, then the objectives; a heading names facts
// of the first tiers that tell the parts apart.
type facts map[string]string

func factsOf(svc model.Service) facts {
	f := facts{"1 runtime": svc.Runtime}
	if svc.Model == "" {
		f["1 model"] = "no `model`"
	}
	var labels []string
	for _, l := range svc.Selector {
		labels = append(labels, l.Name)
		if l.Value == svc.Name {
			f["1 selector "+l.Name] = fmt.Sprintf("`%s` named as the service", l.Name)
		}
	}
	f["1 selector"] = "selector " + list(labels)
	for name, v := range thresholds(svc.Thresholds) {
		f["2 threshold "+name] = fmt.Sprintf("`%s` %v", name, v)
	}
	a := svc.Alerting
	f["2 severities"] = fmt.Sprintf("pages `%s`, tickets `%s`", a.PageSeverity, a.TicketSeverity)
	if len(a.PageOn) > 0 {
		f["2 page_on"] = "paging on " + list(a.PageOn)
	}
	if svc.Global != nil {
		f["2 global"] = "across clusters by `" + svc.Global.Label + "`"
	}
	for _, slo := range svc.SLOs {
		text := fmt.Sprintf("`%s` %s%%", slo.Name, rules.Percent(slo.Objective))
		if slo.Threshold > 0 {
			text += " within " + slo.Threshold.String()
		}
		f["3 slo "+slo.Name] = text
	}
	return f
}

const tiers = 3

// thresholds are the spec's thresholds by their field's name in the spec.
func thresholds(t model.Thresholds) map[string]any {
	data, _ := json.Marshal(t) // a struct of numbers always marshals
	var out map[string]any
	_ = json.Unmarshal(data, &out)
	return out
}

// headings head each of several parts of a section, by the facts of the
// first service of each: those that are not the same in every part, of
// as few tiers as tell every part from the others. Parts that no fact
// tells apart are headed by their variants (see RenderFleet) too.
func headings(of []facts, variants [][]int) []string {
	var out []string
	for tier := 1; tier <= tiers; tier++ {
		out = headingsUpTo(of, differing(of, tier))
		if distinct(out) {
			return out
		}
	}
	seen := map[string]int{}
	for _, h := range out {
		seen[h]++
	}
	for i, h := range out {
		if h == "" || seen[h] > 1 {
			out[i] = strings.TrimPrefix(h+", "+variantsText(variants[i]), ", ")
		}
	}
	return out
}

// differing are the keys, up to the tier and in order, of facts that are
// not the same in every part.
func differing(of []facts, tier int) []string {
	keys := map[string]bool{}
	for _, f := range of {
		for k := range f {
			if k[0]-'0' <= byte(tier) {
				keys[k] = true
			}
		}
	}
	var out []string
	for _, k := range slices.Sorted(maps.Keys(keys)) {
		if slices.ContainsFunc(of, func(f facts) bool { return f[k] != of[0][k] }) {
			out = append(out, k)
		}
	}
	return out
}

func headingsUpTo(of []facts, keys []string) []string {
	out := make([]string, len(of))
	for i, f := range of {
		var texts []string
		for _, k := range keys {
			if f[k] != "" {
				texts = append(texts, f[k])
			}
		}
		out[i] = strings.Join(texts, ", ")
	}
	return out
}

// distinct reports headings that are all set and all different.
func distinct(headings []string) bool {
	seen := map[string]bool{}
	for _, h := range headings {
		if h == "" || seen[h] {
			return false
		}
		seen[h] = true
	}
	return true
}

// variantsText names a part's variants: variant 2, variants 1 and 3.
func variantsText(numbers []int) string {
	words := make([]string, len(numbers))
	for i, n := range numbers {
		words[i] = fmt.Sprint(n)
	}
	if len(words) == 1 {
		return "variant " + words[0]
	}
	return "variants " + strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}
