package overview

import (
	"fmt"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"

	"github.com/slogen-dev/slogen/internal/grafana"
)

// Grafana's grid is 24 columns wide. The summary and the table take the
// first screen; the diagnosis row, lines of panels, the second.
const (
	gridWidth   = 24
	stripHeight = 4
	tableHeight = 16
	panelHeight = 8
)

// layout is the summary strip and the table, then the diagnosis row's
// lines.
type layout struct {
	strip     []cog.Builder[dashboard.Panel]
	table     cog.Builder[dashboard.Panel]
	diagnosis [][]cog.Builder[dashboard.Panel]
}

func layOut(f fleet) layout {
	top, middle, signals := f.diagnosisPanels()
	return layout{strip: f.summary(), table: f.sloTable(), diagnosis: [][]cog.Builder[dashboard.Panel]{top, middle, signals}}
}

func (l layout) addTo(b *dashboard.DashboardBuilder) {
	addLine(b, l.strip, 0, stripHeight)
	b.WithPanel(grafana.Placed{Panel: l.table, Pos: dashboard.GridPos{X: 0, Y: stripHeight, W: gridWidth, H: tableHeight}})
	y := uint32(stripHeight + tableHeight)
	title := fmt.Sprintf("GPU diagnosis of the %d services with the least error budget left", worstCount)
	b.WithRow(dashboard.NewRowBuilder(title).GridPos(dashboard.GridPos{X: 0, Y: y, W: gridWidth, H: 1}))
	y++
	for _, line := range l.diagnosis {
		if len(line) > 0 {
			addLine(b, line, y, panelHeight)
			y += panelHeight
		}
	}
}

// addLine shares the grid's width equally among the panels, side by side.
func addLine(b *dashboard.DashboardBuilder, line []cog.Builder[dashboard.Panel], y, h uint32) {
	x, w := uint32(0), uint32(gridWidth/len(line))
	for _, p := range line {
		b.WithPanel(grafana.Placed{Panel: p, Pos: dashboard.GridPos{X: x, Y: y, W: w, H: h}})
		x += w
	}
}
