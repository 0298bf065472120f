package overview

import (
	"fmt"

	"github.com/grafana/grafana-foundation-sdk/go/cog"
	"github.com/grafana/grafana-foundation-sdk/go/dashboard"
)

// Grafana's grid is 24 columns wide. The table takes the first screen;
// the diagnosis row, two lines of panels, the second.
const (
	gridWidth   = 24
	tableHeight = 16
	panelHeight = 8
)

// layout is the table, then the diagnosis row's two lines.
type layout struct {
	table       cog.Builder[dashboard.Panel]
	top, bottom []cog.Builder[dashboard.Panel]
}

func layOut(f fleet) layout {
	top, signals := diagnosisPanels()
	return layout{table: f.sloTable(), top: top, bottom: signals}
}

func (l layout) addTo(b *dashboard.DashboardBuilder) {
	b.WithPanel(placed{l.table, dashboard.GridPos{X: 0, Y: 0, W: gridWidth, H: tableHeight}})
	y := uint32(tableHeight)
	title := fmt.Sprintf("GPU diagnosis of the %d services with the least error budget left", worstCount)
	b.WithRow(dashboard.NewRowBuilder(title).GridPos(dashboard.GridPos{X: 0, Y: y, W: gridWidth, H: 1}))
	y++
	for _, line := range [][]cog.Builder[dashboard.Panel]{l.top, l.bottom} {
		x, w := uint32(0), uint32(gridWidth/len(line))
		for _, p := range line {
			b.WithPanel(placed{p, dashboard.GridPos{X: x, Y: y, W: w, H: panelHeight}})
			x += w
		}
		y += panelHeight
	}
}
