package gpualerts

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/plan/rules"
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
		fmt.Fprintf(&b, "| [%s](runbooks.md#%s) | %s | %s | ticket | %s |\n", e.name, rules.RunbookAnchor(e.name), e.doc.condition, hold, e.doc.needs)
	}
	return b.Bytes()
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
