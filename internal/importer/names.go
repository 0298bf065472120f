package importer

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// kinds are the SLO keys that name a slogen kind; a ratio SLO cannot use
// them (docs/spec.md, SLOs).
var kinds = []string{"availability", "latency", "ttft", "itl", "tpot", "queue", "goodput"}

// notName is what slogen's names cannot hold (internal/spec/resolve.go:
// lower-case letters, digits and dashes, 63 at most).
var notName = regexp.MustCompile(`[^a-z0-9-]+`)

// Name turns an imported name into one slogen takes, and says so when
// it had to change it.
func Name(name string) (string, string) {
	out := strings.Trim(notName.ReplaceAllString(strings.ToLower(name), "-"), "-")
	if len(out) > 63 {
		out = strings.TrimRight(out[:63], "-")
	}
	if out == "" {
		out = "imported"
	}
	if slices.Contains(kinds, out) {
		out += "-ratio"
	}
	if out == name {
		return out, ""
	}
	return out, fmt.Sprintf("name %q is %q: slogen's names are 1 to 63 lower-case letters, digits and dashes, and a ratio SLO's cannot be a kind's", name, out)
}
