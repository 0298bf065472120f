package pql

import (
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"
)

// Lines is Chain over operands, or the operand alone when there is one:
// a condition with one or more alternatives (a burn alert's tiers, the
// no-data alert's SLOs), laid out one per line.
func Lines(op parser.ItemType, m Match, operands ...Expr) Expr {
	if len(operands) == 1 {
		return operands[0]
	}
	return Chain(op, m, operands...)
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

// RangeSeconds is Range(v, d), d cut to whole seconds, written in seconds
// ([86400s], not [1d]) for a query sent to a Prometheus API whose answer
// is read against the range asked. v has no offset.
func RangeSeconds(v *parser.VectorSelector, d time.Duration) Expr {
	secs := int64(d / time.Second)
	r := Range(v, time.Duration(secs)*time.Second)
	return &laid{Expr: r, text: func() string { return v.String() + "[" + strconv.FormatInt(secs, 10) + "s]" }}
}
