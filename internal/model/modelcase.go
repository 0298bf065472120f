package model

import "strings"

// ModelCase says how a runtime writes the served model's name into its
// model label, metric by metric. Most write it as given. NVIDIA Dynamo's
// frontend lower-cases it on its request metrics and keeps it on its
// model_* gauges, so one matcher built from the spec's model would miss
// half of them; Triton's TensorRT-LLM backend labels its gauges with its
// own model, not the ensemble in front that clients call. The zero value
// keeps the name everywhere.
type ModelCase struct {
	// Lower are metric-name prefixes whose model label holds the name
	// lower-cased.
	Lower []string
	// Kept are prefixes, inside Lower's, whose model label keeps the
	// name as given.
	Kept []string
	// Other are prefixes whose model label names another model than the
	// one served: no model matcher selects them.
	Other []string
}

// Value is the model label's value on metric for the model served; empty
// where the label names another model.
func (c ModelCase) Value(metric, served string) string {
	switch {
	case hasPrefix(metric, c.Other):
		return ""
	case c.Lowers(metric):
		return strings.ToLower(served)
	}
	return served
}

// Lowers reports whether the model label of metric differs in case from
// the name as given.
func (c ModelCase) Lowers(metric string) bool {
	return hasPrefix(metric, c.Lower) && !hasPrefix(metric, c.Kept)
}

func hasPrefix(metric string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(metric, p) {
			return true
		}
	}
	return false
}
