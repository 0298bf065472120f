package backtest

const (
	axisColor = "#333"
	gridColor = "#e0e0e0"
)

// axes draws a grid line and a percent label at each ratio tick, and the
// time axis along the floor with a mark and a label at each time tick.
func (p *canvas) axes() {
	grid := stroke{color: gridColor, width: 1}
	for _, t := range p.y.ticks() {
		p.line("grid", plotLeft, t.pos, plotRight, t.pos, grid)
		// dy centres the label on its grid line.
		p.text("tick", plotLeft-8, t.pos, "end", t.label, attr{"dy", "0.35em"})
	}
	axis := stroke{color: axisColor, width: 1}
	p.line("axis", plotLeft, plotTop, plotLeft, plotBottom, axis)
	p.line("axis", plotLeft, plotBottom, plotRight, plotBottom, axis)
	for _, t := range p.x.ticks() {
		p.line("axis", t.pos, plotBottom, t.pos, plotBottom+5, axis)
		p.text("tick", t.pos, plotBottom+20, "middle", t.label)
	}
}
