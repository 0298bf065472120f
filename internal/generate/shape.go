package generate

import (
	"bytes"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/slogen-dev/slogen/internal/memo"
	"github.com/slogen-dev/slogen/internal/model"
)

// shapes makes the files of the services of one shape (model.Shape) once
// per build: it generates the shape's Sample and Check, and when Check's
// files are Sample's with the other placeholders written in, it keeps
// Sample's files with slots where the identity goes, and fills them in
// for each service. Safe for concurrent use.
type shapes struct {
	generate func(model.Service) (Files, error)
	// slotted holds each shape's files with slots; nil for a shape whose
	// outputs do not all carry the identity verbatim.
	slotted memo.Memo[*model.Shape, []slotted]
	// buffers are what services' files are filled in to, one per service
	// being emitted: a buffer for each service, grown to its largest file,
	// came to some 60 MB to allocate, zero and collect for 1000 services.
	buffers sync.Pool
}

func newShapes(generate func(model.Service) (Files, error)) *shapes {
	return &shapes{generate: generate}
}

// slotted is a file whose path and content have slots for an identity.
type slotted struct {
	path, data slots
}

// emit emits the service's files in path order, only when all of them
// were made. A service whose shape carries the identity verbatim gets the
// shape's files with its identity filled in, each into the same buffer;
// any other is generated.
func (s *shapes) emit(svc model.Service, emit Emit) error {
	var files []slotted
	if svc.Shape != nil {
		files = s.slotted.Get(svc.Shape, s.makeSlots)
	}
	if files == nil {
		generated, err := s.generate(svc)
		if err != nil {
			return err
		}
		return emitInOrder(generated, func(data []byte) []byte { return data }, emit)
	}
	id := svc.Identity()
	byPath := make(map[string]slots, len(files))
	for _, f := range files {
		byPath[string(f.path.fill(nil, id))] = f.data
	}
	buf, _ := s.buffers.Get().(*[]byte)
	if buf == nil {
		buf = new([]byte)
	}
	defer s.buffers.Put(buf)
	return emitInOrder(byPath, func(data slots) []byte {
		*buf = data.fill((*buf)[:0], id)
		return *buf
	}, emit)
}

// emitInOrder emits each file, made by content, in path order.
func emitInOrder[T any](files map[string]T, content func(T) []byte, emit Emit) error {
	for _, p := range slices.Sorted(maps.Keys(files)) {
		if err := emit(p, content(files[p])); err != nil {
			return err
		}
	}
	return nil
}

// makeSlots generates the shape's Sample and Check and returns Sample's files
// with slots for the identity, or nil when either failed or Check's files
// are not Sample's with Check's identity written in.
func (s *shapes) makeSlots(sh *model.Shape) []slotted {
	sample, err := s.generate(sh.Sample)
	if err != nil {
		return nil
	}
	check, err := s.generate(sh.Check)
	if err != nil || len(check) != len(sample) {
		return nil
	}
	sampleID, checkID := sh.Sample.Identity(), sh.Check.Identity()
	var files []slotted
	for p, data := range sample {
		f := slotted{path: slotsOf(p, sampleID), data: slotsOf(string(data), sampleID)}
		want, ok := check[string(f.path.fill(nil, checkID))]
		if !ok || !bytes.Equal(f.data.fill(nil, checkID), want) {
			return nil
		}
		files = append(files, f)
	}
	return files
}

// slots is text cut where an identity goes: parts[0], the identity's
// value number at[0], parts[1], ..., parts[len(at)].
type slots struct {
	parts []string
	at    []int
}

// slotsOf cuts text at every occurrence of each of the identity's values,
// which are placeholders no spec and no generator writes otherwise.
func slotsOf(text string, id []string) slots {
	var s slots
	next := make([]int, len(id)) // where each value next occurs, from pos
	for i, v := range id {
		next[i] = strings.Index(text, v)
	}
	for pos := 0; ; {
		first := -1
		for i, n := range next {
			if n >= 0 && (first < 0 || n < next[first]) {
				first = i
			}
		}
		if first < 0 {
			s.parts = append(s.parts, text[pos:])
			return s
		}
		s.parts = append(s.parts, text[pos:next[first]])
		s.at = append(s.at, first)
		pos = next[first] + len(id[first])
		for i, n := range next {
			if n >= 0 && n < pos {
				next[i] = indexFrom(text, id[i], pos)
			}
		}
	}
}

func indexFrom(text, sub string, from int) int {
	if i := strings.Index(text[from:], sub); i >= 0 {
		return from + i
	}
	return -1
}

// fill appends the text to b with the identity's values in the slots.
func (s slots) fill(b []byte, id []string) []byte {
	n := 0
	for _, p := range s.parts {
		n += len(p)
	}
	for _, i := range s.at {
		n += len(id[i])
	}
	b = slices.Grow(b, n)
	for k, i := range s.at {
		b = append(append(b, s.parts[k]...), id[i]...)
	}
	return append(b, s.parts[len(s.at)]...)
}
