package generate

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"maps"
	"path"
	"runtime"
	"slices"

	"github.com/slogen-dev/slogen/internal/generate/gputests"
	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/parallel"
	"github.com/slogen-dev/slogen/internal/plan"
	"github.com/slogen-dev/slogen/internal/ruletemplate"
)

// ruleFileNames are the files of a service that a rule template covers.
var ruleFileNames = []string{RulesFile, GlobalRulesFile, GPURulesFile}

// templateFinder sorts a fleet's services into rule templates as their
// files are emitted: services whose rule files are equal once their
// identity is set aside (ruletemplate.Key). Safe for concurrent use: each
// service writes only its own slots.
type templateFinder struct {
	index map[string]int      // service name to its index in the spec; read only
	keys  [][sha256.Size]byte // by service index
	files [][]string          // each service's rule files, sorted
}

func newTemplateFinder(svcs []model.Service) *templateFinder {
	f := &templateFinder{index: map[string]int{}, keys: make([][sha256.Size]byte, len(svcs)), files: make([][]string, len(svcs))}
	for i, s := range svcs {
		f.index[s.Name] = i
	}
	return f
}

// observe wraps a service's emitter to key the service by its rule files.
func (f *templateFinder) observe(emitService func(model.Service, Emit) error) func(model.Service, Emit) error {
	return func(svc model.Service, emit Emit) error {
		ruleFiles := map[string][]byte{}
		err := emitService(svc, func(p string, data []byte) error {
			if name := path.Base(p); slices.Contains(ruleFileNames, name) {
				ruleFiles[name] = bytes.Clone(data)
			}
			return emit(p, data)
		})
		key := ruletemplate.Key(svc.Name, ruletemplate.IdentityOf(svc), ruleFiles)
		i := f.index[svc.Name]
		f.keys[i], f.files[i] = key, slices.Sorted(maps.Keys(ruleFiles))
		return err
	}
}

// templates are the services of each template, in spec order, templates
// in the order of their first service.
func (f *templateFinder) templates() [][]int {
	at := map[[sha256.Size]byte]int{}
	var out [][]int
	for i, k := range f.keys {
		t, ok := at[k]
		if !ok {
			t = len(out)
			at[k] = t
			out = append(out, nil)
		}
		out[t] = append(out[t], i)
	}
	return out
}

// templateTests writes each template's tests, in its first service's
// directory, and the record of the templates: services in parallel, as
// the services' own files are.
func templateTests(svcs []model.Service, f *templateFinder, templates [][]int, emit Emit) error {
	gpuTests := gputests.NewCache()
	tests := []stage{ruleTests, gpuRuleTests(gpuTests)}
	rec := ruletemplate.Record{Templates: make([]ruletemplate.Template, len(templates))}
	errs := make([]error, len(templates))
	parallel.Each(len(templates), runtime.GOMAXPROCS(0), func(t int) {
		tested := svcs[templates[t][0]]
		out := Files{}
		w := plan.NewIn(tested, plan.Fleet)
		for _, st := range tests {
			if errs[t] = st(w, out); errs[t] != nil {
				return
			}
		}
		rec.Templates[t] = record(svcs, templates[t], f.files[templates[t][0]], out)
		errs[t] = emitInOrder(out, func(data []byte) []byte { return data }, emit)
	})
	if err := errors.Join(errs...); err != nil {
		return err
	}
	data, err := ruletemplate.Marshal(rec)
	if err != nil {
		return err
	}
	return emit(ruletemplate.File, data)
}

// record is one template's entry in the record: its tested service's
// test files, and every instance's identity.
func record(svcs []model.Service, members []int, ruleFiles []string, tests Files) ruletemplate.Template {
	tested := svcs[members[0]]
	t := ruletemplate.Template{Tested: tested.Name, RuleFiles: ruleFiles, Services: map[string]ruletemplate.Identity{}}
	for _, p := range slices.Sorted(maps.Keys(tests)) {
		t.Tests = append(t.Tests, path.Base(p))
	}
	for _, i := range members {
		t.Services[svcs[i].Name] = ruletemplate.IdentityOf(svcs[i])
	}
	return t
}
