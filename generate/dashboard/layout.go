package dashboard

import (
	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
)

// Grafana's grid is 24 columns wide; every panel is panelHeight rows high.
const (
	gridWidth   = 24
	panelHeight = 8
)

// section is a row and its lines of panels; the panels of a line share
// the grid's width.
type section struct {
	title string
	lines [][]cog.Builder[dashboard.Panel]
}

// sections lay the dashboard out in three rows: the SLOs with the guide
// to reading the rest, the four vital signs one quadrant a line (latency;
// throughput and errors; VRAM), and the GPUs. Three rows, not one per
// quadrant, keep a service with three SLOs at 20 panels, rows included.
func sections(s scope) []section {
	return []section{
		{"Service level objectives", [][]cog.Builder[dashboard.Panel]{
			append(sloPanels(s.svc), guide()),
		}},
		{"Four vital signs: latency, throughput, errors, VRAM", [][]cog.Builder[dashboard.Panel]{
			latencyPanels(s),
			append(throughputPanels(s), errorPanels(s)...),
			memoryPanels(s),
		}},
		{"GPUs", [][]cog.Builder[dashboard.Panel]{
			gpuPanels(s),
		}},
	}
}

// addTo appends the row and its panels; the SDK's auto-layout places them
// left to right, wrapping at the grid's width.
func (sec section) addTo(b *dashboard.DashboardBuilder) {
	b.WithRow(dashboard.NewRowBuilder(sec.title))
	for _, line := range sec.lines {
		for i, w := range widths(len(line)) {
			b.WithPanel(sized{line[i], w})
		}
	}
}

// widths share the grid among n panels, the first ones taking the
// remainder.
func widths(n int) []uint32 {
	ws := make([]uint32, n)
	for i := range ws {
		ws[i] = uint32(gridWidth / n)
		if i < gridWidth%n {
			ws[i]++
		}
	}
	return ws
}

// sized sets a panel's size as it is built: the SDK's builders take their
// size up front, but the line decides it.
type sized struct {
	panel cog.Builder[dashboard.Panel]
	width uint32
}

func (s sized) Build() (dashboard.Panel, error) {
	p, err := s.panel.Build()
	if err != nil {
		return p, err
	}
	p.GridPos = &dashboard.GridPos{W: s.width, H: panelHeight}
	return p, nil
}
