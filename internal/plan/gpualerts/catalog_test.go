package gpualerts

import (
	"testing"
)

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
