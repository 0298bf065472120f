package runbooks_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/plan/gpualerts"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/profile"
)

// TestRunbookGivesItsRuntimesAdvice: the runbook of each runtime's
// example gives that runtime's advice from the profile table, in the
// section of the alert it is for, lines after the first indented into
// the list item.
func TestRunbookGivesItsRuntimesAdvice(t *testing.T) {
	for _, p := range profile.Runtimes() {
		specs, _ := filepath.Glob(filepath.Join("../../../examples", p.Runtime, "*.[cy]*"))
		if len(specs) == 0 {
			t.Errorf("%s has no example under examples/%s", p.Runtime, p.Runtime)
			continue
		}
		svc := loadServices(t, specs[0])[0]
		page := string(render(t, svc))
		sections := sectionsOf(page)
		a := p.Advice
		for _, want := range []struct{ section, text string }{
			{rules.NoDataAlert, a.MetricsGone},
			{rules.NoDataAlert, a.LazyCounter},
			{gpualerts.QueueBacklog, a.QueueLimits},
			{gpualerts.KVCacheHigh, a.KVCacheLimits},
			{gpualerts.PrefixCacheCold, a.PrefixCacheOff},
			{gpualerts.MemoryHigh, a.Reservation},
			{rules.BurnAlert, a.SuccessOnly},
		} {
			section, has := sections[want.section]
			if want.text == "" || !has {
				continue
			}
			if text := strings.ReplaceAll(want.text, "\n", "\n   "); !strings.Contains(section, text) {
				t.Errorf("%s: the %s section does not say %q:\n%s", p.Runtime, want.section, text, section)
			}
		}
		byDesign := "is how " + p.Title + " runs by design"
		if strings.Contains(page, byDesign) != (p.Preallocation != "") {
			t.Errorf("%s preallocates %q, yet the runbook saying %q is %v", p.Runtime, p.Preallocation, byDesign, !strings.Contains(page, byDesign))
		}
	}
}

// sectionsOf splits a runbook by its level-2 headings, which name the
// alerts' sections.
func sectionsOf(page string) map[string]string {
	out := map[string]string{}
	for _, part := range strings.Split(page, "\n## ")[1:] {
		title, _, _ := strings.Cut(part, "\n")
		out[title] = part
	}
	return out
}
