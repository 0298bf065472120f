package spec

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"cuelang.org/go/cue"

	"github.com/slogen-dev/slogen/internal/model"
)

// shapes are the shapes found so far in one load (model.Shape), by a key
// that is exactly what a service's model is built from besides its
// identity: its file's name and its spec with placeholders for the
// identity. A nil entry is a shape whose placeholder services did not
// build.
type shapes map[string]*model.Shape

// of is the shape of a service that built without errors, or nil when its
// identity is not one a shape can stand for.
func (s shapes) of(f file, name string, raw rawService) *model.Shape {
	if !shapeable(name, raw.Selector) {
		return nil
	}
	sampleName, sampleRaw := withIdentity(name, raw, sampleTokens)
	spec, err := json.Marshal(sampleRaw)
	if err != nil {
		return nil
	}
	key := f.name + "\x00" + string(spec)
	if sh, seen := s[key]; seen {
		return sh
	}
	sample, ok := placeholderService(f, sampleName, sampleRaw)
	checkName, checkRaw := withIdentity(name, raw, checkTokens)
	check, ok2 := placeholderService(f, checkName, checkRaw)
	var sh *model.Shape
	if ok && ok2 {
		sh = &model.Shape{Sample: sample, Check: check}
	}
	s[key] = sh
	return sh
}

// The placeholders, by position in model.Service.Identity. Each holds a
// dash, as names do. The two sets differ in length, in their order among
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

func shapeable(name string, selector map[string]string) bool {
	if 1+len(selector) > maxIdentity {
		return false
	}
	for _, v := range append(slices.Collect(maps.Values(selector)), name) {
		if !identityValue.MatchString(v) || v == "true" || v == "false" || v == "null" {
			return false
		}
	}
	return true
}

// withIdentity is the service with the given identity in place of its own:
// tokens[0] as its name, then tokens[1:] as its selector's values in the
// order of their labels (the order model.Service.Selector keeps).
func withIdentity(name string, raw rawService, tokens []string) (string, rawService) {
	sel := make(map[string]string, len(raw.Selector))
	for i, k := range slices.Sorted(maps.Keys(raw.Selector)) {
		sel[k] = tokens[1+i]
	}
	raw.Selector = sel
	return tokens[0], raw
}

// placeholderService builds a service of placeholders as build builds a
// real one; its problems are the real service's, already reported.
func placeholderService(f file, name string, raw rawService) (model.Service, bool) {
	r := &resolver{file: f, base: []cue.Selector{cue.Str("services"), cue.Str(name)}}
	svc := r.service(name, raw)
	return svc, len(r.errs) == 0
}
