package yamlenc

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Plain reports whether YAML writes s as it is, unquoted: a value that
// holds no indicator and reads as no other type.
func Plain(s string) bool { return plain(s) }

// plain reports whether s can be written as a plain scalar and read back
// as the same string: no surrounding space, no indicator at the start, no
// ": " or " #" inside, nothing YAML 1.1 or 1.2 would read as another type.
func plain(s string) bool {
	if s == "" || s != strings.TrimSpace(s) || !printable(s) {
		return false
	}
	if strings.ContainsRune("-?:,[]{}#&*!|>'\"%@`", rune(s[0])) {
		return false
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":") {
		return false
	}
	return !otherType(s)
}

// otherType reports strings a YAML parser would turn into a bool, null,
// number or timestamp.
func otherType(s string) bool {
	if c := s[0]; (c < '0' || c > '9') && c != '+' && c != '-' && c != '.' && c != '~' && !keywordStart(c) {
		return false // every number, date and keyword starts with one of these
	}
	if len(s) <= len("false") {
		switch strings.ToLower(s) {
		case "y", "yes", "n", "no", "true", "false", "on", "off", "null", "~", ".inf", "-.inf", "+.inf", ".nan":
			return true
		}
	}
	if couldBeNumber(s) {
		if _, err := strconv.ParseFloat(strings.ReplaceAll(s, "_", ""), 64); err == nil {
			return true
		}
		if _, err := strconv.ParseInt(s, 0, 64); err == nil {
			return true
		}
	}
	return looksLikeTimestamp(s) && timestamp.MatchString(s) || strings.Contains(s, ":") && sexagesimal.MatchString(s)
}

// couldBeNumber is the parsers' cheap first test, which spares a failed
// parse (and its error) for the many strings such as series values
// (0+999.5x190) that start like a number: a sign comes only first or
// after an exponent, and no space.
func couldBeNumber(s string) bool {
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ':
			return false
		case (c == '+' || c == '-') && !strings.ContainsRune("eEpP", rune(s[i-1])):
			return false
		}
	}
	return true
}

// looksLikeTimestamp is the regular expression's cheap first test: four
// digits and a dash.
func looksLikeTimestamp(s string) bool {
	if len(s) < 5 || s[4] != '-' {
		return false
	}
	for _, c := range s[:4] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// YAML 1.1 reads these as timestamps and base-60 numbers.
var (
	timestamp   = regexp.MustCompile(`^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}`)
	sexagesimal = regexp.MustCompile(`^[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\.[0-9_]*)?$`)
)

func keywordStart(c byte) bool {
	return strings.IndexByte("yYnNtTfFoO", c) >= 0
}

func printable(s string) bool {
	if printableASCII(s) {
		return true
	}
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) || r == '\u00a0' || r == '\ufeff' {
			return false
		}
	}
	return true
}

// printableASCII is printable's fast path: nearly everything slogen
// writes is plain ASCII.
func printableASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] > 0x7e {
			return false
		}
	}
	return true
}

// block reports whether a multi-line string survives a literal block:
// every line printable, no trailing spaces, the first neither empty nor
// indented (YAML takes the block's indentation from it).
func block(s string) bool {
	if !strings.Contains(s, "\n") || strings.HasSuffix(s, "\n") || strings.HasPrefix(s, " ") || strings.HasPrefix(s, "\n") {
		return false
	}
	for _, l := range strings.Split(s, "\n") {
		if l != strings.TrimRight(l, " ") || !printable(l) {
			return false
		}
	}
	return true
}

// quote writes a single-quoted scalar when the string is printable on one
// line (as yaml.v3 does: it reads best), double-quoted with escapes otherwise.
func quote(s string) string {
	if printable(s) && s == strings.TrimSpace(s) {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	return doubleQuote(s)
}

// doubleQuote writes a double-quoted scalar; YAML's escapes include JSON's.
func doubleQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f || !unicode.IsPrint(r) && r != ' ':
			if r > 0xffff {
				b.WriteString(`\U` + pad(strconv.FormatInt(int64(r), 16), 8))
			} else {
				b.WriteString(`\u` + pad(strconv.FormatInt(int64(r), 16), 4))
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func pad(s string, n int) string { return strings.Repeat("0", n-len(s)) + s }
