package ruletemplate

import "testing"

// TestSetAside: the name is set aside wherever it is a whole word; the
// other values only where they are a whole value, so the same words in a
// description stay, as in every other service's rules.
func TestSetAside(t *testing.T) {
	values := []string{"code-qwen", "code", "Qwen/Qwen2.5-Coder-32B-Instruct", "vllm-code-qwen", "code"}
	for _, c := range []struct{ in, want string }{
		{`group: slogen-code-qwen-slo`, `group: slogen-⟨0⟩-slo`},
		{`expr: x{job="vllm-code-qwen",model_name="Qwen/Qwen2.5-Coder-32B-Instruct",namespace="code"}`,
			`expr: x{job="⟨3⟩",model_name="⟨2⟩",namespace="⟨1⟩"}`},
		{`exported_pod=~"code-qwen-.*"`, `exported_pod=~"⟨0⟩-.*"`},
		{"team: code\n", "team: ⟨1⟩\n"},
		{`description: reports the code until code-qwen restarts`, `description: reports the code until ⟨0⟩ restarts`},
		{`summary: code-qwenish and barcode`, `summary: code-qwenish and barcode`},
	} {
		if got := setAside(c.in, values); got != c.want {
			t.Errorf("setAside(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// TestAsideValue: a parsed value that is an identity value is its mark; a
// pattern may hold one quoted.
func TestAsideValue(t *testing.T) {
	values := []string{"chat", "team-a", "Qwen/Qwen2.5-7B-Instruct", "ns"}
	if got := asideValue("team-a", values); got != "⟨1⟩" {
		t.Errorf("team: %q", got)
	}
	if got := asidePattern(`Qwen/Qwen2\.5-7B-Instruct`, values); got != "⟨2⟩" {
		t.Errorf("quoted model: %q", got)
	}
	if got := asideValue("The chat SLO of chatter", values); got != "The ⟨0⟩ SLO of chatter" {
		t.Errorf("prose: %q", got)
	}
}
