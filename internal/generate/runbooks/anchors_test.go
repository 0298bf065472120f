package runbooks_test

import (
	"maps"
	"slices"
	"testing"

	"github.com/slogen-dev/slogen/internal/generate/runbooks"
)

func TestAnchors(t *testing.T) {
	for name, c := range map[string]struct {
		page string
		want []string
	}{
		"An alert's heading is its name in lower case.": {
			page: "## KVCacheHigh\ntext\n", want: []string{"kvcachehigh"},
		},
		"Spaces become hyphens, and punctuation goes, but hyphens and underscores stay.": {
			page: "# Runbook: chat-llama\n### `slo=\"a_b\"` (ratio)\n", want: []string{"runbook-chat-llama", "sloa_b-ratio"},
		},
		"A repeated heading gets a number.": {
			page: "## Steps\n## Steps\n## Steps\n", want: []string{"steps", "steps-1", "steps-2"},
		},
		"Lines in fenced code are not headings, whatever the fence.": {
			page: "```promql\n# not a heading\n```\n~~~~\n# nor this\n```\n# nor this\n~~~~\n## Real\n", want: []string{"real"},
		},
		"A hash without a space, and closing hashes, are read as GitHub reads them.": {
			page: "#hashtag\n## Closed ##\n", want: []string{"closed"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			got := slices.Sorted(maps.Keys(runbooks.Anchors([]byte(c.page))))
			if want := slices.Sorted(slices.Values(c.want)); !slices.Equal(got, want) {
				t.Errorf("got %v, want %v", got, want)
			}
		})
	}
}
