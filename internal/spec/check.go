package spec

import (
	"runtime"
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
	// raw is the service the schema passed, decoded; derive copies a
	// stand-in's for the services it stands for, which share its maps and
	// slices: nothing changes them.
	raw rawService
	svc model.Service
	// What resolving the service found, in the user's file.
	errs, warns, notes Diagnostics
	// shape is what the service needs to share a shape; nil for none,
	// and noShape says why.
	shape   *shaped
	noShape string
}

// chunkSize is how many services one goroutine checks at a time, at
// most: the schema meets them in one evaluation, which costs less than
// one each, and a fleet still splits into enough chunks to keep every CPU
// busy to the end. A smaller spec is cut into four chunks per CPU, of at
// least minChunk services: cut in 64s, 100 services kept one CPU on 64
// while the other, after compiling the spec again, had 36; and the teams
// fleet's 100 services, 18 checked and 82 derived, loaded 7 ms sooner in
// chunks of 4 than of 16, the helper taking its share once it compiled.
// A spec of fewer services is checked where it was compiled.
const chunkSize = 64

const minChunk = 4

// chunk is some services of a file, by index.
type chunk struct {
	file     int
	services []int
}

// chunksOf cuts the services of a file into chunks.
func chunksOf(file int, services []int) []chunk {
	var chunks []chunk
	size := min(chunkSize, max(minChunk, len(services)/(4*runtime.GOMAXPROCS(0))))
	for lo := 0; lo < len(services); lo += size {
		chunks = append(chunks, chunk{file, services[lo:min(lo+size, len(services))]})
	}
	return chunks
}

// queue hands the chunks out to the goroutines, each to the first that
// asks.
func queue(chunks []chunk) <-chan chunk {
	q := make(chan chunk, len(chunks))
	for _, ch := range chunks {
		q <- ch
	}
	close(q)
	return q
}

// checkServices checks and resolves the services of the files, in the
// files' order, on one goroutine per CPU for a big spec (otherCheckers). A
// cue.Context is not safe for concurrent use, so each goroutine but the
// caller's checks in a context of its own: one of the helpers, or a new
// one. A service comes out the same from any chunk and any context. The
// services that stand for themselves (standIns) are checked first, and the
// others derived from their stand-ins' checks, on the caller and on any
// helper already compiling: deriving needs a context only for the
// positions of what resolving finds, not worth a compile of its own.
func checkServices(def cue.Value, files []file, stand []standIns, helpers *helpers) [][]checkedService {
	out := make([][]checkedService, len(files))
	var checkChunks, deriveChunks []chunk
	for i, f := range files {
		out[i] = make([]checkedService, len(f.services))
		var checked, derived []int
		for j := range f.services {
			if stand[i].by[j] == j {
				checked = append(checked, j)
			} else {
				derived = append(derived, j)
			}
		}
		checkChunks = append(checkChunks, chunksOf(i, checked)...)
		deriveChunks = append(deriveChunks, chunksOf(i, derived)...)
	}
	toCheck, toDerive := queue(checkChunks), queue(deriveChunks)
	// A helper compiles the spec to check; deriving takes only the helpers
	// that startHelpers started compiling anyway.
	others := max(otherCheckers(len(checkChunks)), min(otherCheckers(len(deriveChunks)), len(helpers.early)))
	var standInsChecked sync.WaitGroup
	standInsChecked.Add(len(checkChunks))
	work := func(c *checker) {
		for ch := range toCheck {
			c.check(ch, out[ch.file])
			standInsChecked.Done()
		}
		standInsChecked.Wait() // a derived service reads its stand-in's check
		for ch := range toDerive {
			c.derive(ch, out[ch.file], stand[ch.file])
		}
	}
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

// check checks the chunk's services, into out by index.
func (c *checker) check(ch chunk, out []checkedService) {
	f := c.files[ch.file]
	sels := make([]cue.Selector, len(ch.services))
	for k, j := range ch.services {
		sels[k] = f.services[j]
	}
	unified := c.unify(f.user, sels)
	for k, j := range ch.services {
		out[j] = c.checkService(f, unified, sels[k])
	}
}

// derive makes each service of the chunk from the check of the service
// that stands for it: that one's rawService with the service's own
// identity. A service whose stand-in failed the schema, or whose stand-in
// did not decode its identity as standIns read it, is checked itself.
func (c *checker) derive(ch chunk, out []checkedService, stand standIns) {
	f := c.files[ch.file]
	var own []int
	for _, j := range ch.services {
		in := stand.by[j]
		if len(out[in].invalid) > 0 || !sameIdentity(out[in].raw, stand.identity[in]) {
			own = append(own, j)
			continue
		}
		out[j] = resolveService(f, f.services[j].Unquoted(), stand.identity[j].of(out[in].raw))
	}
	if len(own) > 0 {
		c.check(chunk{ch.file, own}, out)
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
// passes; if it fails, what resolving finds in the rest of it is reported
// with the schema's problems.
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
		if len(res.invalid) > 0 {
			res.invalid = append(res.invalid, c.resolveRest(f, path, err, res.invalid)...)
			return res
		}
	}
	var raw rawService
	if err := decode(u, &raw); err != nil {
		res.invalid = fromCUE(err)
		return res
	}
	return resolveService(f, res.name, raw)
}

// resolveService resolves a service that passed the schema.
func resolveService(f file, name string, raw rawService) checkedService {
	res := checkedService{name: name, raw: raw}
	r := newResolver(f, name)
	res.svc = r.service(name, raw)
	res.errs, res.warns, res.notes = r.errs, r.warns, r.notes
	if len(r.errs) == 0 {
		res.shape, res.noShape = shapeOf(f, name, raw, res.svc)
	}
	return res
}
