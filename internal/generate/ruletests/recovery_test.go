package ruletests_test

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/slogen-dev/slogen/internal/generate/ruletests"
	"github.com/slogen-dev/slogen/internal/genfile"
	"github.com/slogen-dev/slogen/internal/plan/rules"
	"github.com/slogen-dev/slogen/internal/pql"
	"github.com/slogen-dev/slogen/internal/promcompat"
	"github.com/slogen-dev/slogen/internal/promtest"
	"github.com/slogen-dev/slogen/internal/testfile"
)

const chat = `services: chat: {runtime: "vllm", slos: availability: objective: 99.5}`

// A page that is the fast tier alone resolves five minutes after a short
// outage; the generated outage test wants the same page still firing on
// the slow tier then.
func TestOutageTestCatchesAPageThatEndsWithItsFastTier(t *testing.T) {
	svc := load(t, chat)
	groups := mutated(rules.Build(svc), func(r *rules.Rule) {
		if r.Alert == rules.BurnAlert && r.Labels["tier"] == "page" {
			rewrite(t, r, func(expr string) string {
				fast, _, _ := strings.Cut(expr, "\nor\n")
				return fast
			})
		}
	})
	out := mustFailOne(t, groups, ruletests.EvaluationInterval, named(t, ruletests.Build(svc).Tests, "a full outage of 9m"))
	if !strings.Contains(out, "got:[]") {
		t.Errorf("the outage test failed, but not for a missing page:\n%s", out)
	}
}

// Day and three-day windows that average only the samples since the
// rules were deployed ticket a 10-minute outage two hours in.
func TestYoungRulesTestCatchesLongWindowsThatIgnoreCoverage(t *testing.T) {
	svc := load(t, chat)
	covered := regexp.MustCompile(`sum_over_time\((\S+?\[\w+\])\) / clamp_min\(count_over_time\(\S+?\), \d+\)`)
	groups := mutated(rules.Build(svc), func(r *rules.Rule) {
		rewrite(t, r, func(expr string) string { return covered.ReplaceAllString(expr, "avg_over_time($1)") })
	})
	out := mustFailOne(t, groups, ruletests.LongEvaluationInterval, named(t, ruletests.Build(svc).Long, "on rules deployed"))
	if !strings.Contains(out, `tier="ticket_fast"`) {
		t.Errorf("the young-rules test failed, but not for a ticket:\n%s", out)
	}
}

func mutated(groups []rules.Group, f func(*rules.Rule)) []rules.Group {
	for i := range groups {
		for j := range groups[i].Rules {
			f(&groups[i].Rules[j])
		}
	}
	return groups
}

// rewrite edits a rule's query as text, as a person editing its file
// would, and reads the edit back as the rule's tree.
func rewrite(t *testing.T, r *rules.Rule, edit func(string) string) {
	t.Helper()
	e, err := promcompat.Parser().ParseExpr(edit(pql.Print(r.Expr)))
	if err != nil {
		t.Fatal(err)
	}
	r.Expr = e
}

func named(t *testing.T, tests []testfile.Test, prefix string) testfile.Test {
	t.Helper()
	for _, x := range tests {
		if strings.HasPrefix(x.Name, prefix) {
			return x
		}
	}
	t.Fatalf("no generated test starts %q", prefix)
	return testfile.Test{}
}

// mustFailOne runs one test against groups in process, wants it to fail,
// and returns what the runner printed.
func mustFailOne(t *testing.T, groups []rules.Group, interval time.Duration, test testfile.Test) string {
	t.Helper()
	file := writeOne(t, groups, genfile.Duration(interval), test)
	var out bytes.Buffer
	if failed, err := promtest.Run(context.Background(), &out, file); err != nil || failed == 0 {
		t.Fatalf("%q passed against the wrong rules (%v):\n%s", test.Name, err, out.String())
	}
	return out.String()
}
