package spec

import (
	"reflect"
	"strings"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	cueerrors "cuelang.org/go/cue/errors"
)

// TestDecodeMatchesCUE holds decode to cue.Value.Decode on every service
// of the examples and of the specs the generators test with. Between them
// they set most fields of the raw structs, and every kind of field
// (string, number, bool, list, map, pointer, nested struct); the scrape
// authentication blocks and some metric overrides they leave unset.
func TestDecodeMatchesCUE(t *testing.T) {
	ctx := cuecontext.New()
	def := specSchema(ctx)
	paths := specFiles(t)
	services := 0
	for _, p := range paths {
		src := readSource(t, p)
		v, err := compile(ctx, src)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		f, _ := listServices(def, src, v)
		unified := newChecker(def, []file{f}).unify(f.user, f.services)
		for _, sel := range f.services {
			sv := unified.LookupPath(servicesPath.Append(sel))
			if sv.Validate(cue.Concrete(true), cue.All()) != nil {
				continue
			}
			services++
			name := sel.Unquoted()
			var want, got rawService
			if err := sv.Decode(&want); err != nil {
				t.Fatalf("%s: %s: %v", p, name, err)
			}
			if err := decode(sv, &got); err != nil {
				t.Fatalf("%s: %s: %v", p, name, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s: service %s decodes to\n%+v\nnot, as cue.Value.Decode has it,\n%+v", p, name, got, want)
			}
		}
	}
	if services < 20 {
		t.Fatalf("decoded only %d services from %d files", services, len(paths))
	}
	t.Logf("%d services from %d files", services, len(paths))
}

// A number too big for its field fails where the user wrote it, with its
// path; CUE's own error names neither.
func TestDecodeNumberTooBig(t *testing.T) {
	src := `package slo

services: "chat-a": {
	runtime: "vllm"
	selector: {namespace: "inference", job: "chat-a"}
	gpu: {product: "H100", count: 1, memory_mib: 100000000000000000000}
	slos: availability: objective: 99.5
}
`
	_, err := LoadSources(Source{Name: "big.cue", Data: []byte(src)})
	want := `big.cue:6:47: services."chat-a".gpu.memory_mib: cannot be read`
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v; want %q", err, want)
	}
}

// decode finds a field by its json tag, and so does cue.Value.Decode;
// untagged or embedded fields they would find by different names, and
// the specs TestDecodeMatchesCUE decodes do not set every field.
func TestRawFieldsAreTagged(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var check func(reflect.Type, string)
	check = func(typ reflect.Type, path string) {
		switch typ.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Map:
			check(typ.Elem(), path)
		case reflect.Struct:
			if seen[typ] {
				return
			}
			seen[typ] = true
			for i := range typ.NumField() {
				f := typ.Field(i)
				if name, _, _ := strings.Cut(f.Tag.Get("json"), ","); name == "" || f.Anonymous {
					t.Errorf("%s.%s: a raw field needs a json tag and a name of its own", path, f.Name)
				}
				check(f.Type, path+"."+f.Name)
			}
		}
	}
	check(reflect.TypeOf(rawService{}), "rawService")
	if len(seen) < 10 {
		t.Fatalf("walked only %d struct types", len(seen))
	}
}

// Only a number too big for its field is asked whether it is: other
// errors reading a value say what they are.
func TestDecodeHintsOnlyNumbersTooBig(t *testing.T) {
	ctx := cuecontext.New()
	var raw rawService
	err := decode(ctx.CompileString(`team: 1, gpu: memory_mib: 100000000000000000000`), &raw)
	msg := cueerrors.Details(err, nil)
	if !strings.Contains(msg, "gpu.memory_mib: cannot be read (value was rounded down); is the number too big for it?") {
		t.Errorf("err = %s; want the hint for memory_mib", msg)
	}
	if !strings.Contains(msg, "team: cannot be read") || strings.Count(msg, "too big") != 1 {
		t.Errorf("err = %s; want team's error without the hint", msg)
	}
}
