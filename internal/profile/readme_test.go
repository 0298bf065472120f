package profile

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/model"
)

var update = flag.Bool("update", false, "rewrite the README's runtime table from the profile table")

const (
	readmePath  = "../../README.md"
	tableStart  = "<!-- runtime table: go test ./internal/profile -run TestREADMERuntimeTable -update -->\n"
	tableEnd    = "<!-- end of runtime table -->\n"
	tableIntro  = "| project | `runtime` | from release | scraped at | SLO kinds |\n|---|---|---|---|---|\n"
	customKinds = "those its `metrics` block names"
)

// TestREADMERuntimeTable: the README's runtime table is the profile
// table's, row for row: every runtime and generation, its floor, its
// scrape endpoint and the SLO kinds it can serve.
func TestREADMERuntimeTable(t *testing.T) {
	readme, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	start, end := bytes.Index(readme, []byte(tableStart)), bytes.Index(readme, []byte(tableEnd))
	if start < 0 || end < start {
		t.Fatalf("README.md has no runtime table between %q and %q", tableStart, tableEnd)
	}
	want := append([]byte(tableStart), runtimeTable()...)
	got := readme[start:end]
	if bytes.Equal(got, want) {
		return
	}
	if !*update {
		t.Fatalf("README.md's runtime table is not the profile table's; run go test ./internal/profile -run TestREADMERuntimeTable -update\ngot:\n%s\nwant:\n%s", got, want)
	}
	fresh := append(append(bytes.Clone(readme[:start]), want...), readme[end:]...)
	if err := os.WriteFile(readmePath, fresh, 0o644); err != nil {
		t.Fatal(err)
	}
}

// runtimeTable is the README's table of runtimes, a row per entry.
func runtimeTable() string {
	var b strings.Builder
	b.WriteString(tableIntro)
	for _, p := range Runtimes() {
		since := "not pinned"
		if p.Since != "" {
			since = p.Since
		}
		endpoint := fmt.Sprintf("`:%d%s`", p.Port, p.Path)
		kinds := customKinds
		if p.Runtime != CustomRuntime {
			kinds = servedKinds(p)
		} else {
			since, endpoint = "", "`metrics.port`, `metrics.path`"
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s | %s |\n", p.Title, p.Runtime, since, endpoint, kinds)
	}
	return b.String()
}

// servedKinds are the SLO kinds a runtime can serve, in the order the
// spec reference lists them; ratio and goodput build on them.
func servedKinds(p Profile) string {
	var kinds []string
	for _, k := range append([]model.Kind{model.Availability}, model.LatencyKinds...) {
		if len(p.Reads(k)) > 0 {
			kinds = append(kinds, "`"+string(k)+"`")
		}
	}
	if len(kinds) == 0 {
		return "none (see [docs/metrics.md](docs/metrics.md))"
	}
	return strings.Join(kinds, ", ")
}
