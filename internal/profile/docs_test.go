package profile

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/model"
)

// docPages are the pages that may document the runtimes: the README and
// the manual under docs/.
func docPages(t *testing.T) map[string]string {
	t.Helper()
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]string{}
	for _, f := range append(files, "../../README.md") {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pages[filepath.Base(f)] = string(b)
	}
	return pages
}

// TestDocsRuntimeTableIsTheProfileTable: the table of what each kind
// reads has a row per entry of the profile table, in its order, each
// naming its runtime and giving its floor; each kind's cell names the
// metric the profile reads, or says none where the runtime cannot serve
// the kind, and the endpoint cell gives the scrape defaults.
func TestDocsRuntimeTableIsTheProfileTable(t *testing.T) {
	found := 0
	for name, page := range docPages(t) {
		for _, rows := range markdownTables(page) {
			if len(rows) == 0 || rows[0][0] != "runtime" {
				continue
			}
			found++
			entries := Runtimes()
			if len(rows)-1 != len(entries) {
				t.Errorf("%s: the runtime table has %d rows, want one per entry of the profile table (%d)", name, len(rows)-1, len(entries))
				continue
			}
			for i, p := range entries {
				row := rows[i+1]
				if !strings.Contains(row[0], "`"+p.Runtime+"`") {
					t.Errorf("%s: the runtime table's row %d is %q, want runtime %s", name, i+1, row[0], p.Runtime)
					continue
				}
				for j, column := range rows[0][1:] {
					if problem := cellProblem(p, column, row[j+1]); problem != "" {
						t.Errorf("%s: runtime table, %s of %s: %s", name, column, p.Runtime, problem)
					}
				}
			}
		}
	}
	if found == 0 {
		t.Error("no page has the runtime table (a Markdown table whose first column is runtime)")
	}
}

// cellProblem says what is wrong with the cell of runtime p in the
// column of kind k, of its endpoint or of its version; empty when nothing
// is, or the column is none of them.
func cellProblem(p Profile, column, cell string) string {
	k := model.Kind(column)
	if k == "version" && p.Since != "" && !strings.HasPrefix(cell, p.Since) {
		return "does not start with its floor " + p.Since
	}
	if k == "endpoint" && p.Runtime != CustomRuntime {
		if want := fmt.Sprintf("`:%d%s`", p.Port, p.Path); !strings.Contains(cell, want) {
			return "does not give its scrape default " + want
		}
		return ""
	}
	if k != "endpoint" && !slices.Contains(append([]model.Kind{model.Availability}, model.LatencyKinds...), k) {
		return ""
	}
	if p.Runtime == CustomRuntime {
		if !strings.Contains(cell, "`metrics.") {
			return "does not name the metrics field a custom spec sets"
		}
		return ""
	}
	var names []string
	switch {
	case k == model.Availability && p.Availability != nil:
		for _, s := range p.Availability.Failed {
			names = append(names, s.Name)
		}
	case p.Histogram(k) != nil:
		names = []string{p.Histogram(k).Name}
	default:
		if !strings.HasPrefix(cell, "none") {
			return "the runtime cannot serve it (" + p.Unsupported[k] + "), yet the cell does not start with none"
		}
	}
	for _, n := range names {
		if !strings.Contains(cell, "`"+n) {
			return "does not name " + n
		}
	}
	return ""
}

// TestDocsListEveryRuntime: the spec reference's runtime row names the
// runtimes of the profile table in its order, or none (pointing at the
// runtime table instead), and docs/metrics.md has a section, with its
// sources, per runtime whose metrics slogen knows.
func TestDocsListEveryRuntime(t *testing.T) {
	pages := docPages(t)
	code := regexp.MustCompile("`([^`]+)`")
	found := 0
	for name, page := range pages {
		for _, rows := range markdownTables(page) {
			for _, row := range rows {
				if len(row) < 3 || row[0] != "`runtime`" {
					continue
				}
				found++
				var listed []string
				for _, m := range code.FindAllStringSubmatch(row[2], -1) {
					listed = append(listed, m[1])
				}
				if len(listed) > 0 && !slices.Equal(listed, Names()) {
					t.Errorf("%s: the runtime field's row lists %v, want %v", name, listed, Names())
				}
			}
		}
	}
	if found == 0 {
		t.Error("no page documents the spec's runtime field in a table row")
	}
	for _, p := range Runtimes() {
		if p.Runtime == CustomRuntime {
			continue
		}
		heading := regexp.MustCompile(`(?m)^## .*\b` + regexp.QuoteMeta(p.Title) + `\b`)
		if !heading.MatchString(pages["metrics.md"]) {
			t.Errorf("docs/metrics.md has no section for %s", p.Title)
		}
	}
}

// markdownTables are the tables of a Markdown page, each a list of rows
// of trimmed cells, without the delimiter row.
func markdownTables(page string) [][][]string {
	var tables [][][]string
	var rows [][]string
	for _, line := range append(strings.Split(page, "\n"), "") {
		if !strings.HasPrefix(line, "|") {
			if len(rows) > 0 {
				tables = append(tables, rows)
			}
			rows = nil
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		for i, c := range cells {
			cells[i] = strings.TrimSpace(c)
		}
		if strings.Trim(strings.Join(cells, ""), "-: ") == "" {
			continue // the delimiter row
		}
		rows = append(rows, cells)
	}
	return tables
}
