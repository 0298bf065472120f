package pql

import (
	"regexp"
	"strings"

	"github.com/prometheus/prometheus/model/labels"
)

// Eq, Neq, Re and NotRe are label matchers; a bad regular expression is
// a bug in slogen, not in a spec (specs' regexps are checked on load).
func Eq(name, value string) *labels.Matcher    { return matcher(labels.MatchEqual, name, value) }
func Neq(name, value string) *labels.Matcher   { return matcher(labels.MatchNotEqual, name, value) }
func Re(name, value string) *labels.Matcher    { return matcher(labels.MatchRegexp, name, value) }
func NotRe(name, value string) *labels.Matcher { return matcher(labels.MatchNotRegexp, name, value) }

func matcher(t labels.MatchType, name, value string) *labels.Matcher {
	return labels.MustNewMatcher(t, name, value)
}

// OneOf matches a label whose value is one of values, each matched
// literally; NoneOf, one whose value is none of them.
func OneOf(name string, values ...string) *labels.Matcher {
	return matcher(labels.MatchRegexp, name, alternatives(values))
}

func NoneOf(name string, values ...string) *labels.Matcher {
	return matcher(labels.MatchNotRegexp, name, alternatives(values))
}

func alternatives(values []string) string {
	quoted := make([]string, len(values))
	for i, v := range values {
		quoted[i] = regexp.QuoteMeta(v)
	}
	return strings.Join(quoted, "|")
}
