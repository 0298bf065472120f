package profile

import "slices"

// CustomRuntime is the runtime of an app that instruments itself: its
// spec names the metrics (Custom).
const CustomRuntime = "custom"

// table is every runtime slogen knows, in the order errors and docs list
// them. Adding a runtime is adding its file and its line here.
var table = []Profile{vllm, tgi, triton, sglang, custom}

// builtin are the runtimes whose metrics slogen knows, by name.
var builtin = func() map[string]Profile {
	m := map[string]Profile{}
	for _, p := range table {
		if p.Runtime != CustomRuntime {
			m[p.Runtime] = p
		}
	}
	return m
}()

// Runtimes are the entries of the runtime table, in its order. Custom's
// carries no metrics: Custom builds them from a spec.
func Runtimes() []Profile { return slices.Clone(table) }

// Names are the runtimes a spec may name, in the table's order.
func Names() []string {
	names := make([]string, len(table))
	for i, p := range table {
		names[i] = p.Runtime
	}
	return names
}

// Lookup returns a runtime's table entry, custom's included; ok is false
// for an unknown name.
func Lookup(runtime string) (Profile, bool) {
	i := slices.IndexFunc(table, func(p Profile) bool { return p.Runtime == runtime })
	if i < 0 {
		return Profile{}, false
	}
	return table[i], true
}

// ByRuntime returns the built-in profile of a runtime; ok is false for
// "custom" and unknown names.
func ByRuntime(runtime string) (Profile, bool) {
	p, ok := builtin[runtime]
	return p, ok
}
