package gputests

import (
	"testing"

	"github.com/prometheus/prometheus/model/labels"
)

func TestExampleMatchesItsMatcher(t *testing.T) {
	tests := map[string]struct {
		m    *labels.Matcher
		want string
	}{
		"An equality gives its value.":                   {labels.MustNewMatcher(labels.MatchEqual, "job", "dcgm-exporter"), "dcgm-exporter"},
		"The default pod pattern gives a pod name.":      {labels.MustNewMatcher(labels.MatchRegexp, "exported_pod", `chat-llama-.*`), "chat-llama-0"},
		"A host list gives its first host.":              {labels.MustNewMatcher(labels.MatchRegexp, "Hostname", `gpu-node-1|gpu\.node-2`), "gpu-node-1"},
		"Classes, groups and counts are filled in.":      {labels.MustNewMatcher(labels.MatchRegexp, "pod", `(vllm|tgi)-[a-z]{3}\d+`), "vllm-aaa0"},
		"An optional part is left out, a plus kept once": {labels.MustNewMatcher(labels.MatchRegexp, "pod", `x?y+`), "y"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, err := example(tc.m)
			if err != nil || got != tc.want {
				t.Fatalf("example(%s) = %q, %v; want %q", tc.m, got, err, tc.want)
			}
		})
	}
	if _, err := example(labels.MustNewMatcher(labels.MatchRegexp, "pod", `a$b`)); err == nil {
		t.Error("a pattern nothing matches gave an example")
	}
}
