package profile

import (
	"strings"
	"testing"
)

func TestVersionsCompareAsReleases(t *testing.T) {
	for _, c := range []struct {
		a, b   string
		before bool
	}{
		{"0.8.0", "0.11.0", true},
		{"0.11", "0.11.0", false},
		{"0.11.0", "0.8", false},
		{"v1.0.0", "1.1.0", true},
		{"r24.08", "r24.11", true},
		{"b6000", "b5999", false},
		{"0.11.0-rc1", "0.11.0", false}, // a pre-release reads as its release
		{"1.3.0rc11", "1.3.0", false},
	} {
		a, err := parseVersion(c.a)
		if err != nil {
			t.Fatal(err)
		}
		b, err := parseVersion(c.b)
		if err != nil {
			t.Fatal(err)
		}
		if got := a.before(b); got != c.before {
			t.Errorf("%s before %s = %v, want %v", c.a, c.b, got, c.before)
		}
	}
	if _, err := parseVersion("latest"); err == nil || !strings.Contains(err.Error(), `"0.11.0"`) {
		t.Errorf("parseVersion(latest) = %v, want an error showing how to write one", err)
	}
}

// For picks the generation a release exports, the newest without a
// version, and refuses a release older than the runtime's floor.
func TestForPicksTheGenerationOfTheRelease(t *testing.T) {
	saved := table
	t.Cleanup(func() { table = saved })
	newer, older := vllm, vllm
	newer.Since, newer.Note = "0.11.0", "new names"
	older.Since, older.Note = "0.8.0", "old names"
	table = []Profile{newer, older, custom}

	for version, want := range map[string]string{"": "new names", "0.12.1": "new names", "0.11.0": "new names", "0.10.2": "old names", "v0.8": "old names"} {
		p, err := For("vllm", version)
		if err != nil || p.Note != want {
			t.Errorf("For(vllm, %q) = %q, %v; want %q", version, p.Note, err, want)
		}
	}
	if _, err := For("vllm", "0.7.3"); err == nil || !strings.Contains(err.Error(), "from release 0.8.0 on") {
		t.Errorf("For(vllm, 0.7.3) = %v, want the floor named", err)
	}
	if _, err := For("vlm", ""); err == nil {
		t.Error("For finds a runtime that is not in the table")
	}
	if got := Names(); len(got) != 2 {
		t.Errorf("Names() = %v, want each runtime once", got)
	}
}

// Every Since in the table is a release number, and a runtime's
// generations come one after the other, newest first.
func TestGenerationsAreOrderedReleases(t *testing.T) {
	var last Profile
	seen := map[string]bool{}
	for i, p := range Runtimes() {
		if p.Since != "" {
			if _, err := parseVersion(p.Since); err != nil {
				t.Errorf("%s: %v", p.Runtime, err)
			}
		}
		if i > 0 && p.Runtime == last.Runtime {
			a, _ := parseVersion(p.Since)
			b, _ := parseVersion(last.Since)
			if p.Since == "" || !a.before(b) {
				t.Errorf("%s: generation since %q follows since %q: want newest first, each with a Since", p.Runtime, p.Since, last.Since)
			}
		} else if seen[p.Runtime] {
			t.Errorf("%s: its generations are not next to each other", p.Runtime)
		}
		seen[p.Runtime], last = true, p
	}
}

// llama.cpp's floor is build b2364, PR #5937's, the first to export the
// seconds counters the dashboard reads: an older build is refused.
func TestLlamacppReadsFromBuildB2364(t *testing.T) {
	if _, err := For("llamacpp", "b2363"); err == nil || !strings.Contains(err.Error(), "from release b2364 on") {
		t.Errorf("For(llamacpp, b2363) = %v, want the floor b2364 named", err)
	}
	if _, err := For("llamacpp", "b2364"); err != nil {
		t.Errorf("For(llamacpp, b2364): %v", err)
	}
}
