package initspec

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"sort"
	"strings"

	v1 "github.com/prometheus/client_golang/api/prometheus/v1"
	pmodel "github.com/prometheus/common/model"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/profile"
)

// kinds are the SLO kinds init proposes, in the order a spec lists them.
var kinds = append([]model.Kind{model.Availability}, model.LatencyKinds...)

// runtimes are the runtime table's entries whose metrics slogen knows.
func runtimes() []profile.Profile {
	return slices.DeleteFunc(profile.Runtimes(), func(p profile.Profile) bool { return p.Runtime == profile.CustomRuntime })
}

// reads are the metric families an entry's SLOs read, classic
// histograms by their _count and _bucket series; native histograms have
// no family of their own to tell them by.
func reads(p profile.Profile) []profile.Selector {
	var out []profile.Selector
	for _, k := range kinds {
		for _, sel := range p.Reads(k) {
			if !sel.Native {
				out = append(out, sel)
			}
		}
	}
	return out
}

// readers maps each family to the runtimes that read it.
func readers() map[string][]string {
	m := map[string][]string{}
	for _, p := range runtimes() {
		for _, sel := range reads(p) {
			if !slices.Contains(m[sel.Name], p.Runtime) {
				m[sel.Name] = append(m[sel.Name], p.Runtime)
			}
		}
	}
	return m
}

// findQuery groups the series of every family the table reads by what
// tells services apart.
func findQuery(families []string) string {
	quoted := make([]string, len(families))
	for i, f := range families {
		quoted[i] = regexp.QuoteMeta(f)
	}
	by := []string{"__name__", "job", "namespace", "pod", "instance"}
	for _, p := range runtimes() {
		if p.ModelLabel != "" && !slices.Contains(by, p.ModelLabel) {
			by = append(by, p.ModelLabel)
		}
	}
	return fmt.Sprintf("group by (%s) ({__name__=~%q})", strings.Join(by, ", "), strings.Join(quoted, "|"))
}

// find asks for every family the runtime table reads and tells, per
// scrape job and namespace, which runtime exports them: the entry with
// the most of its own families present (tells).
func find(ctx context.Context, prom v1.API, o Options) ([]Service, error) {
	who := readers()
	// A histogram's _count tells it as well as its _bucket series, of
	// which there are a dozen or more times as many.
	families := slices.DeleteFunc(slices.Sorted(maps.Keys(who)), func(f string) bool { return strings.HasSuffix(f, "_bucket") })
	progress(o, "looking for the %d metric families of %d runtimes", len(families), len(profile.Names())-1) // custom reads none
	v, _, _, err := prom.Query(ctx, findQuery(families), o.Now)
	if err != nil {
		return nil, err
	}
	vec, _ := v.(pmodel.Vector)
	byTarget := map[Target][]pmodel.Metric{}
	for _, s := range vec {
		t := Target{Job: string(s.Metric["job"]), Namespace: string(s.Metric["namespace"])}
		byTarget[t] = append(byTarget[t], s.Metric)
	}
	var found []Service
	for _, t := range sortedTargets(byTarget) {
		found = append(found, servicesOf(t, byTarget[t], who)...)
	}
	if len(found) == 0 {
		return nil, fmt.Errorf("%w: looked for %s and %d more families", ErrNothingFound, strings.Join(families[:3], ", "), len(families)-3)
	}
	name(found)
	return found, nil
}

// servicesOf are the services of one target: one per model its runtime's
// families carry, or one when they carry none.
func servicesOf(t Target, rows []pmodel.Metric, who map[string][]string) []Service {
	present := map[string]bool{}
	for _, m := range rows {
		present[string(m["__name__"])] = true
	}
	p, telling := runtimeOf(present, who)
	if len(telling) == 0 {
		return nil
	}
	own := map[string]bool{}
	withModel := map[string]bool{}
	for _, sel := range reads(p) {
		own[sel.Name] = true
		withModel[sel.Name] = sel.HasModel && p.ModelLabel != ""
	}
	var models, pods, instances []string
	for _, m := range rows {
		f := string(m["__name__"])
		if !own[f] {
			continue
		}
		if withModel[f] {
			models = appendNew(models, string(m[pmodel.LabelName(p.ModelLabel)]))
		}
		pods = appendNew(pods, string(m["pod"]))
		instances = appendNew(instances, string(m["instance"]))
	}
	if len(models) == 0 {
		models = []string{""}
	}
	var out []Service
	for _, mod := range models {
		out = append(out, Service{Profile: p, Target: t, Model: mod, Families: telling, Pods: pods, Instances: instances})
	}
	return out
}

// runtimeOf picks the table entry with the most telling families present;
// on a tie the first in the table, a runtime's newest generation.
func runtimeOf(present map[string]bool, who map[string][]string) (profile.Profile, []string) {
	var best profile.Profile
	var bestTelling []string
	for _, p := range runtimes() {
		var telling []string
		for _, sel := range reads(p) {
			if present[sel.Name] && tells(p, sel, who) && !slices.Contains(telling, sel.Name) {
				telling = append(telling, sel.Name)
			}
		}
		if len(telling) > len(bestTelling) {
			best, bestTelling = p, telling
		}
	}
	return best, bestTelling
}

// tells reports whether a family is the runtime's own: no other runtime
// reads it, and it carries the model label where the runtime writes one.
// A family without it comes from a generic layer (vLLM's HTTP middleware
// writes http_requests_total, as many web apps do).
func tells(p profile.Profile, sel profile.Selector, who map[string][]string) bool {
	return len(who[sel.Name]) == 1 && (sel.HasModel || p.ModelLabel == "")
}

func appendNew(list []string, v string) []string {
	if v == "" || slices.Contains(list, v) {
		return list
	}
	list = append(list, v)
	sort.Strings(list)
	return list
}

func sortedTargets(m map[Target][]pmodel.Metric) []Target {
	ts := slices.Collect(maps.Keys(m))
	slices.SortFunc(ts, func(a, b Target) int {
		return strings.Compare(a.Namespace+"\x00"+a.Job, b.Namespace+"\x00"+b.Job)
	})
	return ts
}
