package spec

import (
	"errors"
	"slices"
	"testing"
)

// The schema's problems in a service hide none of what resolving finds
// in the rest of it, and resolving says nothing more about the fields
// the schema found wrong.
func TestSchemaProblemsHideNoneOfResolving(t *testing.T) {
	cases := map[string]struct {
		src  string
		want []string // paths of the problems, in order
	}{
		"an unknown field, a bad objective and off-bucket thresholds": {
			src: `services: chat: {
	runtime: "vllm"
	selectors: {job: "chat"}
	slos: availability: {objective: 100}
	slos: latency: {objective: 0, threshold: "3s"}
	slos: ttft: {threshold: "1.5s"}
}`,
			want: []string{
				"services.chat.selectors",
				"services.chat.slos.availability.objective",
				"services.chat.slos.latency.objective",
				"services.chat.slos.latency.threshold",
				"services.chat.slos.ttft.objective", // missing, positioned at its SLO
				"services.chat.slos.ttft.threshold",
			},
		},
		"a threshold of the wrong form is not also missing": {
			src:  `services: chat: {runtime: "vllm", slos: latency: {objective: 99, threshold: "3 s"}}`,
			want: []string{"services.chat.slos.latency.threshold"},
		},
		"no runtime: nothing to resolve against": {
			src:  `services: chat: {runtime: "vlm", slos: latency: {objective: 99, threshold: "3s"}}`,
			want: []string{"services.chat.runtime"},
		},
		"a bad SLO: the others are resolved": {
			src: `services: chat: {runtime: "vllm", slos: {
	latency: "fast"
	ttft: {objective: 99, threshold: "1.5s"}
}}`,
			want: []string{"services.chat.slos.latency", "services.chat.slos.ttft.threshold"},
		},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			_, err := LoadSources(Source{Name: "spec.cue", Data: []byte("package slo\n\n" + c.src + "\n")})
			var ds Diagnostics
			if !errors.As(err, &ds) {
				t.Fatalf("err = %v; want problems", err)
			}
			var got []string
			for _, d := range ds {
				got = append(got, d.Path)
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("problems:\n%s\nwant their paths %q", ds, c.want)
			}
		})
	}
}
