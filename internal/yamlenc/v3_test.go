package yamlenc

import (
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// yamlV3 is what yaml.v3's Encoder writes for v, with a two-space indent.
func yamlV3(t testing.TB, v any) string {
	t.Helper()
	var b strings.Builder
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func requireYAMLv3(t testing.TB, v any) {
	t.Helper()
	got, err := AppendYAMLv3(nil, v)
	if err != nil {
		t.Fatalf("%#v: %v", v, err)
	}
	if want := yamlV3(t, v); string(got) != want {
		t.Fatalf("differs from yaml.v3 for %#v:\n--- got\n%q\n--- yaml.v3\n%q", v, got, want)
	}
}

// More strings yaml.v3 writes in a style of its own: YAML 1.1's other
// line breaks, a byte order mark, numbers in other bases, YAML 1.1 bools,
// indicators in flow sequences and blocks that keep their line breaks.
var awkwardForYAMLv3 = []string{
	"a\n", "a\n\n", "\n", "\na", " a\nb", "a\n b", "a \nb", "x\n\ty", "a\tb", "-", "--- x", "...", "a,b", "a]", "a:b", "x#y",
	"? x", ":x", "Yes", "ON", "y", "TRUE", "Null", "0o17", "0b101", "0b-1", "0o-7", "+1", "-0", ".5", "1.", "08", "1__0",
	".NaN", "-.INF", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10", "190:20:30", "-1:30", "<<", "a\r", "a\u0085b",
	"\ufeffbom", "a\u2028b", "a\u2028\u2028b c\u2029d", "x\ny\u2028z\u2028", "a\u2029\nb", "\u2028", "a\u00a0", "a\x00b",
	"a\x7fb", "\U0001F680", "\uE000\uFFFD\uFFFE", strings.Repeat("k", 128), strings.Repeat("k", 129),
}

// scalarPlaces puts s everywhere yaml.v3 may spell it differently: a
// value, a simple or complex key over a string, a mapping and a sequence,
// a sequence item, a flow sequence item, at two depths.
func scalarPlaces(s string) []any {
	type flow struct {
		Items []string `yaml:"items,flow"`
		Value string   `yaml:"value"`
	}
	return []any{
		map[string]string{"k": s, s: "v"},
		map[string]any{"a": map[string]any{s: map[string]string{"x": s}, "b": []string{s, "q"}}},
		map[string]any{s: []string{"a", s}, "z": map[string]any{s: []string{}}},
		[]any{map[string]string{s: s}, flow{Items: []string{s, "x", s}, Value: s}},
		map[string]flow{"f": {Items: []string{s}}, s: {}},
	}
}

func TestStringsMatchYAMLv3(t *testing.T) {
	for _, s := range append(awkward, awkwardForYAMLv3...) {
		for _, v := range scalarPlaces(s) {
			requireYAMLv3(t, v)
		}
	}
}

func TestKeyOrderMatchesYAMLv3(t *testing.T) {
	keys := []string{"gpu10", "gpu9", "gpu09", "gpu0", "gpu", "GPU", "UUID", "__name__", "exported_pod", "v1a", "v1.0", "v1-0",
		"a01", "a1", "a001b", "a1b", "x10y2", "x10y10", "", "Zebra", "apple", "ünï", "é", "٣", "a٣", "1", "10", "9", "_", "-"}
	m := map[string]int{}
	for i, k := range keys {
		m[k] = i
	}
	requireYAMLv3(t, m)
}

// monitor has the shapes of the scrape types: omitempty pointers and
// structs, a nil pointer yaml.v3 writes as null, an untagged field.
type monitor struct {
	Name     string            `yaml:"name"`
	Port     int               `yaml:"port,omitempty"`
	Auth     *secret           `yaml:"auth,omitempty"`
	TLS      *secret           `yaml:"tls"`
	Selector selector          `yaml:"selector"`
	Omitted  selector          `yaml:"omitted,omitempty"`
	Labels   map[string]string `yaml:"labels,omitempty"`
	Sources  []string          `yaml:"sources,omitempty,flow"`
	Targets  []string          `yaml:"targets,flow"`
	Nested   [][]string        `yaml:"nested"`
	Enabled  bool
	internal string
}

type secret struct {
	Name string `yaml:"name,omitempty"`
	Key  string `yaml:"key"`
}

type selector struct {
	MatchLabels map[string]string `yaml:"matchLabels,omitempty"`
	Names       []string          `yaml:"names,omitempty"`
}

func TestScrapeShapesMatchYAMLv3(t *testing.T) {
	for _, m := range []monitor{
		{},
		{Name: "x", Port: 9400, Auth: &secret{Key: "token"}, Selector: selector{MatchLabels: map[string]string{"app.kubernetes.io/name": "dcgm"}},
			Omitted: selector{Names: []string{}}, Labels: map[string]string{"release": "on"}, Sources: []string{"__meta_a", "b"},
			Nested: [][]string{{"a", "b"}, {}, {"c"}}, Enabled: true, internal: "hidden"},
	} {
		requireYAMLv3(t, m)
		requireYAMLv3(t, []monitor{m, m})
	}
}

func TestMarshalRefuses(t *testing.T) {
	type inline struct {
		Rule rule `yaml:",inline"`
	}
	type flow struct {
		Items []string `yaml:"items,flow"`
	}
	v3 := func(v any) ([]byte, error) { return AppendYAMLv3(nil, v) }
	for name, c := range map[string]struct {
		v   any
		enc func(any) ([]byte, error)
	}{
		"an option it does not know":             {inline{}, v3},
		"flow style in the rule files":           {flow{}, Marshal},
		"a string that is not UTF-8":             {map[string]string{"k": "\xff"}, v3},
		"a key that is not UTF-8":                {map[string]string{"\xff": "v"}, v3},
		"a flow sequence item that is not UTF-8": {flow{[]string{"\xff"}}, v3},
	} {
		if _, err := c.enc(c.v); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func FuzzMatchesYAMLv3(f *testing.F) {
	for _, s := range append(awkward, awkwardForYAMLv3...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // yaml.v3 writes those as !!binary, which yamlenc refuses
		}
		for _, v := range scalarPlaces(s) {
			requireYAMLv3(t, v)
		}
		requireYAMLv3(t, map[string]int{s: 1, s + "1": 2, "x" + s: 3, s + "a": 4, "0" + s: 5})
	})
}

// BenchmarkAppendYAMLv3 encodes a scrape job's shape 100 times.
func BenchmarkAppendYAMLv3(b *testing.B) {
	m := monitor{Name: "vllm-chat", Port: 8000, Auth: &secret{Name: "vllm", Key: "token"},
		Selector: selector{MatchLabels: map[string]string{"app.kubernetes.io/name": "vllm", "team": "ml"}},
		Labels:   map[string]string{"release": "kube-prometheus-stack"}, Sources: []string{"__meta_kubernetes_pod_name"}}
	ms := make([]monitor, 100)
	for i := range ms {
		ms[i] = m
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AppendYAMLv3(nil, ms); err != nil {
			b.Fatal(err)
		}
	}
}
