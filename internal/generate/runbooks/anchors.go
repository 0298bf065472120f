package runbooks

import (
	"bufio"
	"bytes"
	"fmt"
	"strings"
	"unicode"
)

// Anchors are the anchors GitHub gives a Markdown page's headings (ATX
// headings outside fenced code), the ones links can point at.
func Anchors(page []byte) map[string]bool {
	out := map[string]bool{}
	seen := map[string]int{}
	var code codeFences
	sc := bufio.NewScanner(bytes.NewReader(page))
	for sc.Scan() {
		line := sc.Text()
		if fence, inside := code.next(line); fence || inside {
			continue
		}
		text, ok := heading(line)
		if !ok {
			continue
		}
		a := anchor(text)
		if n := seen[a]; n > 0 {
			seen[a]++
			a = fmt.Sprintf("%s-%d", a, n)
		} else {
			seen[a] = 1
		}
		out[a] = true
	}
	return out
}

// codeFences follows fenced code down a page, line by line.
type codeFences struct{ open string }

// next reads the page's next line: fence says it opens or closes fenced
// code, inside that it is code within a fence.
func (c *codeFences) next(line string) (fence, inside bool) {
	if f := fenceOf(line); f != "" && (c.open == "" || strings.HasPrefix(f, c.open)) {
		if c.open == "" {
			c.open = f
		} else {
			c.open = ""
		}
		return true, false
	}
	return false, c.open != ""
}

// fenceOf is the fence that opens or closes fenced code on the line: a
// run of three or more backticks or tildes, or "" when there is none.
func fenceOf(line string) string {
	s, ok := indented(line)
	if !ok || len(s) < 3 || (s[0] != '`' && s[0] != '~') {
		return ""
	}
	n := len(s) - len(strings.TrimLeft(s, s[:1]))
	if n < 3 {
		return ""
	}
	return s[:n]
}

// heading is the text of an ATX heading (# to ######), without its
// closing hashes.
func heading(line string) (string, bool) {
	s, ok := indented(line)
	n := len(s) - len(strings.TrimLeft(s, "#"))
	if !ok || n == 0 || n > 6 {
		return "", false
	}
	rest := s[n:]
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' {
		return "", false // #hashtag
	}
	rest = strings.Trim(rest, " \t")
	if t := strings.TrimRight(rest, "#"); t == "" || strings.HasSuffix(t, " ") || strings.HasSuffix(t, "\t") {
		rest = strings.TrimRight(t, " \t")
	}
	return rest, true
}

// indented is the line without the up to three spaces that Markdown
// allows before a heading or a fence; false when it is indented more.
func indented(line string) (string, bool) {
	s := strings.TrimLeft(line, " ")
	return s, len(line)-len(s) <= 3
}

// anchor is GitHub's anchor of a heading's text: lower case, without
// punctuation other than hyphens and underscores, spaces as hyphens.
func anchor(text string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(text) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}
