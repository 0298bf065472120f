package dashboard

import (
	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"

	"github.com/slogen-dev/slogen/internal/grafana"
)

// Grafana's grid is 24 columns wide. The first screen is the verdict strip
// and the four quadrants, 28 grid rows: one 1080p screen in kiosk mode.
const (
	gridWidth      = 24
	stripHeight    = 4  // Diagnosis now and the firing alerts
	quadrantHeight = 12 // each quadrant; its panels share it
	panelHeight    = 8  // the panels of the rows below the first screen
)

// builders are some of the dashboard's panels, in the order they read.
type builders = []cog.Builder[dashboard.Panel]

// quadrants are the four vital signs as the seed articles read them
// together: latency and throughput on top, errors and VRAM below.
type quadrants struct {
	latency, throughput, errors, memory builders
}

// layout places the dashboard: the verdict strip, then the four
// quadrants, 2×2 on one screen, then the SLO and GPU rows. No row heads
// the first screen: it is always open, and the 20-panel limit counts rows.
type layout struct {
	strip     builders
	quadrants quadrants
	rows      []row
}

// row is a titled row and the line of panels under it.
type row struct {
	title  string
	panels builders
}

func layOut(s scope) layout {
	return layout{
		strip: compact(diagnosisNow(s), firingAlerts(s)),
		quadrants: quadrants{
			latency:    latencyPanels(s),
			throughput: throughputPanels(s),
			errors:     errorPanels(s),
			memory:     memoryPanels(s),
		},
		rows: []row{
			{"Service level objectives", sloPanels(s)},
			{"GPUs", gpuPanels(s)},
		},
	}
}

// addTo adds the panels and rows, each at its place: the SDK's own
// placement only fills lines left to right.
func (l layout) addTo(b *dashboard.DashboardBuilder) {
	var y uint32
	addLine(b, l.strip, 0, gridWidth, y, stripHeight)
	y += stripHeight
	half := uint32(gridWidth / 2)
	q := l.quadrants
	addBlock(b, q.latency, 0, half, y)
	addBlock(b, q.throughput, half, half, y)
	addBlock(b, q.errors, 0, half, y+quadrantHeight)
	addBlock(b, q.memory, half, half, y+quadrantHeight)
	y += 2 * quadrantHeight
	for _, r := range l.rows {
		b.WithRow(dashboard.NewRowBuilder(r.title).GridPos(dashboard.GridPos{X: 0, Y: y, W: gridWidth, H: 1}))
		y++
		addLine(b, r.panels, 0, gridWidth, y, panelHeight)
		y += panelHeight
	}
}

// addBlock shares a quadrant among its panels: one fills it; more split
// into two lines, the first panels (the broad timeseries) above, the
// rest (stats among them) below.
func addBlock(b *dashboard.DashboardBuilder, ps builders, x, w, y uint32) {
	if len(ps) <= 1 {
		addLine(b, ps, x, w, y, quadrantHeight)
		return
	}
	top := len(ps) / 2
	addLine(b, ps[:top], x, w, y, quadrantHeight/2)
	addLine(b, ps[top:], x, w, y+quadrantHeight/2, quadrantHeight/2)
}

// addLine shares w columns from x among the panels, side by side.
func addLine(b *dashboard.DashboardBuilder, ps builders, x, w, y, h uint32) {
	for i, pw := range widths(len(ps), w) {
		b.WithPanel(grafana.Placed{Panel: ps[i], Pos: dashboard.GridPos{X: x, Y: y, W: pw, H: h}})
		x += pw
	}
}

// widths share w columns among n panels, the first ones taking the
// remainder.
func widths(n int, w uint32) []uint32 {
	ws := make([]uint32, n)
	for i := range ws {
		ws[i] = w / uint32(n)
		if uint32(i) < w%uint32(n) {
			ws[i]++
		}
	}
	return ws
}
