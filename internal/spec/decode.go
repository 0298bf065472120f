package spec

import (
	"errors"
	"reflect"
	"strings"

	"cuelang.org/go/cue"
	cueerrors "cuelang.org/go/cue/errors"
)

// decode fills the raw struct x points to from a schema-valid value, as
// cue.Value.Decode would. Decode lists every struct's fields in CUE's
// topological order, which cost a third of loading a big fleet; a raw
// struct needs no order, so decode looks its fields up by name instead.
func decode(v cue.Value, x any) error {
	var d decoder
	d.value(v, reflect.ValueOf(x).Elem())
	return d.errs
}

type decoder struct {
	errs cueerrors.Error
}

// fail keeps a value's error, at the value: CUE's errors for a number
// too big for its field ("value was rounded down") name neither, and
// only those get the hint that the number is too big.
func (d *decoder) fail(v cue.Value, err error) {
	if err != nil {
		var sels []string
		for _, sel := range v.Path().Selectors() {
			sels = append(sels, sel.String())
		}
		path := userPath(sels)
		hint := ""
		if errors.Is(err, cue.ErrBelow) || errors.Is(err, cue.ErrAbove) {
			hint = "; is the number too big for it?"
		}
		d.errs = cueerrors.Append(d.errs, cueerrors.Newf(v.Pos(), "%s: cannot be read (%v)%s", path, err, hint))
	}
}

func (d *decoder) value(v cue.Value, x reflect.Value) {
	v, _ = v.Default()
	switch x.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Slice:
		if v.IsNull() || !v.IsConcrete() {
			return // unset, as Decode leaves it
		}
	}
	switch x.Kind() {
	case reflect.Pointer:
		x.Set(reflect.New(x.Type().Elem()))
		d.value(v, x.Elem())
	case reflect.Struct:
		d.structFields(v, x)
	case reflect.Map:
		d.mapEntries(v, x)
	case reflect.Slice:
		d.list(v, x)
	case reflect.String:
		s, err := v.String()
		d.fail(v, err)
		x.SetString(s)
	case reflect.Int:
		i, err := v.Int64()
		d.fail(v, err)
		x.SetInt(i)
	case reflect.Float64:
		f, err := v.Float64()
		d.fail(v, err)
		x.SetFloat(f)
	case reflect.Bool:
		b, err := v.Bool()
		d.fail(v, err)
		x.SetBool(b)
	default:
		panic("spec: decode cannot fill a " + x.Type().String())
	}
}

// structFields reads the fields the value sets; the schema closes every
// struct, so no other field can be there.
func (d *decoder) structFields(v cue.Value, x reflect.Value) {
	t := x.Type()
	for i := range t.NumField() {
		if fv := v.LookupPath(cue.MakePath(cue.Str(fieldName(t.Field(i))))); fv.Exists() {
			d.value(fv, x.Field(i))
		}
	}
}

// fieldName is the schema's name of a Go field: its json tag, or else its
// name in lower case, which is how Decode matches an untagged field to
// the schema's lower-case names.
func fieldName(f reflect.StructField) string {
	if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name != "" {
		return name
	}
	return strings.ToLower(f.Name)
}

func (d *decoder) mapEntries(v cue.Value, x reflect.Value) {
	it, err := v.Fields()
	if err != nil {
		d.fail(v, err)
		return
	}
	x.Set(reflect.MakeMap(x.Type()))
	for it.Next() {
		elem := reflect.New(x.Type().Elem()).Elem()
		d.value(it.Value(), elem)
		x.SetMapIndex(reflect.ValueOf(it.Selector().Unquoted()), elem)
	}
}

func (d *decoder) list(v cue.Value, x reflect.Value) {
	it, err := v.List()
	if err != nil {
		d.fail(v, err)
		return
	}
	var elems []cue.Value
	for it.Next() {
		elems = append(elems, it.Value())
	}
	x.Set(reflect.MakeSlice(x.Type(), len(elems), len(elems)))
	for i, e := range elems {
		d.value(e, x.Index(i))
	}
}
