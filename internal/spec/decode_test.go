package spec

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
)

// TestDecodeMatchesCUE holds decode to cue.Value.Decode on every service
// of the examples and of the specs the generators test with, which
// between them set every field of the raw structs.
func TestDecodeMatchesCUE(t *testing.T) {
	ctx := cuecontext.New()
	def := specSchema(ctx)
	var paths []string
	for _, pattern := range []string{"../../examples/*/*.cue", "../../examples/*/*.yaml", "../../generate/*/testdata/*.cue", "../../generate/scrape/testdata/specs/*.cue", "testdata/*"} {
		files, _ := filepath.Glob(pattern)
		paths = append(paths, files...)
	}
	services := 0
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		v, err := compile(ctx, Source{Name: p, Data: data})
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		f, _ := listServices(def, Source{Name: p, Data: data}, v)
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
