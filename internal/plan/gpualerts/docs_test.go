package gpualerts

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/profile"
)

var update = flag.Bool("update", false, "rewrite the alert table of docs/gpu-alerts.md")

const docsPath = "../../../docs/gpu-alerts.md"

// The table's bounds in docs/gpu-alerts.md: what lies between is the
// catalog's, written by TestDocsTableIsTheCatalogs.
const (
	tableStart = "<!-- The table is internal/plan/gpualerts' catalog: go test ./internal/plan/gpualerts -run TestDocsTableIsTheCatalogs -update -->\n"
	tableEnd   = "<!-- end of the catalog's table -->\n"
)

// docsTable is the table of every alert: its runbook section, condition,
// `for`, severity by default and what a service needs for it.
func docsTable() []byte {
	var b bytes.Buffer
	b.WriteString("| alert | condition (defaults) | for | severity | needs |\n|---|---|---|---|---|\n")
	for _, e := range catalog {
		hold := "–"
		if e.hold > 0 {
			hold = genfile.Duration(e.hold)
		}
		fmt.Fprintf(&b, "| [%s](runbooks.md#%s) | %s | %s | ticket | %s |\n", e.name, rules.RunbookAnchor(e.name), e.doc.condition, hold, needsText(e))
	}
	return b.Bytes()
}

// needsText is what a service needs for the alert; where the row says
// which metric feeds it, the runtimes of the profile table that export
// one, by name, then custom's field, then the runtimes that export none.
func needsText(e entry) string {
	if event, ok := LogEvents[e.name]; ok {
		return e.doc.needs + "; the line from " + strings.Join(writers(event), ", ")
	}
	f, ok := feeds[e.name]
	if !ok {
		return e.doc.needs
	}
	var feed, none []string
	for _, name := range profile.Names() {
		p, _ := profile.Lookup(name)
		switch metric := f.reads(p.Metrics()); {
		case name == profile.CustomRuntime:
		case metric != "":
			feed = append(feed, fmt.Sprintf("%s `%s`", p.Title, metric))
		default:
			none = append(none, p.Title)
		}
	}
	text := fmt.Sprintf("%s: %s, custom `%s`", e.doc.needs, strings.Join(feed, ", "), f.custom)
	if len(none) > 0 {
		text += fmt.Sprintf(" (none from %s)", strings.Join(none, ", "))
	}
	return text
}

// writers are the runtimes of the profile table that write event's line.
func writers(event string) []string {
	var out []string
	for _, name := range profile.Names() {
		if slices.ContainsFunc(profile.TelemetryOf(name).FatalLines, func(l profile.LogLine) bool { return l.Event == event }) {
			p, _ := profile.Lookup(name)
			out = append(out, p.Title)
		}
	}
	return out
}

// TestDocsTableIsTheCatalogs: docs/gpu-alerts.md lists every alert of the
// catalog, as its entry describes it.
func TestDocsTableIsTheCatalogs(t *testing.T) {
	page, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatal(err)
	}
	before, rest, ok := bytes.Cut(page, []byte(tableStart))
	_, after, ok2 := bytes.Cut(rest, []byte(tableEnd))
	if !ok || !ok2 {
		t.Fatalf("%s has lost the table's bounds; put back the lines\n%s\n%s", docsPath, tableStart, tableEnd)
	}
	want := bytes.Join([][]byte{before, []byte(tableStart), docsTable(), []byte(tableEnd), after}, nil)
	if *update {
		if err := os.WriteFile(docsPath, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if !bytes.Equal(page, want) {
		t.Errorf("%s's alert table is not the catalog's; run go test ./internal/plan/gpualerts -run TestDocsTableIsTheCatalogs -update", docsPath)
	}
}
