package profile

import (
	"regexp"
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/model"
)

// The table names each runtime once, as a spec may spell it, with custom
// last: errors and docs list the runtimes in its order.
func TestTableListsEachRuntimeOnceWithCustomLast(t *testing.T) {
	names := Names()
	if len(names) < 2 || names[len(names)-1] != CustomRuntime {
		t.Errorf("Names() = %v, want custom last", names)
	}
	spelling := regexp.MustCompile(`^[a-z][a-z0-9-]*$`)
	seen := map[string]bool{}
	for _, n := range names {
		if seen[n] || !spelling.MatchString(n) {
			t.Errorf("%q is in the table twice, or is not a lower-case name", n)
		}
		seen[n] = true
		if _, ok := Lookup(n); !ok {
			t.Errorf("Lookup(%q) finds nothing", n)
		}
		if _, ok := ByRuntime(n); ok != (n != CustomRuntime) {
			t.Errorf("ByRuntime(%q) ok = %v; only custom has no built-in metrics", n, ok)
		}
	}
	if _, ok := Lookup("vlm"); ok {
		t.Error("Lookup finds a runtime that is not in the table")
	}
}

// Every entry says where it is scraped and how its project writes its
// name, and for every kind either reads a metric or says why not.
func TestEveryRuntimeServesEachKindOrSaysWhyNot(t *testing.T) {
	for _, p := range Runtimes() {
		if p.Title == "" || p.Port == 0 || !strings.HasPrefix(p.Path, "/") {
			t.Errorf("%s: title %q, port %d, path %q", p.Runtime, p.Title, p.Port, p.Path)
		}
		if p.Runtime == CustomRuntime {
			continue // Custom fills the kinds from the spec
		}
		for _, k := range append([]model.Kind{model.Availability}, model.LatencyKinds...) {
			measured, why := len(p.Reads(k)) > 0, p.Unsupported[k]
			if measured == (why != "") {
				t.Errorf("%s %s: reads %v, unsupported because %q; want exactly one", p.Runtime, k, p.Reads(k), why)
			}
		}
	}
}

// A runtime that claims a share of each GPU's memory explains it in the
// runbook, and one that does not has nothing to explain.
func TestPreallocationIsExplained(t *testing.T) {
	for _, p := range Runtimes() {
		if (p.Preallocation != "") != (p.Advice.Reservation != "") {
			t.Errorf("%s: preallocation %q, runbook reservation %q", p.Runtime, p.Preallocation, p.Advice.Reservation)
		}
		if p.Preallocation != "" && !strings.Contains(p.Advice.Reservation, strings.Fields(p.Preallocation)[0]) {
			t.Errorf("%s: the runbook's reservation does not name the flag of %q", p.Runtime, p.Preallocation)
		}
	}
}

func TestCustomStartsFromItsEntry(t *testing.T) {
	p, err := Custom(CustomMetrics{Requests: "reqs_total", Errors: "errs_total"})
	if err != nil {
		t.Fatal(err)
	}
	entry, _ := Lookup(CustomRuntime)
	if p.Runtime != CustomRuntime || p.Port != entry.Port || p.Path != entry.Path || p.Advice != entry.Advice {
		t.Errorf("Custom's profile %+v does not start from the table's entry %+v", p, entry)
	}
	if entry.Unsupported != nil {
		t.Errorf("Custom wrote into the table's entry: %v", entry.Unsupported)
	}
}
