package scrape

import (
	"fmt"
	"strings"

	"github.com/slogen-dev/slogen/internal/dcgm"
	"github.com/slogen-dev/slogen/internal/genfile"
)

// CountersFile is the dcgm-exporter counters file that collects exactly
// the fields slogen's rules and dashboards read.
const CountersFile = "dcgm-exporter.counters.csv"

// Counters writes dcgm-exporter's counters file (its -f flag, or the Helm
// chart's arguments): one field a line, as name, type and help, in the
// format of its etc/default-counters.csv, whose '#' lines are comments.
// Fields the default file leaves out come last, under a comment.
func Counters() []byte {
	var b strings.Builder
	b.WriteString(genfile.Header)
	b.WriteString("# The DCGM fields slogen's rules and dashboards read: run dcgm-exporter with\n")
	b.WriteString("# -f dcgm-exporter.counters.csv, or merge these lines into your counters file.\n")
	b.WriteString("# Format: DCGM field, Prometheus metric type, help message.\n")
	marked := false
	for _, f := range dcgm.Read {
		if !f.Default && !marked {
			b.WriteString("# Not in dcgm-exporter's default counters, so collected only with this file:\n")
			marked = true
		}
		fmt.Fprintf(&b, "%s, %s, %s\n", f.Name, f.Type, f.Help)
	}
	return []byte(b.String())
}
