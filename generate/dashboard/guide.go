package dashboard

import (
	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
	"github.com/grafana/grafana-foundation-sdk/go/text"
)

// guideText is the four-quadrant diagnosis of the seed articles: most
// incidents are told apart by how latency, throughput, errors and VRAM
// move together.
const guideText = `**Read the four vital signs together:** latency, throughput, errors, VRAM.

- **Latency up, throughput down:** saturation. Check the queue, KV cache and GPU utilisation; scale out or cap long prompts.
- **Errors up, latency flat:** input validation or a dependency. Read the error classes.
- **VRAM climbing on its own:** a leak. The dashed projection and *Time until VRAM full* say how long is left.
- **Latency and throughput up together:** more load, still served. Watch the queue.

A burn rate above a dashed line means that alert tier is firing or about to.`

// guide is the "how to read this" panel. Text panels query nothing, so it
// has no unit.
func guide() cog.Builder[dashboard.Panel] {
	return text.NewPanelBuilder().
		Title("How to read this").
		Mode(text.TextModeMarkdown).
		Content(guideText)
}
