package runbooks

import (
	"slices"
	"strings"

	"github.com/slogen-dev/slogen/internal/model"
)

// Placeholders a fleet's runbook writes where a service's identity goes,
// for the reader to fill in from the alert's labels or the runbook's
// table of services. Braces, not angle brackets: Markdown would take
// <service> for an HTML tag and show nothing.
const (
	ServicePlaceholder = "{service}"
	TeamPlaceholder    = "{team}"
	ModelPlaceholder   = "{model}"
)

// SelectorPlaceholder stands for the value of one of the selector's
// labels.
func SelectorPlaceholder(label string) string { return "{selector." + label + "}" }

// identity is what a service's identity is written as in its runbook,
// and the placeholder each value stands for.
type identity struct {
	values, placeholders []string
	// exact is set when the values are a shape's placeholders, which no
	// other text holds: they are replaced wherever they occur, even inside
	// a longer word (slogen-z-0q). A real service's values are replaced
	// only as whole words.
	exact bool
}

// identityOf is the service's name, selector values, team and model, the
// first placeholder for a value winning where two are equal (a job named
// as its service is {service}).
func identityOf(svc model.Service, exact bool) identity {
	id := identity{exact: exact}
	add := func(value, placeholder string) {
		if value != "" && !slices.Contains(id.values, value) {
			id.values = append(id.values, value)
			id.placeholders = append(id.placeholders, placeholder)
		}
	}
	add(svc.Name, ServicePlaceholder)
	for _, l := range svc.Selector {
		add(l.Value, SelectorPlaceholder(l.Name))
	}
	add(svc.Team, TeamPlaceholder)
	add(svc.Model, ModelPlaceholder)
	// as a runtime that lower-cases it on some metrics writes it (Dynamo)
	add(strings.ToLower(svc.Model), ModelPlaceholder)
	return id
}

// replace writes the placeholders over the identity's values where the
// templates write an identity: in code, spans and fenced blocks, and in
// headings. Prose is left alone, where a selector value may be a word
// (inference) that means something else.
func (id identity) replace(text string) string {
	lines := strings.Split(text, "\n")
	var code codeFences
	for i, line := range lines {
		fence, inside := code.next(strings.TrimLeft(line, " \t"))
		if fence {
			continue
		}
		if _, ok := heading(line); ok || inside {
			lines[i] = id.replaceAll(line)
		} else {
			lines[i] = id.replaceInSpans(line)
		}
	}
	return strings.Join(lines, "\n")
}

// replaceInSpans replaces the identity in the line's code spans: between
// two runs of as many backticks.
func (id identity) replaceInSpans(line string) string {
	var b strings.Builder
	for {
		open := strings.IndexByte(line, '`')
		if open < 0 {
			b.WriteString(line)
			return b.String()
		}
		n := len(line[open:]) - len(strings.TrimLeft(line[open:], "`"))
		fence := line[open : open+n]
		end := strings.Index(line[open+n:], fence)
		if end < 0 {
			b.WriteString(line)
			return b.String()
		}
		b.WriteString(line[:open+n])
		b.WriteString(id.replaceAll(line[open+n : open+n+end]))
		b.WriteString(fence)
		line = line[open+n+end+n:]
	}
}

// replaceAll writes the placeholders over every occurrence of the
// identity's values in text, the longest value first where two start at
// one place.
func (id identity) replaceAll(text string) string {
	var b strings.Builder
	for pos := 0; ; {
		at, which := -1, -1
		for i, v := range id.values {
			j := id.index(text, v, pos)
			if j >= 0 && (at < 0 || j < at || j == at && len(v) > len(id.values[which])) {
				at, which = j, i
			}
		}
		if at < 0 {
			b.WriteString(text[pos:])
			return b.String()
		}
		b.WriteString(text[pos:at])
		b.WriteString(id.placeholders[which])
		pos = at + len(id.values[which])
	}
}

// index is where value next occurs in text from pos, as a whole word
// unless the identity is exact; -1 when it does not.
func (id identity) index(text, value string, pos int) int {
	for {
		i := strings.Index(text[pos:], value)
		if i < 0 {
			return -1
		}
		at, end := pos+i, pos+i+len(value)
		if id.exact || (at == 0 || !isWordByte(text[at-1])) && (end == len(text) || !isWordByte(text[end])) {
			return at
		}
		pos = at + 1
	}
}

// isWordByte is a byte that continues a name, a metric's (vllm:) or a
// model's (org/name-3.1): a hyphen does not, so that slogen-chat's chat
// is a whole word.
func isWordByte(b byte) bool {
	return strings.IndexByte("_:./", b) >= 0 || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// cell writes a spec value as code in a table's cell: a pipe, which would
// end the cell, escaped, and fenced with more backticks than it holds in
// a row.
func cell(s string) string {
	if s == "" {
		return "–"
	}
	if !strings.ContainsAny(s, "|`\n") {
		return "`" + s + "`"
	}
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\n", " "), "|", `\|`)
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		return fence + " " + s + " " + fence
	}
	return fence + s + fence
}

// demoteHeadings lowers every heading of text outside fenced code by n
// levels, down to the sixth, so that a rendering's headings nest under
// the fleet runbook's.
func demoteHeadings(text string, n int) string {
	if n == 0 {
		return text
	}
	lines := strings.Split(text, "\n")
	var code codeFences
	for i, line := range lines {
		if fence, inside := code.next(line); fence || inside {
			continue
		}
		if _, ok := heading(line); ok {
			s, _ := indented(line)
			level := len(s) - len(strings.TrimLeft(s, "#"))
			lines[i] = strings.Repeat("#", min(level+n, 6)-level) + s
		}
	}
	return strings.Join(lines, "\n")
}
