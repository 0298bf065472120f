package yamlenc

import (
	"strings"
)

// yaml.v3 picks a string's style in two steps, ported here from its
// encode.go and emitterc.go. Its encoder asks for a literal block when the
// string has a newline, for plain when the string reads back as a string,
// for double quotes otherwise. Its emitter then falls back, from plain to
// single quotes to double quotes and from a literal block to double
// quotes, when the string's characters or its place do not allow the
// style asked for.

type scalarStyle uint8

const (
	plainStyle scalarStyle = iota
	singleQuoted
	doubleQuoted
	literalBlock
)

// v3Style is the style yaml.v3 writes s in, in a flow sequence or not.
func v3Style(s string, flow bool) scalarStyle {
	if ordinary(s) {
		if readsAsString(s) {
			return plainStyle
		}
		return doubleQuoted
	}
	a := analyze(s)
	switch {
	case strings.Contains(s, "\n"):
		if a.blockAllowed && !flow {
			return literalBlock
		}
		return doubleQuoted
	case !readsAsString(s):
		return doubleQuoted
	case flow && a.flowPlain || !flow && a.blockPlain:
		return plainStyle
	case a.singleAllowed:
		return singleQuoted
	}
	return doubleQuoted
}

// simpleKey reports whether yaml.v3 writes s as a key on its value's line,
// rather than after "? " on a line of its own.
func simpleKey(s string) bool {
	return len(s) <= 128 && (ordinary(s) || !analyze(s).multiline)
}

// ordinary reports the strings most of slogen's are, which analyze would
// find no fault with: names, paths and numbers, of letters, digits and
// "_./-", starting with neither "-" nor "...".
func ordinary(s string) bool {
	if s == "" || s[0] == '-' || strings.HasPrefix(s, "...") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !ordinaryByte[s[i]] {
			return false
		}
	}
	return true
}

var ordinaryByte = func() (t [256]bool) {
	for _, c := range "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-" {
		t[c] = true
	}
	return t
}()

// analysis is what yaml.v3's emitter allows a string, by its characters
// (yaml_emitter_analyze_scalar).
type analysis struct {
	multiline     bool
	flowPlain     bool
	blockPlain    bool
	singleAllowed bool
	blockAllowed  bool
}

func analyze(s string) analysis {
	if s == "" {
		return analysis{blockPlain: true, singleAllowed: true}
	}
	c := chars(s)
	a := analysis{multiline: c.breaks, flowPlain: true, blockPlain: true, singleAllowed: true, blockAllowed: true}
	if c.leadingSpace || c.leadingBreak || c.trailingSpace || c.trailingBreak || c.breaks {
		a.flowPlain, a.blockPlain = false, false
	}
	if c.breakSpace || c.spaceBreak || c.tabs || c.special {
		a.flowPlain, a.blockPlain, a.singleAllowed = false, false, false
	}
	if c.trailingSpace || c.spaceBreak || c.special {
		a.blockAllowed = false
	}
	a.flowPlain = a.flowPlain && !c.flowIndicators
	a.blockPlain = a.blockPlain && !c.blockIndicators
	return a
}

// charClasses are the kinds of character a string has, and where.
type charClasses struct {
	flowIndicators, blockIndicators bool
	breaks, special, tabs           bool
	leadingSpace, leadingBreak      bool
	trailingSpace, trailingBreak    bool
	breakSpace, spaceBreak          bool // a space after a line break, a line break after a space
}

func chars(s string) charClasses {
	var c charClasses
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		c.flowIndicators, c.blockIndicators = true, true
	}
	afterBlank, prevSpace, prevBreak := true, false, false
	for i, w := 0, 0; i < len(s); i += w {
		w = width(s[i])
		beforeBlank := i+w >= len(s) || s[i+w] == ' ' || s[i+w] == '\t'
		c.indicator(s[i], i == 0, afterBlank, beforeBlank)
		if s[i] == '\t' {
			c.tabs = true
		} else if !printableAt(s, i) {
			c.special = true
		}
		last := i+w == len(s)
		switch {
		case s[i] == ' ':
			c.leadingSpace = c.leadingSpace || i == 0
			c.trailingSpace = c.trailingSpace || last
			c.breakSpace = c.breakSpace || prevBreak
			prevSpace, prevBreak = true, false
		case breakAt(s, i):
			c.breaks = true
			c.leadingBreak = c.leadingBreak || i == 0
			c.trailingBreak = c.trailingBreak || last
			c.spaceBreak = c.spaceBreak || prevSpace
			prevSpace, prevBreak = false, true
		default:
			prevSpace, prevBreak = false, false
		}
		afterBlank = s[i] == ' ' || s[i] == '\t' || s[i] == 0 || breakAt(s, i)
	}
	return c
}

// indicator notes the YAML indicators that keep a string from being
// written plain, in a flow collection or in a block one.
func (c *charClasses) indicator(b byte, first, afterBlank, beforeBlank bool) {
	switch {
	case first && strings.IndexByte("#,[]{}&*!|>'\"%@`", b) >= 0:
		c.flowIndicators, c.blockIndicators = true, true
	case first && b == '-':
		c.flowIndicators = c.flowIndicators || beforeBlank
		c.blockIndicators = c.blockIndicators || beforeBlank
	case b == '?' && first, b == ':':
		c.flowIndicators = true
		c.blockIndicators = c.blockIndicators || beforeBlank
	case !first && strings.IndexByte(",?[]{}", b) >= 0:
		c.flowIndicators = true
	case !first && b == '#' && afterBlank:
		c.flowIndicators, c.blockIndicators = true, true
	}
}

// width is the length of the UTF-8 sequence that starts with b.
func width(b byte) int {
	switch {
	case b < 0x80:
		return 1
	case b&0xE0 == 0xC0:
		return 2
	case b&0xF0 == 0xE0:
		return 3
	}
	return 4
}

// printableAt is yaml.v3's is_printable: a newline, or a character of
// Unicode's basic plane other than C0 and C1 controls, DEL, surrogates, the
// byte order mark and U+FFFE/U+FFFF. Characters beyond it are escaped.
func printableAt(s string, i int) bool {
	b := s[i]
	switch {
	case b == '\n' || b >= 0x20 && b <= 0x7E:
		return true
	case b == 0xC2:
		return s[i+1] >= 0xA0
	case b > 0xC2 && b < 0xED, b == 0xEE:
		return true
	case b == 0xED:
		return s[i+1] < 0xA0
	case b == 0xEF:
		return !(s[i+1] == 0xBB && s[i+2] == 0xBF) && !(s[i+1] == 0xBF && (s[i+2] == 0xBE || s[i+2] == 0xBF))
	}
	return false
}

// breakAt reports a line break as YAML 1.1 knows them: CR, LF, NEL, and
// the Unicode line and paragraph separators.
func breakAt(s string, i int) bool {
	switch s[i] {
	case '\r', '\n':
		return true
	case 0xC2:
		return s[i+1] == 0x85
	case 0xE2:
		return s[i+1] == 0x80 && (s[i+2] == 0xA8 || s[i+2] == 0xA9)
	}
	return false
}
