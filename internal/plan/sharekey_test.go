package plan

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/spec"
	"github.com/slogen-dev/slogen/internal/testenv"
)

// TestSharedAlertsAreTheirKeys plans every service of the teams fleet and
// of the examples as a fleet's, and builds each service's shared alerts
// again without the memo: a key that left out something the alerts read
// would hand a service another's set, as the first service of its key
// built it.
func TestSharedAlertsAreTheirKeys(t *testing.T) {
	srcs := []spec.Source{{Name: "teams.cue", Data: testenv.TeamsFleet(100)}}
	paths, err := filepath.Glob("../../examples/*/*.cue")
	if err != nil || len(paths) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, spec.Source{Name: path, Data: data})
	}
	sloKeys, servingKeys, services := map[string]bool{}, map[string]bool{}, 0
	for _, src := range srcs {
		res, err := spec.LoadSources(src)
		if err != nil {
			t.Fatalf("%s: %v", src.Name, err)
		}
		for _, svc := range res.Spec.Services {
			services++
			p := NewIn(svc, Fleet)
			key, ok := sharedAlertsKey(p)
			if !ok {
				t.Errorf("%s: %s: no key for its shared alerts", src.Name, svc.Name)
			}
			if p.Shared != nil {
				sloKeys[key] = true
				sameShared(t, src.Name+": "+svc.Name+": SLO alerts", p.Shared, buildSLOAlerts(p))
			}
			if SharesServingAlerts(svc, Fleet) {
				servingKeys[key] = true
				sameShared(t, src.Name+": "+svc.Name+": serving alerts", p.Serving, buildServingAlerts(p))
			}
		}
	}
	t.Logf("%d services, %d keys of SLO alerts, %d of serving alerts", services, len(sloKeys), len(servingKeys))
}

func sameShared(t *testing.T, what string, got, want *rules.Shared) {
	t.Helper()
	if (got == nil) != (want == nil) {
		t.Errorf("%s: memoised %v, built %v", what, got != nil, want != nil)
		return
	}
	if got == nil {
		return
	}
	g, err := rules.Marshal(rules.File{Groups: got.Groups})
	if err != nil {
		t.Fatal(err)
	}
	w, err := rules.Marshal(rules.File{Groups: want.Groups})
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != want.ID || !bytes.Equal(g, w) {
		t.Errorf("%s: the memoised set %s is not the one built for the service, %s:\n%s\nwant:\n%s", what, got.ID, want.ID, g, w)
	}
}
