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

// TestAnAlertAboutGPUsIsWrittenForAnyGPUs: an alert the catalog says is
// about GPUs has a writer for a pool's GPUs, and only such an alert.
func TestAnAlertAboutGPUsIsWrittenForAnyGPUs(t *testing.T) {
	for _, e := range catalog {
		if (e.about == ofGPU) != (e.write.gpus != nil) {
			t.Errorf("%s: about GPUs %v, written for a pool's GPUs %v", e.name, e.about == ofGPU, e.write.gpus != nil)
		}
	}
}
