package ruletemplate

import (
	"cmp"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Setting an identity aside replaces its values with a mark of their
// position (Identity.values). Only the service's name is looked for in
// running text, where slogen writes it (summaries, group names, pod
// patterns); the other values (team, model, selector values) are set
// aside only where they are a whole value: a label's value, a matcher's,
// a quoted string. A team named "code" thus leaves the word "code" in an
// alert's description alone, as every other service's rules keep it.

// setAside sets the identity aside in a rule file's text: the name where
// it is a whole word, the other values where quotes or a YAML key and the
// line's end enclose them.
func setAside(s string, values []string) string {
	return string(appendAside(nil, s, values))
}

// appendAside appends s to dst with the identity set aside, finding every
// occurrence first and copying the text once: a fleet's build sets aside
// a thousand services' rule files.
func appendAside(dst []byte, s string, values []string) []byte {
	sc := scratches.Get().(*scratch)
	defer scratches.Put(sc)
	found := sc.found[:0]
	taken := slices.Grow(sc.taken[:0], len(s))[:len(s)] // what found holds
	clear(taken)
	for _, i := range longestFirst(values) {
		found = occurrences(s, values[i], i, found, taken)
	}
	sc.found, sc.taken = found, taken
	slices.SortFunc(found, func(a, b span) int { return cmp.Compare(a.from, b.from) })
	at := 0
	for _, f := range found {
		dst = append(append(dst, s[at:f.from]...), mark(f.value)...)
		at = f.to
	}
	return append(dst, s[at:]...)
}

// scratch is what appendAside works in, kept between calls: a fleet's
// build sets aside some 50 KB of rule files a service.
type scratch struct {
	found []span
	taken []bool
}

var scratches = sync.Pool{New: func() any { return new(scratch) }}

// span is where an identity value occurs in a text.
type span struct{ from, to, value int }

// occurrences adds to found where values[i] occurs in s as its kind of
// value, outside what found already holds: the name as a whole word, any
// other value quoted or as a YAML value. A neighbour inside a longer
// value already found counts as no letter, as its mark will be.
func occurrences(s, v string, i int, found []span, held []bool) []span {
	taken := func(at int) bool { return at >= 0 && at < len(held) && held[at] }
	isWord := func(at int) bool { return touches(s, at) && !taken(at) }
	for from := 0; ; {
		at := strings.Index(s[from:], v)
		if at < 0 {
			return found
		}
		at += from
		end := at + len(v)
		from = at + 1
		if taken(at) || taken(end-1) {
			continue
		}
		whole := !isWord(at-1) && !isWord(end)
		if i > 0 {
			whole = quoted(s, at, end) || yamlValue(s, at, end)
		}
		if whole {
			found = append(found, span{at, end, i})
			for k := at; k < end; k++ {
				held[k] = true
			}
			from = end
		}
	}
}

// asideValue sets the identity aside in one parsed value: a value that is
// one of the identity's is its mark; any other is set aside as text is,
// so that a query quoted in an annotation loses its values as the file's
// text does, and nothing Key finds equal can differ here.
func asideValue(v string, values []string) string {
	for i, id := range values {
		if id != "" && v == id {
			return mark(i)
		}
	}
	return setAside(v, values)
}

// asidePattern is asideValue for a regular expression, which slogen
// writes quoted (regexp.QuoteMeta) when a value is not a plain word.
func asidePattern(v string, values []string) string {
	for i, id := range values {
		if id != "" && v == regexp.QuoteMeta(id) {
			return mark(i)
		}
	}
	return asideValue(v, values)
}

// longestFirst orders the indices of the non-empty values, longest first,
// then by position, so that a name is set aside before a team it starts
// with.
func longestFirst(values []string) []int {
	var idx []int
	for i, v := range values {
		if v != "" {
			idx = append(idx, i)
		}
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(len(values[b]), len(values[a])) })
	return idx
}

// mark is a value's position between brackets no rule file slogen
// writes has; printable, so that a printed query keeps it as it is.
func mark(i int) string { return markOpen + strconv.Itoa(i) + markClose }

const markOpen, markClose = "⟨", "⟩"

// quoted says whether double or single quotes enclose s[i:end].
func quoted(s string, i, end int) bool {
	return i > 0 && end < len(s) && (s[i-1] == '"' && s[end] == '"' || s[i-1] == '\'' && s[end] == '\'')
}

// yamlValue says whether s[i:end] is a YAML mapping's plain value, from
// ": " to the line's end.
func yamlValue(s string, i, end int) bool {
	return i > 1 && s[i-2:i] == ": " && (end == len(s) || s[end] == '\n')
}

// touches says whether s[i] is a letter, digit or underscore.
func touches(s string, i int) bool {
	if i < 0 || i >= len(s) {
		return false
	}
	c := s[i]
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
