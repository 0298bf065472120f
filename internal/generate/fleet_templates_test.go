package generate

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/slogen-dev/slogen/internal/model"
	"github.com/slogen-dev/slogen/internal/ruletemplate"
	"github.com/slogen-dev/slogen/internal/spec"
)

// tieredFleet is four vLLM services as a team writes them: their names,
// teams, models and selectors differ, two are on the gold tier, and
// "code-qwen" and "search" on the tiers given.
func tieredFleet(codeTier, searchTier string) string {
	return fmt.Sprintf(`package slo

_tiers: {
	gold: {availability: 99.9, ttft: 99}
	silver: {availability: 99.5, ttft: 95}
}
_fleet: {
	"chat-llama": {team: "chat", model: "meta-llama/Llama-3.1-70B-Instruct", tier: "gold"}
	"chat-qwen": {team: "chat", model: "Qwen/Qwen2.5-7B-Instruct", tier: "gold"}
	"code-qwen": {team: "code", model: "Qwen/Qwen2.5-Coder-32B-Instruct", tier: %q}
	"search": {team: "search", model: "Qwen/Qwen2.5-7B-Instruct", tier: %q}
}
services: {
	for name, s in _fleet {
		(name): {
			runtime: "vllm"
			team:    s.team
			model:   s.model
			selector: {namespace: s.team, job: "vllm-\(name)"}
			slos: {
				availability: objective: _tiers[s.tier].availability
				ttft: {objective: _tiers[s.tier].ttft, threshold: "1s"}
			}
		}
	}
}
`, codeTier, searchTier)
}

// buildFleet writes the fleet's output to a new directory.
func buildFleet(t *testing.T, src string) string {
	t.Helper()
	res, err := spec.LoadSources(spec.Source{Name: "fleet.cue", Data: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	err = Options{}.Stream(res.Spec, func(p string, data []byte) error {
		p = filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		return os.WriteFile(p, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestFleetTestsOncePerTemplate: the two gold services share one SLO
// rule template, whose first service alone holds its tests; silver
// code-qwen is a template of its own, with its own tests. Their GPU rules
// read the objective from a recording, so the three share one GPU rule
// template, whose tests only the first holds. search, whose name, team and
// namespace are one value, is alone in both kinds.
func TestFleetTestsOncePerTemplate(t *testing.T) {
	dir := buildFleet(t, tieredFleet("silver", "silver"))
	data, err := os.ReadFile(filepath.Join(dir, ruletemplate.File))
	if err != nil {
		t.Fatal(err)
	}
	rec, err := ruletemplate.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	type summary struct {
		tested string
		files  string
		n      int
	}
	var got []summary
	for _, tm := range rec.Templates {
		got = append(got, summary{tm.Tested, strings.Join(tm.RuleFiles, ","), len(tm.Services)})
	}
	want := []summary{{"chat-llama", RulesFile, 2}, {"code-qwen", RulesFile, 1}, {"search", RulesFile, 1},
		{"chat-llama", GPURulesFile, 3}, {"search", GPURulesFile, 1}}
	if !slices.Equal(got, want) {
		t.Fatalf("templates %v, want %v:\n%s", got, want, data)
	}
	for svc, tested := range map[string][2]bool{"chat-llama": {true, true}, "chat-qwen": {}, "code-qwen": {true, false}, "search": {true, true}} {
		for i, f := range []string{RuleTestsFile, GPURuleTestsFile} {
			if _, err := os.Stat(filepath.Join(dir, svc, f)); tested[i] != (err == nil) {
				t.Errorf("%s: has %s: %v, want %v", svc, f, err == nil, tested[i])
			}
		}
	}
	if err := ruletemplate.Verify(dir); err != nil {
		t.Errorf("Verify of the output as built: %v", err)
	}
}

// TestFleetProofFailsNamingTheService: a rule file edited by hand, one of
// a service moved to another tier without a build, a deleted test file
// and a service no template lists each fail, naming the service.
func TestFleetProofFailsNamingTheService(t *testing.T) {
	moved := buildFleet(t, tieredFleet("silver", "silver"))
	for name, c := range map[string]struct {
		break_ func(dir string) error
		want   []string
	}{
		"edited": {
			func(dir string) error {
				return replaceIn(filepath.Join(dir, "code-qwen", RulesFile), "for: 2m", "for: 3m")
			},
			[]string{"service code-qwen:", "code-qwen/rules.yaml is not an instance of the template tested at chat-llama", "(SLOMetricsAbsent) differs"},
		},
		"moved to another tier": {
			func(dir string) error {
				return copyFile(filepath.Join(moved, "code-qwen", RulesFile), filepath.Join(dir, "code-qwen", RulesFile))
			},
			[]string{"service code-qwen:", "code-qwen/rules.yaml is not an instance of the template tested at chat-llama"},
		},
		"test deleted": {
			func(dir string) error { return os.Remove(filepath.Join(dir, "chat-llama", RuleTestsFile)) },
			[]string{"service chat-llama: its test file rules_test.yaml is missing", "the 3 services of its template"},
		},
		"in no template": {
			func(dir string) error {
				if err := os.Mkdir(filepath.Join(dir, "stray"), 0o755); err != nil {
					return err
				}
				return copyFile(filepath.Join(dir, "search", RulesFile), filepath.Join(dir, "stray", RulesFile))
			},
			[]string{"service stray: its rules.yaml matches no template"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			dir := buildFleet(t, tieredFleet("gold", "silver"))
			if err := c.break_(dir); err != nil {
				t.Fatal(err)
			}
			err := ruletemplate.Verify(dir)
			if err == nil {
				t.Fatal("Verify passed")
			}
			for _, w := range c.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error lacks %q:\n%v", w, err)
				}
			}
		})
	}
}

func replaceIn(p, old, repl string) error {
	data, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	if !strings.Contains(string(data), old) {
		return fmt.Errorf("%s has no %q", p, old)
	}
	return os.WriteFile(p, []byte(strings.Replace(string(data), old, repl, 1)), 0o644)
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, data, 0o644)
}

// buildSource loads one spec file's text and builds it as o says: the
// spec, and the files a build would write.
func buildSource(t *testing.T, src string, o Options) (model.Spec, Files) {
	t.Helper()
	res, err := spec.LoadSources(spec.Source{Name: "spec.cue", Data: []byte(src)})
	if err != nil {
		t.Fatal(err)
	}
	files, err := build(o, res.Spec)
	if err != nil {
		t.Fatal(err)
	}
	return res.Spec, files
}
