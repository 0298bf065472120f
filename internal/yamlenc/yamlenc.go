// Package yamlenc writes the YAML slogen generates: rule files and their
// tests, scrape configs and monitors. It handles only what those need
// (structs with yaml tags, omitempty and flow among them, slices,
// string-keyed maps, strings, integers and booleans) and does it several
// times faster than a general encoder, which matters when a build writes
// thousands of files. The layout is yaml.v3's with a two-space indent, so
// reviews read the same, in one of two spellings:
//
//   - Marshal, for rule files: map keys in byte order, and strings plain,
//     in single quotes when YAML would read them as another type, or in
//     literal blocks.
//   - AppendYAMLv3, for scrape configs: byte for byte what
//     go.yaml.in/yaml/v3's Encoder writes, its key order and choice of
//     quotes included.
package yamlenc

import (
	"bytes"
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
)

// Marshal encodes v as a YAML document in the rule files' spelling.
func Marshal(v any) ([]byte, error) {
	var e encoder
	e.buf.Grow(16 << 10)
	return e.document(v)
}

// AppendYAMLv3 appends to dst the YAML document yaml.v3's Encoder with
// SetIndent(2) writes for v, on a line of its own. Strings must be UTF-8,
// which yaml.v3 would write as !!binary otherwise.
func AppendYAMLv3(dst []byte, v any) ([]byte, error) {
	e := encoder{buf: *bytes.NewBuffer(dst), v3: true}
	return e.document(v)
}

type encoder struct {
	buf bytes.Buffer
	v3  bool // spell as yaml.v3 does
}

func (e *encoder) document(v any) ([]byte, error) {
	if err := e.value(reflect.ValueOf(v), 0, false); err != nil {
		return nil, err
	}
	return e.buf.Bytes(), nil
}

// value writes v at indent. inline is true when v follows a "-" or a
// complex key's ":" on the same line.
func (e *encoder) value(v reflect.Value, indent int, inline bool) error {
	for v.Kind() == reflect.Interface || v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	switch v.Kind() {
	case reflect.Invalid:
		e.after("null")
	case reflect.Struct:
		var buf [16]field // most structs' fields, on the stack
		fs, err := e.structFields(v, buf[:0])
		if err != nil {
			return err
		}
		return e.mapping(fs, indent, inline)
	case reflect.Map:
		return e.mapping(e.mapFields(v), indent, inline)
	case reflect.Slice:
		return e.sequence(v, indent, inline)
	case reflect.String:
		if e.v3 {
			return e.v3Value(v.String(), indent)
		}
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

type field struct {
	key  string
	val  reflect.Value
	flow bool
}

// tag is a struct field as YAML names it.
type tag struct {
	index     int
	name      string
	omitEmpty bool
	flow      bool
}

// structFields appends v's fields to out, less those omitempty leaves out.
func (e *encoder) structFields(v reflect.Value, out []field) ([]field, error) {
	tags, err := fieldTags(v.Type())
	if err != nil {
		return nil, err
	}
	for _, t := range tags {
		f := v.Field(t.index)
		if t.omitEmpty && empty(f) {
			continue
		}
		out = append(out, field{t.name, f, t.flow})
	}
	return out, nil
}

// tagCache holds each struct type's tags: reflect's Tag.Get unquotes
// them on every call.
var tagCache sync.Map // reflect.Type → []tag

func fieldTags(t reflect.Type) ([]tag, error) {
	if tags, ok := tagCache.Load(t); ok {
		return tags.([]tag), nil
	}
	tags, err := structTags(t)
	if err != nil {
		return nil, err
	}
	tagCache.Store(t, tags)
	return tags, nil
}

// structTags reads the exported fields' yaml tags. A field without a name
// is named after the field in lower case, as yaml.v3 does.
func structTags(t reflect.Type) ([]tag, error) {
	var tags []tag
	for i := range t.NumField() {
		f := t.Field(i)
		name, opts, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		tg := tag{index: i, name: cmp.Or(name, strings.ToLower(f.Name))}
		for opt := range strings.SplitSeq(opts, ",") {
			switch opt {
			case "":
			case "omitempty":
				tg.omitEmpty = true
			case "flow":
				tg.flow = true
			default:
				return nil, fmt.Errorf("yamlenc: %s.%s: option %q is not supported", t, f.Name, opt)
			}
		}
		tags = append(tags, tg)
	}
	return tags, nil
}

// empty is yaml.v3's test for omitempty: a struct is empty when all its
// exported fields are.
func empty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Slice, reflect.Map, reflect.String:
		return v.Len() == 0
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() && !empty(v.Field(i)) {
				return false
			}
		}
		return true
	}
	return v.IsZero()
}

func (e *encoder) mapFields(v reflect.Value) []field {
	out := make([]field, 0, v.Len())
	for it := v.MapRange(); it.Next(); {
		out = append(out, field{key: it.Key().String(), val: it.Value()})
	}
	order := func(a, b field) int { return strings.Compare(a.key, b.key) }
	if e.v3 {
		order = func(a, b field) int { return naturalCompare(a.key, b.key) }
	}
	slices.SortFunc(out, order)
	return out
}

func (e *encoder) mapping(fs []field, indent int, inline bool) error {
	if len(fs) == 0 {
		e.line(" {}")
		return nil
	}
	for i, f := range fs {
		if i == 0 && inline {
			e.buf.WriteByte(' ')
		} else {
			e.indent(indent)
		}
		complexKey, err := e.writeKey(f.key, indent)
		if err != nil {
			return err
		}
		if f.flow {
			err = e.flowSequence(f.val, indent+2)
		} else {
			err = e.value(f.val, indent+2, complexKey)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// writeKey writes a mapping key and its colon. complexKey is true when
// the value is to follow on the colon's line, as after "-".
func (e *encoder) writeKey(k string, indent int) (complexKey bool, err error) {
	if e.v3 {
		return e.v3Key(k, indent)
	}
	return false, e.compactKey(k)
}

func (e *encoder) sequence(v reflect.Value, indent int, inline bool) error {
	if v.Len() == 0 {
		e.line(" []")
		return nil
	}
	for i := range v.Len() {
		if i == 0 && inline {
			e.buf.WriteByte(' ')
		} else {
			e.indent(indent)
		}
		e.buf.WriteByte('-')
		if err := e.value(v.Index(i), indent+2, true); err != nil {
			return err
		}
	}
	return nil
}

// indent starts a line at column n.
func (e *encoder) indent(n int) {
	if !e.atLineStart() {
		e.buf.WriteByte('\n')
	}
	e.spaces(n)
}

// atLineStart reports whether the last thing written was a line break:
// a newline, or U+2028 or U+2029, which yaml.v3 writes as they are.
func (e *encoder) atLineStart() bool {
	b := e.buf.Bytes()
	return len(b) == 0 || b[len(b)-1] == '\n' || bytes.HasSuffix(b, []byte("\u2028")) || bytes.HasSuffix(b, []byte("\u2029"))
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
