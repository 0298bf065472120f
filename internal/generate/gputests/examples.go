package gputests

import (
	"fmt"
	"regexp/syntax"
	"strings"

	"github.com/prometheus/prometheus/model/labels"
)

// example is a label value that m matches, for synthetic test series: the
// value itself for an equality, and for a regular expression a short
// string built from its syntax tree (pod "chat-llama-.*" gives
// "chat-llama-0").
func example(m *labels.Matcher) (string, error) {
	v := m.Value
	if m.Type == labels.MatchRegexp {
		re, err := syntax.Parse(m.Value, syntax.Perl)
		if err != nil {
			return "", err
		}
		var b strings.Builder
		write(&b, re.Simplify())
		v = b.String()
	}
	if m.Type == labels.MatchNotEqual || m.Type == labels.MatchNotRegexp || !m.Matches(v) {
		return "", fmt.Errorf("cannot make up a value matching %s", m)
	}
	return v, nil
}

func write(b *strings.Builder, re *syntax.Regexp) {
	switch re.Op {
	case syntax.OpLiteral:
		b.WriteString(string(re.Rune))
	case syntax.OpCharClass:
		if len(re.Rune) > 0 {
			b.WriteRune(re.Rune[0])
		}
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte('0')
	case syntax.OpCapture:
		write(b, re.Sub[0])
	case syntax.OpPlus, syntax.OpStar:
		write(b, re.Sub[0])
	case syntax.OpRepeat:
		for range max(re.Min, 1) {
			write(b, re.Sub[0])
		}
	case syntax.OpConcat:
		for _, s := range re.Sub {
			write(b, s)
		}
	case syntax.OpAlternate:
		write(b, re.Sub[0])
	}
}
