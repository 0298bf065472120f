package spec

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"cuelang.org/go/cue"
	"cuelang.org/go/cue/cuecontext"
	cueerrors "cuelang.org/go/cue/errors"
	"cuelang.org/go/cue/token"
	cuejson "cuelang.org/go/encoding/json"
	cueyaml "cuelang.org/go/encoding/yaml"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/profile"
	"github.com/slogen-dev/slogen/schema"
)

// Result is a loaded spec, the warnings that did not stop it, and notes:
// what the runtime needs to export every metric slogen reads (a flag, a
// newer version), which vet explains and build keeps quiet about.
type Result struct {
	Spec     model.Spec
	Warnings Diagnostics
	Notes    Diagnostics
	// NoShape says, by service, why a service has no model.Shape, which
	// build then generates on its own: vet explains it.
	NoShape map[string]string
}

// Load reads spec files and builds the model. On any problem it returns
// Diagnostics listing all of them.
func Load(paths ...string) (Result, error) {
	srcs := make([]Source, 0, len(paths))
	var ds Diagnostics
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			ds = append(ds, Diagnostic{File: p, Message: fmt.Sprintf("cannot read spec: %v", err)})
			continue
		}
		srcs = append(srcs, Source{Name: p, Data: data})
	}
	if len(ds) > 0 {
		return Result{}, ds
	}
	return LoadSources(srcs...)
}

// Source is the content of one spec file.
type Source struct {
	Name string // file name, used for the format and in messages
	Data []byte
}

// LoadSources is Load on contents already read.
func LoadSources(srcs ...Source) (Result, error) {
	return loadSources(srcs, true)
}

// loadSources loads the sources, checking only one of each file's services
// written as the same data but for their selectors when sameData is set
// (standIns), or else every service.
func loadSources(srcs []Source, sameData bool) (Result, error) {
	helpers := startHelpers(srcs)
	ctx := cuecontext.New()
	def := specSchema(ctx)
	var ds Diagnostics
	files := make([]file, len(srcs))
	for i, src := range srcs {
		v, err := compile(ctx, src)
		if err != nil {
			ds = append(ds, compileProblems(err, v)...)
			files[i].src = src // lists no services
			continue
		}
		var fileDs Diagnostics
		files[i], fileDs = listServices(def, src, v)
		ds = append(ds, fileDs...)
	}
	stand := make([]standIns, len(files))
	for i, f := range files {
		stand[i] = standInsOf(f, sameData)
	}
	res, buildDs := build(files, checkServices(def, files, stand, helpers))
	if ds = append(ds, buildDs...); len(ds) > 0 {
		return Result{}, ds.sorted()
	}
	return res, nil
}

// specSchema is the embedded schema's #Spec, with #Runtime the runtimes
// of the profile table.
func specSchema(ctx *cue.Context) cue.Value {
	root := ctx.CompileBytes(schema.Source, cue.Filename(schema.Filename))
	def := root.FillPath(cue.MakePath(cue.Def("#Runtime")), oneOf(ctx, profile.Names())).LookupPath(cue.ParsePath("#Spec"))
	if def.Err() != nil {
		panic("embedded schema does not compile: " + def.Err().Error())
	}
	return def
}

// runtimeTable is the file the runtime names are at, in errors; userPos
// passes over it as over the schema. The names need positions: without,
// CUE dropped one of their conflicts with a wrong runtime (custom's).
const runtimeTable = "runtime table (internal/profile)"

// oneOf is the disjunction of names, as the schema would spell it.
func oneOf(ctx *cue.Context, names []string) cue.Value {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = strconv.Quote(n)
	}
	return ctx.CompileString(strings.Join(quoted, " | "), cue.Filename(runtimeTable))
}

// listServices reports what is wrong in a file outside its services and
// lists them; checkServices checks each service on its own, so that one
// broken service does not hide the problems of the others.
func listServices(def cue.Value, src Source, v cue.Value) (file, Diagnostics) {
	f := file{src: src, user: v}
	ds := checkFields(v, def)
	services := v.LookupPath(servicesPath)
	it, err := services.Fields()
	if err != nil || !services.Exists() {
		return f, append(ds, Diagnostic{File: src.Name, Message: "declares no services; a spec holds services: \"name\": {runtime: ..., slos: ...}"})
	}
	for it.Next() {
		f.services = append(f.services, it.Selector())
	}
	slices.SortFunc(f.services, func(a, b cue.Selector) int { return cmp.Compare(a.Unquoted(), b.Unquoted()) })
	return f, ds
}

var servicesPath = cue.MakePath(cue.Str("services"))

// file is one spec file.
type file struct {
	src      Source
	user     cue.Value      // positions point into the user's file
	services []cue.Selector // by name
}

func compile(ctx *cue.Context, src Source) (cue.Value, error) {
	switch strings.ToLower(filepath.Ext(src.Name)) {
	case ".cue":
		v := ctx.CompileBytes(src.Data, cue.Filename(src.Name))
		if v.Err() == nil {
			return v, nil
		}
		// Err holds the first field's errors; a fleet's template
		// refused in every service holds one per service.
		return v, cmp.Or(v.Validate(cue.All()), v.Err())
	case ".yaml", ".yml":
		f, err := cueyaml.Extract(src.Name, src.Data)
		if err != nil {
			return cue.Value{}, err
		}
		v := ctx.BuildFile(f)
		return v, v.Err()
	case ".json":
		e, err := cuejson.Extract(src.Name, src.Data)
		if err != nil {
			return cue.Value{}, err
		}
		v := ctx.BuildExpr(e)
		return v, v.Err()
	}
	return cue.Value{}, cueerrors.Newf(token.NoPos, "%s: unknown spec format: name it .cue, .yaml, .yml or .json", src.Name)
}
