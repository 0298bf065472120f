package runbooks

import (
	"bytes"
	"fmt"
	"strings"
	"text/template"

	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/plan"
)

// header starts every runbook; Markdown renders no HTML comment.
const header = "<!-- " + genfile.Marker + " -->\n"

// funcs are the functions templates may call besides text/template's.
var funcs = template.FuncMap{
	"code":   code,
	"indent": indent,
	"hang":   hang,
	"list":   list,
}

// Render writes a planned service's runbook: the head, then a section per
// alert the service gets, in the order of its rule files.
func (t *Templates) Render(sp *plan.Service) ([]byte, error) {
	page, _, err := t.render(sp)
	return page, err
}

// render is Render, and the alerts whose sections it wrote, in order.
func (t *Templates) render(sp *plan.Service) ([]byte, []string, error) {
	p, alerts := newPage(sp)
	var b bytes.Buffer
	b.WriteString(header)
	// parts are where each template's text starts, for errors.
	parts := []part{{HeadTemplate, b.Len()}}
	if err := t.execute(&b, HeadTemplate, p); err != nil {
		return nil, nil, err
	}
	for _, name := range p.Alerts {
		tn := TemplateName(name)
		if !t.Has(tn) {
			return nil, nil, fmt.Errorf("alert %s has no runbook template %s", name, tn)
		}
		p.Alert = alerts[name]
		fmt.Fprintf(&b, "\n## %s\n\n", name)
		parts = append(parts, part{tn, b.Len()})
		if err := t.execute(&b, tn, p); err != nil {
			return nil, nil, err
		}
	}
	page := tidy(b.Bytes())
	return page, p.Alerts, t.checkLinks(page, b.Bytes(), parts)
}

// part is where a template's text starts in the page before tidy.
type part struct {
	template string
	start    int
}

func (t *Templates) execute(b *bytes.Buffer, name string, p Page) error {
	if err := t.t.ExecuteTemplate(b, name, p); err != nil {
		return fmt.Errorf("%s: %w", t.source[name], err)
	}
	return nil
}

// checkLinks fails on a link within the page to an anchor that no
// heading of it has, naming the template that wrote the link.
func (t *Templates) checkLinks(page, raw []byte, parts []part) error {
	anchors := Anchors(page)
	for i, p := range parts {
		end := len(raw)
		if i+1 < len(parts) {
			end = parts[i+1].start
		}
		for _, a := range localLinks(raw[p.start:end]) {
			if !anchors[a] {
				return fmt.Errorf("%s: links to #%s, but no heading of the runbook has that anchor", t.source[p.template], a)
			}
		}
	}
	return nil
}

// tidy drops trailing spaces and runs of blank lines, which templates
// leave where an optional part is empty, and ends the page with one
// newline.
func tidy(page []byte) []byte {
	out := make([]byte, 0, len(page))
	blank := false
	for line := range bytes.Lines(page) {
		line = bytes.TrimRight(line, " \t\n")
		if len(line) == 0 && blank {
			continue
		}
		blank = len(line) == 0
		out = append(append(out, line...), '\n')
	}
	return append(bytes.TrimRight(out, "\n"), '\n')
}

// localLinks are the anchors that Markdown links within the page,
// [text](#anchor), point at.
func localLinks(text []byte) []string {
	var out []string
	for {
		i := bytes.Index(text, []byte("](#"))
		if i < 0 {
			return out
		}
		text = text[i+3:]
		if j := bytes.IndexByte(text, ')'); j >= 0 && !bytes.ContainsAny(text[:j], " \t\n") {
			out = append(out, string(text[:j]))
		}
	}
}

// code is a fenced code block, fenced with more backticks than the text
// holds in a row, so that no query can end it early.
func code(lang, text string) string {
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	return fence + lang + "\n" + strings.TrimRight(text, "\n") + "\n" + fence
}

// indent indents every line but blank ones by n spaces, to nest a code
// block in a list item.
func indent(n int, text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = strings.Repeat(" ", n) + l
		}
	}
	return strings.Join(lines, "\n")
}

// hang indents every line of text but the first by n spaces, to continue
// a list item with text that breaks its lines.
func hang(n int, text string) string {
	first, rest, ok := strings.Cut(text, "\n")
	if !ok {
		return text
	}
	return first + "\n" + indent(n, rest)
}

// list writes names as code, in a sentence: `a`, `b` and `c`.
func list(names []string) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = "`" + n + "`"
	}
	if len(quoted) < 2 {
		return strings.Join(quoted, "")
	}
	return strings.Join(quoted[:len(quoted)-1], ", ") + " and " + quoted[len(quoted)-1]
}
