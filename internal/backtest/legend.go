package backtest

import "unicode/utf8"

// key is what the legend shows of a drawn series: its name beside a
// swatch, a band of fill when set, else a stretch of its stroke.
type key struct {
	name   string
	stroke stroke
	fill   string
}

// The legend's rows start below the time labels; a swatch is this wide,
// and a character of the 12-pixel font at most about this wide.
const (
	legendTop   = plotBottom + 45
	legendRow   = 20.0
	swatchWidth = 24.0
	charWidth   = 7.0
)

// legend lays the keys out in rows of equal columns, each as wide as the
// longest name needs, under the plot area.
func (p *canvas) legend() {
	column := 0.0
	for _, k := range p.keys {
		column = max(column, swatchWidth+8+charWidth*float64(utf8.RuneCountInString(k.name))+24)
	}
	perRow := max(int((plotRight-plotLeft)/column), 1)
	for i, k := range p.keys {
		x := plotLeft + float64(i%perRow)*column
		y := legendTop + float64(i/perRow)*legendRow
		p.swatch(k, x, y)
		p.text("legend", x+swatchWidth+8, y, "start", k.name, attr{"dy", "0.35em"})
	}
}

// swatch draws the key's look at x, centred on y.
func (p *canvas) swatch(k key, x, y float64) {
	if k.fill != "" {
		p.rect("swatch", x, y-6, swatchWidth, 12, k.fill, bandOpacity)
		return
	}
	p.line("swatch", x, y, x+swatchWidth, y, k.stroke)
}
