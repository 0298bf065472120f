package profile

import (
	"fmt"
	"slices"
)

// CustomRuntime is the runtime of an app that instruments itself: its
// spec names the metrics (Custom).
const CustomRuntime = "custom"

// table is every runtime slogen knows, in the order errors and docs list
// them. Adding a runtime is adding its file and its line here. A runtime
// that renamed its metrics has an entry per generation, newest first, one
// after the other.
var table = []Profile{vllm, tgi, triton, sglang, trtllm, dynamo, dynamo100, nim, lmdeploy, kserve, otelGenAI, gaie, gaieV1_1, gaieV1_0, llmdRouter, llamacpp, custom}

// builtin are the runtimes whose metrics slogen knows, by name: each
// one's newest generation.
var builtin = func() map[string]Profile {
	m := map[string]Profile{}
	for _, p := range table {
		if _, seen := m[p.Runtime]; !seen && p.Runtime != CustomRuntime {
			m[p.Runtime] = p
		}
	}
	return m
}()

// Runtimes are the entries of the runtime table, in its order, every
// generation of a runtime included. Custom's carries no metrics: Custom
// builds them from a spec.
func Runtimes() []Profile { return slices.Clone(table) }

// Names are the runtimes a spec may name, in the table's order, each
// once.
func Names() []string {
	var names []string
	for _, p := range table {
		if !slices.Contains(names, p.Runtime) {
			names = append(names, p.Runtime)
		}
	}
	return names
}

// Lookup returns a runtime's table entry, custom's included, its newest
// generation where it has several; ok is false for an unknown name.
func Lookup(runtime string) (Profile, bool) {
	i := slices.IndexFunc(table, func(p Profile) bool { return p.Runtime == runtime })
	if i < 0 {
		return Profile{}, false
	}
	return table[i], true
}

// ByRuntime returns the built-in profile of a runtime, its newest
// generation; ok is false for "custom" and unknown names.
func ByRuntime(runtime string) (Profile, bool) {
	p, ok := builtin[runtime]
	return p, ok
}

// For returns the entry of a runtime whose metrics the given release
// exports: the newest generation when version is empty, or else the one
// with the latest Since at or before it. It fails for an unknown runtime,
// a version it cannot read, and a release older than the runtime's
// oldest generation.
func For(runtime, version string) (Profile, error) {
	gens := generations(runtime)
	if len(gens) == 0 {
		return Profile{}, fmt.Errorf("unknown runtime %q", runtime)
	}
	if version == "" {
		return gens[0], nil
	}
	v, err := parseVersion(version)
	if err != nil {
		return Profile{}, err
	}
	for _, p := range gens {
		since, _ := parseVersion(p.Since) // the table's own: checked by its tests
		if p.Since == "" || !v.before(since) {
			return p, nil
		}
	}
	oldest := gens[len(gens)-1]
	return Profile{}, fmt.Errorf("slogen reads %s's metrics from release %s on, and %s is older: upgrade %s, or name the metrics it exports with runtime \"custom\"", oldest.Title, oldest.Since, version, oldest.Title)
}

// generations are a runtime's entries, newest first.
func generations(runtime string) []Profile {
	var gens []Profile
	for _, p := range table {
		if p.Runtime == runtime {
			gens = append(gens, p)
		}
	}
	return gens
}
