// Package yamlenc writes the YAML slogen generates: rule files and their
// tests. It handles only what those need (structs with yaml tags, slices,
// string-keyed maps, strings, integers and booleans) and does it several
// times faster than a general encoder, which matters when a build writes
// thousands of files. Map keys are sorted; the layout matches yaml.v3 with
// a two-space indent, so reviews read the same. A field declared as an
// interface with a String method, such as a PromQL syntax tree, is written
// as the text it prints: a rule's query is kept as a tree until its file
// is written.
package yamlenc

import (
	"bytes"
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"unsafe"
)

// Append encodes v as a YAML document after dst (a header, say), in one
// buffer: a build writes thousands of files.
func Append(dst []byte, v any) ([]byte, error) { return AppendPrinting(dst, v, nil) }

// Printer appends the text of a value that prints itself (a field
// declared as an interface with a String method) to dst, as String would
// write it, without making the string.
type Printer func(dst []byte, v fmt.Stringer) []byte

// AppendPrinting is Append with print writing the values that print
// themselves; nil prints them with String.
func AppendPrinting(dst []byte, v any, print Printer) ([]byte, error) {
	e := encoder{tags: map[reflect.Type][]tag{}, print: print}
	e.buf.Grow(len(dst) + int(cmp.Or(lastSize.Load(), 16<<10)))
	e.buf.Write(dst)
	if err := e.value(reflect.ValueOf(v), 0, false); err != nil {
		return nil, err
	}
	lastSize.Store(max(minSize, int64(e.buf.Len())*5/4))
	return e.buf.Bytes(), nil
}

// lastSize is how much the next document's buffer starts with (16 KB for
// the first): a quarter more than the last document written. A build
// writes the same kinds of file over and over, and a buffer that grew
// twice per file allocated 70 MB for a 1000-service fleet.
var lastSize atomic.Int64

const minSize = 4 << 10

type encoder struct {
	buf   bytes.Buffer
	tags  map[reflect.Type][]tag // each struct type's fields, read once per document
	print Printer
	text  []byte // what print wrote last, reused
}

// value writes v at indent. inline is true when v follows a "- " or a
// "key:" on the same line.
func (e *encoder) value(v reflect.Value, indent int, inline bool) error {
	if printsItself(v) {
		e.printed(v.Interface().(fmt.Stringer), indent)
		return nil
	}
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Struct:
		return e.mapping(e.structFields(v), indent, inline)
	case reflect.Map:
		return e.mapping(mapFields(v), indent, inline)
	case reflect.Slice:
		return e.sequence(v, indent)
	case reflect.String:
		e.scalar(v.String(), indent)
	case reflect.Int, reflect.Int64:
		e.after(strconv.FormatInt(v.Int(), 10))
	case reflect.Bool:
		e.after(strconv.FormatBool(v.Bool()))
	default:
		return fmt.Errorf("yamlenc: cannot encode %s", v.Type())
	}
	return nil
}

// printed writes a value that prints itself: through print into a buffer
// the encoder reuses, which the scalar it writes outlives only as a copy.
func (e *encoder) printed(v fmt.Stringer, indent int) {
	if e.print == nil {
		e.scalar(v.String(), indent)
		return
	}
	e.text = e.print(e.text[:0], v)
	e.scalar(unsafe.String(unsafe.SliceData(e.text), len(e.text)), indent)
}

var stringer = reflect.TypeFor[fmt.Stringer]()

// printsItself reports whether v is declared as an interface that has a
// String method and holds a value: a tree, written as the text it prints.
// A struct that happens to have a String method is still written field
// by field.
func printsItself(v reflect.Value) bool {
	return v.Kind() == reflect.Interface && !v.IsNil() && v.Type().Implements(stringer)
}

type field struct {
	key string
	val reflect.Value
}

// tag is a struct field that has a YAML name.
type tag struct {
	index     int
	name      string
	omitEmpty bool
}

func (e *encoder) structFields(v reflect.Value) []field {
	tags, ok := e.tags[v.Type()]
	if !ok {
		tags = structTags(v.Type())
		e.tags[v.Type()] = tags
	}
	out := make([]field, 0, len(tags))
	for _, t := range tags {
		f := v.Field(t.index)
		if t.omitEmpty && empty(f) {
			continue
		}
		out = append(out, field{t.name, f})
	}
	return out
}

func structTags(t reflect.Type) []tag {
	var tags []tag
	for i := range t.NumField() {
		name, opts, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		if name != "-" && name != "" {
			tags = append(tags, tag{i, name, opts == "omitempty"})
		}
	}
	return tags
}

func empty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Slice, reflect.Map, reflect.String:
		return v.Len() == 0
	}
	return v.IsZero()
}

func mapFields(v reflect.Value) []field {
	out := make([]field, 0, v.Len())
	for it := v.MapRange(); it.Next(); {
		out = append(out, field{it.Key().String(), it.Value()})
	}
	slices.SortFunc(out, func(a, b field) int { return strings.Compare(a.key, b.key) })
	return out
}

func (e *encoder) mapping(fs []field, indent int, inline bool) error {
	if len(fs) == 0 {
		e.line(" {}")
		return nil
	}
	for i, f := range fs {
		if i > 0 || !inline {
			e.indent(indent)
		}
		k := key(f.key)
		if len(k) > 1024 {
			return fmt.Errorf("yamlenc: key %.20q… is longer than YAML's 1024-character limit for keys", f.key)
		}
		e.buf.WriteString(k)
		e.buf.WriteByte(':')
		if err := e.value(f.val, indent+2, false); err != nil {
			return err
		}
	}
	return nil
}

func (e *encoder) sequence(v reflect.Value, indent int) error {
	if v.Len() == 0 {
		e.line(" []")
		return nil
	}
	e.buf.WriteByte('\n')
	for i := range v.Len() {
		e.spaces(indent)
		e.buf.WriteByte('-')
		item := v.Index(i)
		if isCollection(item) {
			e.buf.WriteByte(' ')
		}
		if err := e.value(item, indent+2, true); err != nil {
			return err
		}
	}
	return nil
}

func isCollection(v reflect.Value) bool {
	if printsItself(v) {
		return false
	}
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	return v.Kind() == reflect.Struct || v.Kind() == reflect.Map
}

func (e *encoder) indent(n int) {
	if e.buf.Len() > 0 && e.buf.Bytes()[e.buf.Len()-1] != '\n' {
		e.buf.WriteByte('\n')
	}
	e.spaces(n)
}

// spaces writes n spaces without allocating them.
func (e *encoder) spaces(n int) {
	const blank = "                                "
	for ; n > len(blank); n -= len(blank) {
		e.buf.WriteString(blank)
	}
	e.buf.WriteString(blank[:n])
}

func (e *encoder) line(s string) {
	e.buf.WriteString(s)
	e.buf.WriteByte('\n')
}

// after writes " s" and ends the line: a value after "key:" or "-".
func (e *encoder) after(s string) {
	e.buf.WriteByte(' ')
	e.line(s)
}

// scalar writes a string plain when YAML reads it back unchanged, as a
// literal block when it spans lines, and double-quoted otherwise.
func (e *encoder) scalar(s string, indent int) {
	switch {
	case plain(s):
		e.after(s)
	case block(s):
		e.buf.WriteString(" |-\n")
		for l := range strings.SplitSeq(s, "\n") {
			if l != "" {
				e.spaces(indent)
			}
			e.line(l)
		}
	default:
		e.after(quote(s))
	}
}

func key(k string) string {
	if plain(k) {
		return k
	}
	return quote(k)
}
