// Package spec reads spec files (CUE, YAML or JSON), validates them against
// the embedded schema and the runtime profiles, and builds the model. It
// reports every problem in one pass, each with its file, line and column,
// field path and fix.
package spec

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"cuelang.org/go/cue/token"
)

// Diagnostic is one problem in a spec.
type Diagnostic struct {
	File         string
	Line, Column int
	Path         string // e.g. services."chat-llama".slos.latency.threshold
	Message      string
}

func (d Diagnostic) String() string {
	var b strings.Builder
	switch {
	case d.File != "" && d.Line > 0:
		fmt.Fprintf(&b, "%s:%d:%d: ", d.File, d.Line, d.Column)
	case d.File != "":
		fmt.Fprintf(&b, "%s: ", d.File)
	}
	if d.Path != "" {
		b.WriteString(d.Path + ": ")
	}
	b.WriteString(d.Message)
	return b.String()
}

// Diagnostics is a list of problems; as an error it prints one per line.
type Diagnostics []Diagnostic

func (ds Diagnostics) Error() string {
	lines := make([]string, len(ds))
	for i, d := range ds {
		lines[i] = d.String()
	}
	return strings.Join(lines, "\n")
}

// sorted orders diagnostics by position and drops exact repeats (CUE can
// report one conflict through several paths).
func (ds Diagnostics) sorted() Diagnostics {
	slices.SortStableFunc(ds, func(a, b Diagnostic) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line),
			cmp.Compare(a.Column, b.Column), cmp.Compare(a.Path, b.Path), cmp.Compare(a.Message, b.Message))
	})
	return slices.Compact(ds)
}

func at(pos token.Pos, path, format string, args ...any) Diagnostic {
	d := Diagnostic{Path: path, Message: fmt.Sprintf(format, args...)}
	if pos.IsValid() {
		d.File, d.Line, d.Column = pos.Filename(), pos.Line(), pos.Column()
	}
	return d
}
