package yamlenc

import (
	"fmt"
	"reflect"
	"strings"
	"unicode/utf8"
)

// v3Key writes a mapping key and its colon. yaml.v3 writes a long or
// multi-line key as a complex one: after "? ", with the colon on a line of
// its own and the value after it on that line.
func (e *encoder) v3Key(k string, indent int) (complexKey bool, err error) {
	if !utf8.ValidString(k) {
		return false, invalidUTF8(k)
	}
	complexKey = !simpleKey(k)
	if complexKey {
		e.buf.WriteString("? ")
	}
	e.v3String(k, v3Style(k, false), indent+2)
	if complexKey {
		e.indent(indent)
	}
	e.buf.WriteByte(':')
	return complexKey, nil
}

// v3Value writes a string value at indent.
func (e *encoder) v3Value(s string, indent int) error {
	if !utf8.ValidString(s) {
		return invalidUTF8(s)
	}
	e.buf.WriteByte(' ')
	e.v3String(s, v3Style(s, false), indent)
	if !e.atLineStart() {
		e.buf.WriteByte('\n')
	}
	return nil
}

// flowSequence writes a slice of strings at indent on one line, in
// brackets. yaml.v3 indents a flow sequence's items a level deeper than
// the sequence: text after a line break in them starts there.
func (e *encoder) flowSequence(v reflect.Value, indent int) error {
	if !e.v3 || v.Kind() != reflect.Slice || v.Type().Elem().Kind() != reflect.String {
		return fmt.Errorf("yamlenc: flow style is for slices of strings in yaml.v3's spelling, not %s", v.Type())
	}
	e.buf.WriteString(" [")
	for i := range v.Len() {
		s := v.Index(i).String()
		if !utf8.ValidString(s) {
			return invalidUTF8(s)
		}
		if i > 0 {
			e.buf.WriteString(", ")
		}
		e.v3String(s, v3Style(s, true), indent+2)
	}
	e.line("]")
	return nil
}

func invalidUTF8(s string) error {
	return fmt.Errorf("yamlenc: %.20q… is not UTF-8", s)
}

// v3String writes s where yaml.v3 would, in the style it would; indent is
// where text after a line break in s starts.
func (e *encoder) v3String(s string, style scalarStyle, indent int) {
	switch style {
	case plainStyle:
		e.buf.WriteString(s)
	case singleQuoted:
		e.buf.WriteByte('\'')
		e.lines(s, indent, false, func(t string) { e.buf.WriteString(strings.ReplaceAll(t, "'", "''")) })
		e.buf.WriteByte('\'')
	case doubleQuoted:
		e.doubleQuoted(s)
	case literalBlock:
		e.buf.WriteByte('|')
		e.buf.WriteString(blockHints(s))
		e.buf.WriteByte('\n')
		e.lines(s, indent, true, func(t string) { e.buf.WriteString(t) })
	}
}

// lines writes s's line breaks as they are and the text between them with
// write, indenting the text that follows a break (and the first, when
// indentFirst is set) as yaml.v3 does. Only a newline, U+2028 and U+2029
// reach here: the other breaks are written double-quoted.
func (e *encoder) lines(s string, indent int, indentFirst bool, write func(string)) {
	indented := indentFirst
	for s != "" {
		i, w := nextBreak(s)
		if i > 0 && indented {
			e.spaces(indent)
		}
		write(s[:i])
		e.buf.WriteString(s[i : i+w])
		s, indented = s[i+w:], true
	}
}

// nextBreak returns where s's first line break starts and its length, or
// len(s) and 0.
func nextBreak(s string) (int, int) {
	for i := 0; i < len(s); i++ {
		if breakAt(s, i) {
			return i, width(s[i])
		}
	}
	return len(s), 0
}

// blockHints are a literal block's indentation indicator, when its first
// line is empty or starts with a space, and its chomping indicator: "-" to
// drop the last line break, none to keep it, "+" to keep several.
func blockHints(s string) string {
	var h string
	if s[0] == ' ' || breakAt(s, 0) {
		h = "2"
	}
	last := lastRuneStart(s)
	switch {
	case !breakAt(s, last):
		h += "-"
	case last == 0 || breakAt(s, lastRuneStart(s[:last])):
		h += "+"
	}
	return h
}

func lastRuneStart(s string) int {
	_, w := utf8.DecodeLastRuneInString(s)
	return len(s) - w
}

// doubleQuoted writes s in double quotes with yaml.v3's escapes: for
// quotes, backslashes, line breaks and what is not printable, and for
// every character of a string that starts with a byte order mark.
func (e *encoder) doubleQuoted(s string) {
	bom := strings.HasPrefix(s, "\uFEFF")
	e.buf.WriteByte('"')
	for i := 0; i < len(s); {
		w := width(s[i])
		if bom || s[i] == '"' || s[i] == '\\' || !printableAt(s, i) || breakAt(s, i) {
			r, _ := utf8.DecodeRuneInString(s[i:])
			e.escape(r)
		} else {
			e.buf.WriteString(s[i : i+w])
		}
		i += w
	}
	e.buf.WriteByte('"')
}

func (e *encoder) escape(r rune) {
	e.buf.WriteByte('\\')
	switch c, short := shortEscapes[r]; {
	case short:
		e.buf.WriteByte(c)
	case r <= 0xFF:
		fmt.Fprintf(&e.buf, "x%02X", r)
	case r <= 0xFFFF:
		fmt.Fprintf(&e.buf, "u%04X", r)
	default:
		fmt.Fprintf(&e.buf, "U%08X", r)
	}
}

var shortEscapes = map[rune]byte{
	0: '0', '\a': 'a', '\b': 'b', '\t': 't', '\n': 'n', '\v': 'v', '\f': 'f', '\r': 'r', 0x1B: 'e',
	'"': '"', '\\': '\\', 0x85: 'N', 0xA0: '_', 0x2028: 'L', 0x2029: 'P',
}
