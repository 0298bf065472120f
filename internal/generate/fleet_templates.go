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

// testKinds are the kinds of rule file a template covers: each kind's
// files have templates of their own, whose tests the output holds once,
// so that services alike in one kind share its tests though they differ
// in the other (GPU rules read the objective their SLO rules record).
var testKinds = []struct {
	files []string
	tests func(*gputests.Cache) stage
}{
	{[]string{RulesFile, GlobalRulesFile}, func(*gputests.Cache) stage { return ruleTests }},
	{[]string{GPURulesFile}, gpuRuleTests},
}

// templateFinder sorts a fleet's services into rule templates as their
// files are emitted: services whose rule files of a kind are equal once
// their identity is set aside (ruletemplate.Key). Safe for concurrent
// use: each service writes only its own slots.
type templateFinder struct {
	index map[string]int // service name to its index in the spec; read only
	// keys and files are, by service index, each kind's key and its
	// rule files, sorted; a kind the service has no file of has none.
	keys  [][][sha256.Size]byte
	files [][][]string
}

func newTemplateFinder(svcs []model.Service) *templateFinder {
	f := &templateFinder{index: map[string]int{}, keys: make([][][sha256.Size]byte, len(svcs)), files: make([][][]string, len(svcs))}
	for i, s := range svcs {
		f.index[s.Name] = i
	}
	return f
}

// observe wraps a service's emitter to key the service by its rule files.
func (f *templateFinder) observe(emitService func(model.Service, Emit) error) func(model.Service, Emit) error {
	return func(svc model.Service, emit Emit) error {
		ruleFiles := make([]map[string][]byte, len(testKinds))
		err := emitService(svc, func(p string, data []byte) error {
			for k, kind := range testKinds {
				if name := path.Base(p); slices.Contains(kind.files, name) {
					if ruleFiles[k] == nil {
						ruleFiles[k] = map[string][]byte{}
					}
					ruleFiles[k][name] = bytes.Clone(data)
				}
			}
			return emit(p, data)
		})
		i := f.index[svc.Name]
		f.keys[i], f.files[i] = make([][sha256.Size]byte, len(testKinds)), make([][]string, len(testKinds))
		for k, files := range ruleFiles {
			if files != nil {
				f.keys[i][k] = ruletemplate.Key(svc.Name, ruletemplate.IdentityOf(svc), files)
				f.files[i][k] = slices.Sorted(maps.Keys(files))
			}
		}
		return err
	}
}

// templates are the services whose rule files of every kind are alike,
// in spec order, templates in the order of their first service.
func (f *templateFinder) templates() [][]int {
	return group(len(f.keys), func(i int) string {
		var all []byte
		for _, k := range f.keys[i] {
			all = append(all, k[:]...)
		}
		return string(all)
	})
}

// kindTemplates are, for one kind of rule file, the services of each of
// its templates; a service without files of the kind is in none.
func (f *templateFinder) kindTemplates(kind int) [][]int {
	var out [][]int
	for _, t := range group(len(f.keys), func(i int) string { return string(f.keys[i][kind][:]) }) {
		if f.files[t[0]][kind] != nil {
			out = append(out, t)
		}
	}
	return out
}

// group sorts n services by key, in spec order, groups in the order of
// their first service.
func group(n int, key func(i int) string) [][]int {
	at := map[string]int{}
	var out [][]int
	for i := range n {
		k := key(i)
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

// templateTests writes each kind's templates' tests, in the template's
// first service's directory, and the record of the templates: templates
// in parallel, as the services' own files are.
func templateTests(svcs []model.Service, f *templateFinder, emit Emit) error {
	type job struct {
		kind    int
		members []int
	}
	var jobs []job
	for k := range testKinds {
		for _, t := range f.kindTemplates(k) {
			jobs = append(jobs, job{k, t})
		}
	}
	gpuTests := gputests.NewCache()
	rec := ruletemplate.Record{Templates: make([]ruletemplate.Template, len(jobs)), Services: map[string]ruletemplate.Identity{}}
	for _, svc := range svcs {
		rec.Services[svc.Name] = ruletemplate.IdentityOf(svc)
	}
	errs := make([]error, len(jobs))
	parallel.Each(len(jobs), runtime.GOMAXPROCS(0), func(j int) {
		members, tests := jobs[j].members, testKinds[jobs[j].kind].tests(gpuTests)
		out := Files{}
		if errs[j] = tests(plan.NewIn(svcs[members[0]], plan.Fleet), out); errs[j] != nil {
			return
		}
		rec.Templates[j] = record(svcs, members, f.files[members[0]][jobs[j].kind], out)
		errs[j] = emitInOrder(out, func(data []byte) []byte { return data }, emit)
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
// test files, and its instances.
func record(svcs []model.Service, members []int, ruleFiles []string, tests Files) ruletemplate.Template {
	t := ruletemplate.Template{Tested: svcs[members[0]].Name, RuleFiles: ruleFiles}
	for _, p := range slices.Sorted(maps.Keys(tests)) {
		t.Tests = append(t.Tests, path.Base(p))
	}
	for _, i := range members {
		t.Services = append(t.Services, svcs[i].Name)
	}
	return t
}
