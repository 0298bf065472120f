package spec

import (
	"sync"

	"cuelang.org/go/cue"

	"github.com/slogen-dev/slogen/internal/model"
)

// checkedService is one service checked against the schema and, if it
// passed, resolved.
type checkedService struct {
	name string
	// invalid says why the service failed the schema or could not be
	// decoded; such a service is not resolved and claims no name.
	invalid Diagnostics
	svc     model.Service
	// What resolving the service found, in the user's file.
	errs, warns, notes Diagnostics
	// shape is what the service needs to share a shape; nil for none,
	// and noShape says why.
	shape   *shaped
	noShape string
}

// chunkSize is how many services one goroutine checks at a time: the
// schema meets them in one evaluation, which costs less than one each,
// and a fleet still splits into enough chunks to keep every CPU busy to
// the end. A spec of fewer services is checked where it was compiled.
const chunkSize = 64

// chunk is services [lo, hi) of a file.
type chunk struct{ file, lo, hi int }

// checkServices checks and resolves the services of the files, in the
// files' order, on one goroutine per CPU for a big spec (otherCheckers). A
// cue.Context is not safe for concurrent use, so each goroutine but the
// caller's checks in a context of its own: one of the helpers, or a new
// one. A service comes out the same from any chunk and any context.
func checkServices(def cue.Value, files []file, helpers *helpers) [][]checkedService {
	out := make([][]checkedService, len(files))
	var chunks []chunk
	for i, f := range files {
		out[i] = make([]checkedService, len(f.services))
		for lo := 0; lo < len(f.services); lo += chunkSize {
			chunks = append(chunks, chunk{i, lo, min(lo+chunkSize, len(f.services))})
		}
	}
	todo := make(chan chunk, len(chunks))
	for _, ch := range chunks {
		todo <- ch
	}
	close(todo)
	work := func(c *checker) {
		for ch := range todo {
			c.check(ch, out[ch.file][ch.lo:ch.hi])
		}
	}
	others := otherCheckers(len(chunks))
	var wg sync.WaitGroup
	for i := range others {
		wg.Go(func() { work(helpers.take(i, files)) })
	}
	work(newChecker(def, files))
	wg.Wait()
	helpers.wait(others)
	return out
}

// checker checks services in one cue.Context.
type checker struct {
	def     cue.Value
	files   []file // the files, compiled in this context
	service schemaNode
	fields  fieldWalk
}

// newChecker checks services in the context def and the files were
// compiled in.
func newChecker(def cue.Value, files []file) *checker {
	return &checker{def: def, files: files, service: serviceSchema(def), fields: newFieldWalk()}
}

func (c *checker) check(ch chunk, out []checkedService) {
	f := c.files[ch.file]
	sels := f.services[ch.lo:ch.hi]
	unified := c.unify(f.user, sels)
	for i, sel := range sels {
		out[i] = c.checkService(f, unified, sel)
	}
}

// unify meets the schema with some services of a file, as it would meet
// the whole file, in one evaluation.
func (c *checker) unify(user cue.Value, sels []cue.Selector) cue.Value {
	services := make(map[string]cue.Value, len(sels))
	for _, sel := range sels {
		// A service only required (x!: ...) is listed but not there, and
		// stays missing, as in the whole file, for checkService to report.
		if v := user.LookupPath(servicesPath.Append(sel)); v.Exists() {
			services[sel.Unquoted()] = v
		}
	}
	return c.def.FillPath(servicesPath, services)
}

// checkService checks a service against the schema and resolves it if it
// passes.
func (c *checker) checkService(f file, unified cue.Value, sel cue.Selector) checkedService {
	path := servicesPath.Append(sel)
	res := checkedService{name: sel.Unquoted()}
	u := unified.LookupPath(path)
	if err := u.Validate(cue.Concrete(true), cue.All()); err != nil {
		// The walk names every unknown and missing field, where CUE names
		// some only once the others are fixed; where CUE finds nothing
		// wrong, there are none.
		res.invalid = c.fields.check(f.user.LookupPath(path), c.service, path.Selectors())
		res.invalid = append(res.invalid, explain(err, f.user)...)
	}
	if len(res.invalid) > 0 {
		return res
	}
	var raw rawService
	if err := decode(u, &raw); err != nil {
		res.invalid = fromCUE(err)
		return res
	}
	r := newResolver(f, res.name)
	res.svc = r.service(res.name, raw)
	res.errs, res.warns, res.notes = r.errs, r.warns, r.notes
	if len(r.errs) == 0 {
		res.shape, res.noShape = shapeOf(f, res.name, raw, res.svc)
	}
	return res
}
