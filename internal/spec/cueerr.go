package spec

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"cuelang.org/go/cue"
	cueerrors "cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/token"

	"github.com/slogen-dev/slogen/internal/profile"
	"github.com/slogen-dev/slogen/schema"
)

// fromCUE turns syntax and encoding errors into diagnostics as CUE reports them.
func fromCUE(err error) Diagnostics {
	return fromCUEErrors(cueerrors.Errors(err))
}

// compileProblems are the errors of compiling a spec: those of fields
// added to its own definitions, one per definition (ownClosed), and the
// others as CUE reports them.
func compileProblems(err error, v cue.Value) Diagnostics {
	ds, rest := ownClosed(cueerrors.Errors(err), v)
	return append(ds, fromCUEErrors(rest)...)
}

func fromCUEErrors(errs []cueerrors.Error) Diagnostics {
	var ds Diagnostics
	for _, e := range errs {
		f, args := e.Msg()
		msg := fmt.Sprintf(f, args...)
		switch {
		case msg == "":
			msg = e.Error() // decoders' errors carry only their text
		case msg == "field not allowed":
			msg += "; " + closedOwnFix
		}
		ds = append(ds, at(firstValid(e), userPath(e.Path()), "%s", msg))
	}
	return ds
}

// firstValid is an error's position, or else the first of the positions
// it names that is valid: CUE reports a field a closed struct refuses
// only at the field.
func firstValid(e cueerrors.Error) token.Pos {
	for _, p := range append([]token.Pos{e.Position()}, e.InputPositions()...) {
		if p.IsValid() {
			return p
		}
	}
	return token.NoPos
}

// explain rewrites the errors of validating a value against the schema
// for people: one diagnostic per field, at the user's position.
func explain(err error, user cue.Value) Diagnostics {
	byPath := map[string][]cueerrors.Error{}
	var order []string
	for _, e := range cueerrors.Errors(err) {
		p := userPath(e.Path())
		if _, seen := byPath[p]; !seen {
			order = append(order, p)
		}
		byPath[p] = append(byPath[p], e)
	}
	ds := make(Diagnostics, 0, len(order))
	for _, p := range order {
		errs := byPath[p]
		switch {
		case addedToClosed(errs, user):
			ds = append(ds, closedBy(user, errs[0].Path())) // sorted drops the repeats
			continue
		case notAllowed(errs):
			continue // the field walk reports unknown fields, with a suggestion
		}
		uv := lookup(user, errs[0].Path())
		ds = append(ds, at(userPos(errs, user), p, "%s", humanize(errs, uv, lastField(errs[0].Path()))))
	}
	return ds
}

var (
	conflictRe = regexp.MustCompile(`^conflicting values (.+?) and (.+)$`)
	boundRe    = regexp.MustCompile(`out of bound (.+)\)$`)
	typesRe    = regexp.MustCompile(`mismatched types (\w+) and (\w+)`)
	// An integer meets bounds no integer fits, such as 0 for >0 & <1.
	noIntegerRe = regexp.MustCompile(`^incompatible integer bounds (.+) and (.+)$`)
)

// humanize writes one message for all CUE errors at one field.
func humanize(errs []cueerrors.Error, got cue.Value, field string) string {
	var alternatives, bounds []string
	var types []string
	for _, e := range errs {
		f, args := e.Msg()
		msg := fmt.Sprintf(f, args...)
		switch {
		case strings.Contains(msg, "field is required but not present"):
			return withHint("is required", field)
		case typesRe.MatchString(msg) && !numbersConflict(msg):
			m := typesRe.FindStringSubmatch(msg)
			types = append(types, m[1], m[2])
		case boundRe.MatchString(msg):
			bounds = append(bounds, boundRe.FindStringSubmatch(msg)[1])
		case noIntegerRe.MatchString(msg):
			m := noIntegerRe.FindStringSubmatch(msg)
			bounds = append(bounds, m[1]+" and "+m[2])
		case conflictRe.MatchString(msg):
			alternatives = append(alternatives, strings.Trim(conflictRe.FindStringSubmatch(msg)[1], `"`))
		case !strings.Contains(msg, "empty disjunction"):
			return withHint(msg, field)
		}
	}
	gotText := fmt.Sprint(got)
	switch {
	case len(types) > 0:
		return withHint(fmt.Sprintf("must be %s, not %s", article(expectedType(types, got)), gotText), field)
	case len(bounds) > 0:
		return withHint(fmt.Sprintf("%s (got %s)", boundText(bounds[0]), gotText), field)
	case len(alternatives) > 0:
		slices.Sort(alternatives)
		return fmt.Sprintf("must be one of %s (got %s)", strings.Join(slices.Compact(alternatives), ", "), gotText)
	}
	return withHint("is invalid", field)
}

// numbersConflict reports whether msg is two numbers conflicting, such as
// a field's default 0.5 and the spec's 1: no type is wrong there, and the
// bounds of the field's other alternative say what is.
func numbersConflict(msg string) bool {
	m := conflictRe.FindStringSubmatch(msg)
	if m == nil {
		return false
	}
	_, err1 := strconv.ParseFloat(m[1], 64)
	_, err2 := strconv.ParseFloat(strings.Fields(m[2])[0], 64)
	return err1 == nil && err2 == nil
}

func boundText(b string) string {
	if strings.HasPrefix(b, "=~") {
		return "has the wrong form"
	}
	return "must be " + b
}

// expectedType is the type named in a mismatch that is not the user's.
func expectedType(types []string, got cue.Value) string {
	gotKind := got.IncompleteKind().String()
	for _, t := range types {
		if t != gotKind && !(t == "number" && (gotKind == "int" || gotKind == "float")) {
			return t
		}
	}
	return types[0]
}

func article(t string) string {
	switch t {
	case "struct":
		return "a struct {…}"
	case "list":
		return "a list […]"
	case "int":
		return "an integer"
	}
	return "a " + t
}

// hints say what a field should hold, for the fields people get wrong.
var hints = map[string]string{
	"objective": "an objective is a percentage strictly between 0 and 100, e.g. 99.5",
	"threshold": "a threshold is a latency such as 250ms or 2.5s",
	"runtime":   "runtime is one of " + strings.Join(profile.Names(), ", "),
	"slos":      "declare at least one SLO, e.g. slos: availability: objective: 99.5 (a runtime that serves no SLO kind, llamacpp, writes slos: {})",
	"window":    "window is one of 30d, 28d, 7d",
	"count":     "count is the number of GPUs, at least 1",
	"page_fast": "durations are Prometheus durations such as 2m or 1h30m", "page_slow": "durations are Prometheus durations such as 2m or 1h30m",
	"ticket_fast": "durations are Prometheus durations such as 2m or 1h30m", "ticket_slow": "durations are Prometheus durations such as 2m or 1h30m",
	"no_data":                       "durations are Prometheus durations such as 2m or 1h30m",
	"prefix_cache_hit_vs_yesterday": "prefix_cache_hit_vs_yesterday is the share of yesterday's hit ratio below which PrefixCacheColdStart fires, strictly between 0 and 1, e.g. 0.5",
	// loki.labels' (dcgm.pod and operator.namespace are free strings).
	"namespace": lokiLabelHint, "pod": lokiLabelHint, "container": lokiLabelHint,
}

const lokiLabelHint = "a stream label's name: letters, digits and underscores, not starting with a digit, e.g. k8s_pod_name"

func withHint(msg, field string) string {
	if h, ok := hints[field]; ok {
		return msg + "; " + h
	}
	return msg
}

// userPath prints a CUE path without the schema's #Spec prefix.
func userPath(sels []string) string {
	if len(sels) > 0 && sels[0] == "#Spec" {
		sels = sels[1:]
	}
	return strings.Join(sels, ".")
}

func lastField(sels []string) string {
	if len(sels) == 0 {
		return ""
	}
	return strings.Trim(sels[len(sels)-1], `"`)
}

// lookup finds the user's value at an error path, or its nearest parent
// when the field is missing.
func lookup(user cue.Value, sels []string) cue.Value {
	if len(sels) > 0 && sels[0] == "#Spec" {
		sels = sels[1:]
	}
	for n := len(sels); n >= 0; n-- {
		if v := user.LookupPath(cue.ParsePath(strings.Join(sels[:n], "."))); v.Exists() {
			return v
		}
	}
	return user
}

// userPos prefers a position in the user's file over one in the schema
// or its runtime names.
func userPos(errs []cueerrors.Error, user cue.Value) token.Pos {
	for _, e := range errs {
		for _, p := range append([]token.Pos{e.Position()}, e.InputPositions()...) {
			if p.IsValid() && p.Filename() != schema.Filename && p.Filename() != runtimeTable {
				return p
			}
		}
	}
	return lookup(user, errs[0].Path()).Pos()
}

func notAllowed(errs []cueerrors.Error) bool {
	for _, e := range errs {
		f, args := e.Msg()
		if strings.Contains(fmt.Sprintf(f, args...), "field not allowed") {
			return true
		}
	}
	return false
}
