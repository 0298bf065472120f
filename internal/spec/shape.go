package spec

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/slogen-dev/slogen/internal/model"
)

// shaped is a service that may share a shape (model.Shape) with others:
// its key is exactly what its model is built from besides its identity,
// its file's name and its spec with placeholders for the identity.
type shaped struct {
	key  string
	name string
	raw  rawService
}

// shapeOf is what a service that resolved without errors (svc) needs to
// share a shape, or why its identity is not one a shape can stand for.
func shapeOf(f file, name string, raw rawService, svc model.Service) (*shaped, string) {
	if why := unshapeable(svc.Identity()); why != "" {
		return nil, why
	}
	spec, err := json.Marshal(withIdentity(name, raw, sampleTokens))
	if err != nil {
		return nil, "its spec could not be written as JSON: " + err.Error()
	}
	if why := matchedBesides(svc, raw.Model != "", spec); why != "" {
		return nil, why
	}
	return &shaped{key: f.src.Name + "\x00" + string(spec), name: name, raw: raw}, ""
}

// shareShapes gives the services that share a key with another one their
// shape, built once: a shape of one service would only cost two more
// services' worth of generating. services and from are in step: the
// services and what shapeOf made of them, with the file of each. noShape
// gets why each service that could have had a shape has none.
func shareShapes(services []model.Service, from []*shaped, files []file, noShape map[string]string) {
	members := map[string]int{}
	for _, sh := range from {
		if sh != nil {
			members[sh.key]++
		}
	}
	built := map[string]*model.Shape{}
	for i, sh := range from {
		switch {
		case sh == nil:
			continue
		case members[sh.key] < 2:
			noShape[services[i].Name] = "no other service of its file differs from it only in its name and selector values"
			continue
		}
		shape, seen := built[sh.key]
		if !seen {
			shape = newShape(files[i], sh.name, sh.raw)
			built[sh.key] = shape
		}
		if shape == nil {
			noShape[services[i].Name] = "its placeholder services did not build"
		}
		services[i].Shape = shape
	}
}

// newShape builds a shape's placeholder services, or nil when they do not
// build.
func newShape(f file, name string, raw rawService) *model.Shape {
	sample, ok := placeholderService(f, sampleTokens[0], withIdentity(name, raw, sampleTokens))
	check, ok2 := placeholderService(f, checkTokens[0], withIdentity(name, raw, checkTokens))
	if !ok || !ok2 {
		return nil
	}
	return &model.Shape{Sample: sample, Check: check}
}

// The placeholders, by position in model.Service.Identity. Each holds a
// dash, as names may. The two sets differ in length, in their order among
// themselves, and in where they sort among other text (Sample's after
// nearly any, Check's before), so that an output which transforms,
// truncates or sorts by the identity rather than carrying it verbatim
// tells Sample's outputs from Check's, and generate does not use the
// shape. They bracket the lengths of the identities a shape stands for
// (identityValue).
var (
	sampleTokens = tokens(func(i int) string { return "z-" + strconv.Itoa(i) + "q" })
	checkTokens  = tokens(func(i int) string { return "a-" + strings.Repeat("w", 20) + strconv.Itoa(maxIdentity-1-i) + "x" })
)

const maxIdentity = 10 // a name and nine selector labels

func tokens(token func(i int) string) []string {
	ts := make([]string, maxIdentity)
	for i := range ts {
		ts[i] = token(i)
	}
	return ts
}

// identityValue is what a name or selector value must look like for a
// shape to stand for it: text every output writes verbatim (no quoting
// or escaping in YAML, JSON, PromQL or Markdown), as long as the
// placeholders are and no longer. YAML would quote the words excluded.
var identityValue = regexp.MustCompile(`^[a-z][-a-z0-9]{2,22}[a-z0-9]$`)

// unshapeable says why a shape cannot stand for the identity, or "".
func unshapeable(id []string) string {
	if len(id) > maxIdentity {
		return "it has more than nine selector labels"
	}
	for i, v := range id {
		switch {
		case !identityValue.MatchString(v):
			return fmt.Sprintf("%q is not 4 to 24 characters of a-z, 0-9 and -, starting with a letter", v)
		case v == "true" || v == "false" || v == "null":
			return fmt.Sprintf("%q would be quoted in YAML", v)
		}
		// One value inside another may be the other's derived form (a
		// pod name-0), which no two sets of placeholders reproduce.
		for _, w := range id[i+1:] {
			long, short := v, w
			if len(short) > len(long) {
				long, short = short, long
			}
			if long != short && strings.Contains(long, short) {
				return fmt.Sprintf("%q holds %q", long, short)
			}
		}
	}
	return ""
}

// matchedBesides says how, if at all, the rest of the spec may be compared
// with the identity, which no placeholder equals or sorts as: a value equal
// to a string of the spec's (a job named as dcgm.job makes two series
// alike), or a selector label that something else matches on too (the
// runtime's model label, a query of the spec's), whose matchers the
// printed selector sorts by their values. spec is the service's spec as
// JSON, with placeholders for its selector's values.
func matchedBesides(svc model.Service, modelSet bool, spec []byte) string {
	for _, v := range svc.Identity() {
		if bytes.Contains(spec, []byte(`"`+v+`"`)) {
			return fmt.Sprintf("%q is also a value of its spec", v)
		}
	}
	for _, l := range svc.Selector {
		switch {
		case l.Name == svc.Metrics.ModelLabel && modelSet:
			return fmt.Sprintf("its selector's %s is the runtime's model label too", l.Name)
		case matchesLabel(spec, l.Name):
			return fmt.Sprintf("a query of its spec matches its selector's %s too", l.Name)
		}
	}
	return ""
}

// matchesLabel reports a matcher on the label in the text: the label's
// name, not inside a longer one, then = or ! after any spaces.
func matchesLabel(text []byte, label string) bool {
	for i := 0; ; {
		j := bytes.Index(text[i:], []byte(label))
		if j < 0 {
			return false
		}
		at := i + j
		after := bytes.TrimLeft(text[at+len(label):], " ")
		if (at == 0 || !isNameByte(text[at-1])) && len(after) > 0 && (after[0] == '=' || after[0] == '!') {
			return true
		}
		i = at + 1
	}
}

func isNameByte(b byte) bool {
	return b == '_' || 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9'
}

// withIdentity is the service's spec with placeholders in place of its
// selector's values: tokens[1:] in the order of their labels (the order
// model.Service.Selector keeps), tokens[0] where a value is the service's
// name, which tokens[0] stands for. Equal values get one placeholder, so
// that what a generator makes of a job named as its service, the
// placeholders make too.
func withIdentity(name string, raw rawService, tokens []string) rawService {
	token := map[string]string{name: tokens[0]}
	for i, k := range slices.Sorted(maps.Keys(raw.Selector)) {
		v := raw.Selector[k]
		if _, seen := token[v]; !seen {
			token[v] = tokens[1+i]
		}
	}
	sel := make(map[string]string, len(raw.Selector))
	for k, v := range raw.Selector {
		sel[k] = token[v]
	}
	raw.Selector = sel
	return raw
}

// placeholderService builds a service of placeholders as build builds a
// real one; its problems are the real service's, already reported.
func placeholderService(f file, name string, raw rawService) (model.Service, bool) {
	r := newResolver(f, name)
	svc := r.service(name, raw)
	return svc, len(r.errs) == 0
}
