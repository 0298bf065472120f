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
	"github.com/slogen-dev/slogen/internal/yamlenc"
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
	if why := unshapeable(svc); why != "" {
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

// shareShapes gives the services that share a key with two others or more
// their shape, built once: a shape costs two services' worth of generating
// (Sample and Check), which two services alike cost anyway, and one alone
// less. services and from are in step: the
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
		case members[sh.key] == 1:
			noShape[services[i].Name] = "no other service of its file differs from it only in its name, team, model, GPU and selector values"
			continue
		case members[sh.key] == 2:
			noShape[services[i].Name] = "only one other service of its file differs from it only in its name, team, model, GPU and selector values, and a shape costs as much as generating both"
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
	sample, ok := placeholderService(f, sampleTokens.byPosition[0], withIdentity(name, raw, sampleTokens))
	check, ok2 := placeholderService(f, checkTokens.byPosition[0], withIdentity(name, raw, checkTokens))
	if !ok || !ok2 {
		return nil
	}
	return &model.Shape{Sample: sample, Check: check}
}

// The placeholders: a set for the name and the selector's values, by
// position in model.Service.Identity, and one each for the team and the
// model. Each holds a dash, as names may. The two sets differ in length,
// in their order among themselves, and in where they sort among other text
// (Sample's after nearly any, Check's before), so that an output which
// transforms, truncates or sorts by the identity rather than carrying it
// verbatim tells Sample's outputs from Check's, and generate does not use
// the shape. They bracket the lengths of the identities a shape stands for
// (identityValue, teamValue, modelValue, productValue). Check's model and
// GPU product hold every kind of character they may (capitals, digits,
// dots, slashes, underscores, spaces), so that an output which escapes or
// lowercases them shows it too.
var (
	sampleTokens = placeholders{
		byPosition: tokens(func(i int) string { return "z-" + strconv.Itoa(i) + "q" }),
		team:       "z-t",
		model:      "z-m",
		gpu:        rawGPU{Product: "z-g", Count: 1, MemoryMiB: 1024},
	}
	checkTokens = placeholders{
		byPosition: tokens(func(i int) string { return "a-" + strings.Repeat("w", 44) + strconv.Itoa(maxIdentity-1-i) + "x" }),
		team:       "a-" + strings.Repeat("v", 45) + "t",
		model:      "0-" + strings.Repeat("Mw./_", 12) + "m9",
		gpu:        rawGPU{Product: "0-" + strings.Repeat("Gg 9._", 10) + "g9", Count: 64, MemoryMiB: 1 << 20},
	}
)

// placeholders is one set of placeholders for an identity. Its GPU is a
// product of no catalog, with a count and memory of the set's own: the
// two sets' differ, so a shape whose outputs read them is not used.
type placeholders struct {
	byPosition  []string // the name's, then the selector values'
	team, model string
	gpu         rawGPU
}

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
// placeholders are and no longer; and none that YAML would quote
// (yamlenc.Plain: yes, null, NaN). teamValue is the same for a team, which may be as short as three
// letters; modelValue is a model's name as Hugging Face writes it
// ("meta-llama/Llama-3.1-8B-Instruct"), starting with a letter, so that
// YAML never reads it as a number or a date; productValue is a GPU's as
// NVML writes it ("NVIDIA H100 80GB HBM3").
var (
	identityValue = regexp.MustCompile(`^[a-z][-a-z0-9]{2,46}[a-z0-9]$`)
	teamValue     = regexp.MustCompile(`^[a-z][-a-z0-9]{1,46}[a-z0-9]$`)
	modelValue    = regexp.MustCompile(`^[A-Za-z][-A-Za-z0-9./_]{1,62}[A-Za-z0-9]$`)
	productValue  = regexp.MustCompile(`^[A-Za-z][-A-Za-z0-9 ._]{1,62}[A-Za-z0-9]$`)
)

// unshapeable says why a shape cannot stand for the service's identity, or "".
func unshapeable(svc model.Service) string {
	if len(svc.Selector) >= maxIdentity {
		return "it has more than nine selector labels"
	}
	named := []string{svc.Name}
	for _, l := range svc.Selector {
		named = append(named, l.Value)
	}
	for i, v := range named {
		// A value that holds the name is as long as the name lets it be.
		checked := v
		if i > 0 {
			checked = strings.ReplaceAll(v, svc.Name, "name")
		}
		if !identityValue.MatchString(checked) {
			return fmt.Sprintf("%q is not 4 to 48 characters of a-z, 0-9 and -, starting with a letter", v)
		}
		// One value inside another may be the other's derived form (a
		// pod name-0), which no two sets of placeholders reproduce; but
		// a selector value that holds the name is written with the
		// name's placeholder in it (withIdentity), which does.
		for _, w := range named[i+1:] {
			switch {
			case v == w, v == svc.Name && strings.Contains(w, v), w == svc.Name && strings.Contains(v, w):
			case strings.Contains(v, w):
				return fmt.Sprintf("%q holds %q", v, w)
			case strings.Contains(w, v):
				return fmt.Sprintf("%q holds %q", w, v)
			}
		}
	}
	for _, v := range slices.Concat(named, []string{svc.Team, svc.Model, svc.GPU.Product}) {
		if v != "" && !yamlenc.Plain(v) {
			return fmt.Sprintf("%q would be quoted in YAML", v)
		}
	}
	return labelsOnly(svc, named)
}

// labelsOnly says why the service's team, model or GPU product cannot
// have a placeholder of its own, or "". Each is written only as it is, as
// label values and matchers; each must differ from every other value of
// the identity, whose equality placeholders would not reproduce.
func labelsOnly(svc model.Service, named []string) string {
	switch {
	case svc.Team != "" && !teamValue.MatchString(svc.Team):
		return fmt.Sprintf("team %q is not 3 to 48 characters of a-z, 0-9 and -, starting with a letter", svc.Team)
	case svc.Model != "" && !modelValue.MatchString(svc.Model):
		return fmt.Sprintf("model %q is not 3 to 64 characters of letters, digits, -, ., / and _, starting with a letter", svc.Model)
	case svc.GPU.Product != "" && !productValue.MatchString(svc.GPU.Product):
		return fmt.Sprintf("GPU product %q is not 3 to 64 characters of letters, digits, spaces, -, . and _, starting with a letter", svc.GPU.Product)
	}
	all := slices.Concat(named, []string{svc.Team, svc.Model, svc.GPU.Product})
	for i, v := range all[len(named):] {
		if v == "" {
			continue
		}
		if slices.Contains(all[:len(named)+i], v) {
			return fmt.Sprintf("%q is also another value of its identity", v)
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
// identity: the name's where a selector value is the name or holds it,
// then the others in the order of their labels (the order
// model.Service.Selector keeps), and the team's, the model's and the GPU
// product's; and the set's GPU count and memory, which no output of a
// shape may depend on. Equal
// values get one placeholder, so that what a generator makes of a job
// named as its service, the placeholders make too; and a job named
// "vllm-" and the service's name keeps the name's placeholder after
// "vllm-".
func withIdentity(name string, raw rawService, ph placeholders) rawService {
	token := map[string]string{name: ph.byPosition[0]}
	for i, k := range slices.Sorted(maps.Keys(raw.Selector)) {
		v := raw.Selector[k]
		if _, seen := token[v]; !seen {
			token[v] = ph.byPosition[1+i]
			if strings.Contains(v, name) {
				token[v] = strings.ReplaceAll(v, name, ph.byPosition[0])
			}
		}
	}
	sel := make(map[string]string, len(raw.Selector))
	for k, v := range raw.Selector {
		sel[k] = token[v]
	}
	raw.Selector = sel
	if raw.Team != "" {
		raw.Team = ph.team
	}
	if raw.Model != "" {
		raw.Model = ph.model
	}
	if raw.GPU != nil {
		gpu := *raw.GPU
		if gpu.Product != "" {
			gpu.Product = ph.gpu.Product
		}
		gpu.Count, gpu.MemoryMiB = ph.gpu.Count, ph.gpu.MemoryMiB
		raw.GPU = &gpu
	}
	return raw
}

// placeholderService builds a service of placeholders as build builds a
// real one; its problems are the real service's, already reported.
func placeholderService(f file, name string, raw rawService) (model.Service, bool) {
	r := newResolver(f, name)
	svc := r.service(name, raw)
	return svc, len(r.errs) == 0
}
