package yamlenc

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

type rule struct {
	Record string            `yaml:"record,omitempty"`
	Expr   string            `yaml:"expr"`
	For    string            `yaml:"for,omitempty"`
	Labels map[string]string `yaml:"labels,omitempty"`
}

type doc struct {
	Name   string   `yaml:"name"`
	Rules  []rule   `yaml:"rules"`
	Files  []string `yaml:"files"`
	Empty  []rule   `yaml:"empty"`
	Count  int      `yaml:"count"`
	Strict bool     `yaml:"strict"`
}

// Strings that tempt a YAML writer into ambiguity.
var awkward = []string{
	"", " ", "plain", "a: b", "a #b", "#c", "-x", "- x", "? q", "true", "No", "off", "null", "~", "1", "1.5", "1e3", "0x1f",
	"1_000", "1e+3", "-1.5e-3", "+12", "0x1P-2", "1 2", "0+999.5x190", ".inf", "2026-11-30", "12:30", "5m", "1h30m", `say "hi"`, `back\slash`, "tab\there", "new\nline", "two\n\nblanks",
	"trail \nspace", " lead", "ünïcödé", "emoji 🚀", "ctrl\x01char", "{{ $labels.x }}", "[5m]", "x{a=\"b\"}",
	`sum(rate(x{le=~"1(\\.0)?"}[5m]))`, "(\n  a > 1\nand\n  b\n)", "ends:", "%percent", "@at", "`tick", "|pipe", ">gt", "'q'",
	"a\u00a0b", "line\r\nbreak",
}

func TestRoundTrip(t *testing.T) {
	labels := map[string]string{}
	var rules []rule
	for i, s := range awkward {
		labels[s] = s
		rules = append(rules, rule{Record: s, Expr: s, For: awkward[len(awkward)-1-i], Labels: map[string]string{"k": s}})
	}
	in := doc{Name: "n", Rules: append(rules, rule{Expr: "x", Labels: labels}), Files: awkward, Count: 3, Strict: true}
	out, err := Append(nil, in)
	if err != nil {
		t.Fatal(err)
	}
	var got doc
	if err := yaml.Unmarshal(out, &got); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	in.Empty = []rule{} // "[]" reads back as an empty slice
	for i := range in.Rules {
		if !reflect.DeepEqual(in.Rules[i], got.Rules[i]) {
			t.Errorf("rule %d: %#v came back as %#v", i, in.Rules[i], got.Rules[i])
		}
	}
	in.Rules, got.Rules = nil, nil
	if !reflect.DeepEqual(in, got) {
		t.Errorf("round trip changed the document: %#v\n%s", got, out)
	}
}

func TestLayoutMatchesYAMLv3(t *testing.T) {
	in := doc{Name: "g", Rules: []rule{{Record: "a:b:c", Expr: "sum(rate(x[5m]))", Labels: map[string]string{"slo": "s", "service": "x"}}, {Expr: "(\n  a\nand\n  b\n)", For: "2m"}}, Files: []string{"rules.yaml"}}
	got, _ := Append(nil, in)
	var want strings.Builder
	enc := yaml.NewEncoder(&want)
	enc.SetIndent(2)
	if err := enc.Encode(in); err != nil {
		t.Fatal(err)
	}
	if string(got) != want.String() {
		t.Errorf("layout differs from yaml.v3:\n--- got\n%s--- yaml.v3\n%s", got, want.String())
	}
}

func FuzzRoundTrip(f *testing.F) {
	for _, s := range awkward {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // specs are CUE, YAML or JSON text: always UTF-8
		}
		in := rule{Record: s, Expr: s, Labels: map[string]string{s: s}}
		out, err := Append(nil, in)
		if err != nil {
			if len(key(s)) > 1024 {
				return // keys that long are refused, as YAML cannot read them
			}
			t.Fatal(err)
		}
		var got rule
		if err := yaml.Unmarshal(out, &got); err != nil {
			t.Fatalf("%q: %v\n%s", s, err, out)
		}
		if !reflect.DeepEqual(in, got) && s != "" {
			t.Fatalf("%q came back as %q\n%s", s, got.Expr, out)
		}
	})
}

// BenchmarkAppend encodes a rule-file-sized document: 100 rules with
// multi-line expressions and labels.
func BenchmarkAppend(b *testing.B) {
	d := doc{Name: "slogen-chat-slo"}
	for i := range 100 {
		d.Rules = append(d.Rules, rule{
			Record: "slogen:slo_errors:rate5m",
			Expr:   "sum(rate(http_requests_total{job=\"vllm\", status=~\"5..\"}[5m]))\n/\nsum(rate(http_requests_total{job=\"vllm\"}[5m])) > " + strings.Repeat("1", i%7+1),
			Labels: map[string]string{"service": "chat", "slo": "availability", "severity": "critical"},
		})
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Append(nil, d); err != nil {
			b.Fatal(err)
		}
	}
}

func TestAppendWritesAfterItsPrefix(t *testing.T) {
	d := doc{Name: "g", Rules: []rule{{Record: "a:b", Expr: "x\n/\ny"}}}
	body, err := Append(nil, d)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Append([]byte("# header\n"), d)
	if err != nil {
		t.Fatal(err)
	}
	if want := "# header\n" + string(body); string(got) != want {
		t.Errorf("Append wrote\n%s\nwant\n%s", got, want)
	}
}

// query stands for a PromQL tree: a struct that prints itself.
type query struct{ lines []string }

func (q query) String() string { return strings.Join(q.lines, "\n") }

// A field declared as an interface with a String method is written as
// its text, one line plain and several as a block, exactly as the same
// text in a string field; a struct field with a String method is not.
func TestAStringerFieldIsWrittenAsItsText(t *testing.T) {
	type printed struct {
		Expr  fmt.Stringer   `yaml:"expr"`
		Terms []fmt.Stringer `yaml:"terms"`
		Inner query          `yaml:"inner"`
	}
	type text struct {
		Expr  string            `yaml:"expr"`
		Terms []string          `yaml:"terms"`
		Inner map[string]string `yaml:"inner"`
	}
	multi := query{[]string{"(", "  a > 1", "and", "  b", ")"}}
	got, err := Append(nil, printed{Expr: multi, Terms: []fmt.Stringer{query{[]string{"x{a=\"b\"}"}}, multi}})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Append(nil, text{Expr: multi.String(), Terms: []string{`x{a="b"}`, multi.String()}, Inner: map[string]string{}})
	if string(got) != string(want) {
		t.Errorf("wrote\n%s\nwant\n%s", got, want)
	}
}
