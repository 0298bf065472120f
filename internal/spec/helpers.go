package spec

import (
	"runtime"
	"slices"

	"cuelang.org/go/cue/cuecontext"
)

// helpers are the checkers of checkServices' other goroutines, each in a
// cue.Context of its own. For big sources they start compiling at once,
// beside the caller's compile, not once the caller has listed the
// services.
type helpers struct {
	early []chan *checker
}

// helperBytes is the size of sources that startHelpers starts helpers
// for: so much CUE holds more services than one chunk (a service is some
// 200 to 400 bytes written out, a row of a fleet's comprehension some
// 130), and a wrong guess costs a compile on a CPU that is idle while the
// caller compiles.
const helperBytes = 8 << 10

// serviceBytes is about what a service takes in a spec, to guess how many
// chunks a source holds before it is compiled: a comprehension's row, the
// least, so that a compact fleet's helpers start early.
const serviceBytes = 130

// maxCheckers bounds the goroutines that check a spec: each holds the
// whole spec compiled in a context of its own, so a 1000-service fleet
// costs some 30 MB more per checker.
const maxCheckers = 8

// otherCheckers is how many goroutines besides the caller's check a spec
// of that many chunks.
func otherCheckers(chunks int) int {
	return max(min(runtime.GOMAXPROCS(0), chunks, maxCheckers)-1, 0)
}

func startHelpers(srcs []Source) *helpers {
	h := &helpers{}
	size := 0
	for _, src := range srcs {
		size += len(src.Data)
	}
	if size < helperBytes {
		return h
	}
	files := make([]file, len(srcs))
	for i, src := range srcs {
		files[i].src = src
	}
	for range otherCheckers(size/(chunkSize*serviceBytes) + 1) {
		c := make(chan *checker, 1)
		go func() { c <- inNewContext(files) }()
		h.early = append(h.early, c)
	}
	return h
}

// take is helper i, checking the services the caller listed in the files.
func (h *helpers) take(i int, files []file) *checker {
	if i >= len(h.early) {
		return inNewContext(files)
	}
	c := <-h.early[i]
	for f := range c.files {
		c.files[f].services = files[f].services
	}
	return c
}

// wait waits for the early helpers past the first taken, which no chunk
// needed, so that none outlives the load.
func (h *helpers) wait(taken int) {
	for _, c := range h.early[min(taken, len(h.early)):] {
		<-c
	}
}

// inNewContext is a checker in a new context, where it compiles the
// schema and the files again.
func inNewContext(files []file) *checker {
	ctx := cuecontext.New()
	files = slices.Clone(files)
	for i := range files {
		// The caller compiled the same source and reports any error.
		files[i].user, _ = compile(ctx, files[i].src)
	}
	return newChecker(specSchema(ctx), files)
}
