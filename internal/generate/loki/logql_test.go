package loki_test

import (
	"fmt"
	"strconv"
	"strings"
	"text/scanner"

	"github.com/prometheus/prometheus/model/labels"
)

// query is what a test reads back from a generated LogQL expression with
// a reader of its own, as Loki's lexer reads it (text/scanner, strings
// unquoted with Go's escapes: grafana/loki pkg/logql/syntax/lex.go): the
// stream selector's matchers and the strings of the |= line filters.
type query struct {
	streams []*labels.Matcher
	filters []string
}

// token is a lexeme: a string's value unquoted, or the text of anything
// else, two-rune operators joined.
type token struct {
	text     string
	isString bool
}

// readQuery reads expr's stream selector and line filters. It fails on
// brackets that do not balance, a string Go cannot unquote, a selector
// that is not label, operator and string, comma-separated, or a regular
// expression Go's regexp (RE2, as Loki's) does not compile.
func readQuery(expr string) (query, error) {
	toks, err := lex(expr)
	if err != nil {
		return query{}, err
	}
	if err := balanced(toks); err != nil {
		return query{}, err
	}
	var q query
	for i := 0; i < len(toks); i++ {
		switch toks[i].text {
		case "{":
			ms, next, err := selectorAt(toks, i+1)
			if err != nil {
				return query{}, err
			}
			q.streams, i = append(q.streams, ms...), next
		case "|=":
			if i+1 >= len(toks) || !toks[i+1].isString {
				return query{}, fmt.Errorf("|= takes a string")
			}
			q.filters = append(q.filters, toks[i+1].text)
		}
	}
	if len(q.streams) == 0 {
		return query{}, fmt.Errorf("no stream selector")
	}
	return q, nil
}

func lex(expr string) ([]token, error) {
	var s scanner.Scanner
	s.Init(strings.NewReader(expr))
	s.Mode = scanner.ScanIdents | scanner.ScanInts | scanner.ScanStrings | scanner.ScanRawStrings
	var errs []string
	s.Error = func(_ *scanner.Scanner, msg string) { errs = append(errs, msg) }
	var toks []token
	for r := s.Scan(); r != scanner.EOF; r = s.Scan() {
		text := s.TokenText()
		switch r {
		case scanner.String, scanner.RawString:
			v, err := strconv.Unquote(text)
			if err != nil {
				return nil, fmt.Errorf("string %s: %v", text, err)
			}
			toks = append(toks, token{v, true})
			continue
		case '|', '=', '!':
			if next := s.Peek(); next == '=' || next == '~' {
				text += string(s.Next())
			}
		}
		toks = append(toks, token{text: text})
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return toks, nil
}

// balanced checks that every bracket closes the last one opened.
func balanced(toks []token) error {
	pairs := map[string]string{")": "(", "}": "{", "]": "["}
	var open []string
	for _, t := range toks {
		switch {
		case t.isString:
		case t.text == "(" || t.text == "{" || t.text == "[":
			open = append(open, t.text)
		case pairs[t.text] != "":
			if len(open) == 0 || open[len(open)-1] != pairs[t.text] {
				return fmt.Errorf("%s closes nothing open", t.text)
			}
			open = open[:len(open)-1]
		}
	}
	if len(open) > 0 {
		return fmt.Errorf("%v left open", open)
	}
	return nil
}

// selectorAt reads label matchers from toks[i] to the closing brace; it
// returns them and the brace's index.
func selectorAt(toks []token, i int) ([]*labels.Matcher, int, error) {
	types := map[string]labels.MatchType{"=": labels.MatchEqual, "!=": labels.MatchNotEqual, "=~": labels.MatchRegexp, "!~": labels.MatchNotRegexp}
	var ms []*labels.Matcher
	for ; i+3 < len(toks); i += 4 {
		name, op, value := toks[i], toks[i+1], toks[i+2]
		typ, ok := types[op.text]
		if name.isString || !ok || !value.isString {
			return nil, 0, fmt.Errorf("matcher %q %q %q is not label, operator, string", name.text, op.text, value.text)
		}
		m, err := labels.NewMatcher(typ, name.text, value.text)
		if err != nil {
			return nil, 0, err
		}
		ms = append(ms, m)
		if end := toks[i+3]; end.text == "}" {
			return ms, i + 3, nil
		} else if end.text != "," {
			return nil, 0, fmt.Errorf("%q after a matcher", end.text)
		}
	}
	return nil, 0, fmt.Errorf("selector not closed")
}
