package pql

import (
	"bytes"
	"slices"
	"strconv"
	"time"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"
)

// Append appends the query as Print writes it. Prometheus's printer
// builds a string for every node and every matcher, which cost a fleet's
// build a tenth of its CPU in garbage; Append writes the nodes slogen
// builds straight into dst and hands the others to Prometheus's printer.
// TestAppendPrintsAsPrometheus holds the two to the same text.
func Append(dst []byte, e Expr) []byte {
	switch n := e.(type) {
	case appender:
		return n.appendTo(dst)
	case *parser.VectorSelector:
		if plainSelector(n) {
			return appendOffset(appendSelector(dst, n), n.OriginalOffset)
		}
	case *parser.MatrixSelector:
		if vs, ok := n.VectorSelector.(*parser.VectorSelector); ok && plainSelector(vs) && n.RangeExpr == nil {
			dst = append(appendSelector(dst, vs), '[')
			dst = append(appendDuration(dst, n.Range), ']')
			return appendOffset(dst, vs.OriginalOffset)
		}
	case *parser.SubqueryExpr:
		if n.RangeExpr == nil && n.StepExpr == nil && n.OriginalOffsetExpr == nil && n.Timestamp == nil && n.StartOrEnd == 0 {
			dst = append(Append(dst, n.Expr), '[')
			dst = append(appendDuration(dst, n.Range), ':')
			if n.Step != 0 {
				dst = appendDuration(dst, n.Step)
			}
			return appendOffset(append(dst, ']'), n.OriginalOffset)
		}
	case *parser.Call:
		if n.Func != nil {
			dst = append(append(dst, n.Func.Name...), '(')
			for i, a := range n.Args {
				if i > 0 {
					dst = append(dst, ", "...)
				}
				dst = Append(dst, a)
			}
			return append(dst, ')')
		}
	case *parser.AggregateExpr:
		dst = append(dst, n.Op.String()...)
		switch {
		case n.Without:
			dst = append(appendLabels(append(dst, " without ("...), n.Grouping), ") "...)
		case len(n.Grouping) > 0:
			dst = append(appendLabels(append(dst, " by ("...), n.Grouping), ") "...)
		}
		dst = append(dst, '(')
		if n.Op.IsAggregatorWithParam() && n.Param != nil {
			dst = Append(dst, n.Param)
			if n.Expr != nil {
				dst = append(dst, ", "...)
			}
		}
		if n.Expr != nil {
			dst = Append(dst, n.Expr)
		}
		return append(dst, ')')
	case *parser.BinaryExpr:
		if vm := n.VectorMatching; vm == nil || vm.FillValues.LHS == nil && vm.FillValues.RHS == nil {
			dst = append(append(Append(dst, n.LHS), ' '), n.Op.String()...)
			if n.ReturnBool {
				dst = append(dst, " bool"...)
			}
			dst = appendMatching(dst, n.VectorMatching)
			return Append(append(dst, ' '), n.RHS)
		}
	case *parser.ParenExpr:
		return append(Append(append(dst, '('), n.Expr), ')')
	case *parser.NumberLiteral:
		if !n.Duration {
			return strconv.AppendFloat(dst, n.Val, 'f', -1, 64)
		}
	case *parser.StringLiteral:
		return strconv.AppendQuote(dst, n.Val)
	case *parser.UnaryExpr:
		return Append(append(dst, n.Op.String()...), n.Expr)
	}
	return append(dst, e.String()...)
}

// appender is a node that appends its own text: a layout.
type appender interface {
	appendTo(dst []byte) []byte
}

// plainSelector says whether Append writes the selector itself: one with
// no modifier but an offset.
func plainSelector(v *parser.VectorSelector) bool {
	return v.Timestamp == nil && v.StartOrEnd == 0 && !v.Anchored && !v.Smoothed && v.OriginalOffsetExpr == nil
}

// appendSelector writes the metric name and the other matchers, sorted by
// their text as Prometheus sorts them.
func appendSelector(dst []byte, v *parser.VectorSelector) []byte {
	dst = append(dst, v.Name...)
	var spans [8][2]int // where each matcher's text is, after the name
	texts := spans[:0]
	from := len(dst)
	for _, m := range v.LabelMatchers {
		if m == nil || m.Name == labels.MetricName && m.Type == labels.MatchEqual && m.Value == v.Name && m.Value != "" {
			continue
		}
		start := len(dst)
		if model.LegacyValidation.IsValidLabelName(m.Name) {
			dst = strconv.AppendQuote(append(append(dst, m.Name...), m.Type.String()...), m.Value)
		} else {
			dst = append(dst, m.String()...)
		}
		texts = append(texts, [2]int{start, len(dst)})
	}
	if len(texts) == 0 {
		return dst
	}
	slices.SortFunc(texts, func(a, b [2]int) int { return bytes.Compare(dst[a[0]:a[1]], dst[b[0]:b[1]]) })
	// The sorted text goes after the matchers' texts, then over them.
	end := len(dst)
	dst = append(dst, '{')
	for i, t := range texts {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, dst[t[0]:t[1]]...)
	}
	dst = append(dst, '}')
	n := copy(dst[from:], dst[end:])
	return dst[:from+n]
}

func appendOffset(dst []byte, d time.Duration) []byte {
	switch {
	case d > 0:
		return appendDuration(append(dst, " offset "...), d)
	case d < 0:
		return appendDuration(append(dst, " offset -"...), -d)
	}
	return dst
}

func appendDuration(dst []byte, d time.Duration) []byte {
	return append(dst, model.Duration(d).String()...)
}

// appendLabels writes a grouping's labels, quoting those that are no
// legacy label name, as Prometheus does.
func appendLabels(dst []byte, ls []string) []byte {
	for i, l := range ls {
		if i > 0 {
			dst = append(dst, ", "...)
		}
		if model.LegacyValidation.IsValidLabelName(l) {
			dst = append(dst, l...)
		} else {
			dst = strconv.AppendQuote(dst, l)
		}
	}
	return dst
}

// appendMatching writes a binary operation's on, ignoring and group
// clauses.
func appendMatching(dst []byte, vm *parser.VectorMatching) []byte {
	if vm == nil {
		return dst
	}
	grouped := vm.Card == parser.CardManyToOne || vm.Card == parser.CardOneToMany
	if len(vm.MatchingLabels) > 0 || vm.On || grouped {
		tag := " ignoring ("
		if vm.On {
			tag = " on ("
		}
		dst = append(appendLabels(append(dst, tag...), vm.MatchingLabels), ')')
	}
	switch vm.Card {
	case parser.CardManyToOne:
		dst = append(appendLabels(append(dst, " group_left ("...), vm.Include), ')')
	case parser.CardOneToMany:
		dst = append(appendLabels(append(dst, " group_right ("...), vm.Include), ')')
	}
	return dst
}
