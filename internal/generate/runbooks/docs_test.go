package runbooks_test

import (
	"bytes"
	"flag"
	"os"
	"testing"

	"github.com/slogen-dev/slogen/internal/generate/runbooks"
	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/plan/rules"
)

var update = flag.Bool("update", false, "rewrite docs/runbooks.md")

// docsPath is the page every alert links to when a spec names no runbook.
const docsPath = "../../../docs/runbooks.md"

// docsNote says, above the example's runbook, what the page is.
const docsNote = `> slogen's runbook, rendered for an example service, ` + "`example`" + `. Every alert
> links to its section here when the spec sets neither ` + "`alerting.runbook_url`" + `
> nor ` + "`alerting.runbook_base_url`" + `. slogen build writes each service's own
> runbook, with its thresholds, objectives, PromQL and runtime's advice, to
> ` + "`<service>/runbook.md`" + `, or a fleet's one runbook to ` + "`runbook.md`" + `; set
> ` + "`runbook_base_url`" + ` to where you commit them to link there instead. The templates are in templates/runbooks; regenerate
> this page with ` + "`go test ./internal/generate/runbooks -run TestDocsAreFresh -update`" + `.
`

// docsPage renders docs/runbooks.md: the example's runbook with the note
// after slogen's marker.
func docsPage(t *testing.T) []byte {
	t.Helper()
	page := render(t, exampleService(t))
	marker, body, ok := bytes.Cut(page, []byte("\n"))
	if !ok || !bytes.Contains(marker, []byte(genfile.Marker)) {
		t.Fatalf("the runbook does not start with slogen's marker: %q", marker)
	}
	return bytes.Join([][]byte{marker, []byte(docsNote), body}, []byte("\n"))
}

func TestDocsAreFresh(t *testing.T) {
	want := docsPage(t)
	if *update {
		if err := os.WriteFile(docsPath, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale; run go test ./internal/generate/runbooks -run TestDocsAreFresh -update", docsPath)
	}
}

// TestDocsHaveEveryAlert: the default runbook_url of every alert slogen
// can write points at a section of the committed docs/runbooks.md.
func TestDocsHaveEveryAlert(t *testing.T) {
	got, err := os.ReadFile(docsPath)
	if err != nil {
		t.Fatal(err)
	}
	anchors := runbooks.Anchors(got)
	for _, alert := range allAlerts {
		url := rules.Runbook(model.Service{Name: "any"}, alert)
		if !anchors[rules.RunbookAnchor(alert)] {
			t.Errorf("%s links %s, but %s has no such section", alert, url, docsPath)
		}
	}
}

func TestMain(m *testing.M) {
	flag.Parse()
	os.Exit(m.Run())
}
