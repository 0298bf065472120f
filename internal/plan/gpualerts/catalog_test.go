package gpualerts

import (
	"slices"
	"testing"
)

func TestDCGMAlertsAreTheCatalogs(t *testing.T) {
	var want []string
	for _, e := range catalog {
		if e.dcgm {
			want = append(want, e.name)
		}
	}
	if got := slices.Sorted(slices.Values(DCGMAlerts)); !slices.Equal(got, slices.Sorted(slices.Values(want))) {
		t.Errorf("DCGMAlerts %v; the catalog's entries that read dcgm-exporter are %v", DCGMAlerts, want)
	}
}

// TestTheCatalogNamesEachAlertOnce: an alert's name is its runbook's and
// its test's key.
func TestTheCatalogNamesEachAlertOnce(t *testing.T) {
	seen := map[string]bool{}
	for _, e := range catalog {
		if seen[e.name] {
			t.Errorf("%s is in the catalog twice", e.name)
		}
		seen[e.name] = true
	}
}
