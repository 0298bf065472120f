package backtest

import (
	"bytes"
	"encoding/xml"
	"io"
	"strconv"
	"strings"
)

// svg builds an SVG document one element at a time. Every attribute
// value and text is escaped, for service and SLO names come from specs.
// The viewer renders the text, so no font is embedded.
type svg struct{ body bytes.Buffer }

type attr struct{ name, value string }

// element writes <name attrs…>text</name>, or <name attrs…/> without text.
func (s *svg) element(name string, attrs []attr, text string) {
	s.body.WriteString("<" + name)
	for _, a := range attrs {
		s.body.WriteString(" " + a.name + `="`)
		escape(&s.body, a.value)
		s.body.WriteString(`"`)
	}
	if text == "" {
		s.body.WriteString("/>\n")
		return
	}
	s.body.WriteString(">")
	escape(&s.body, text)
	s.body.WriteString("</" + name + ">\n")
}

// escape writes text with XML's special characters escaped; writing to a
// bytes.Buffer cannot fail.
func escape(b *bytes.Buffer, text string) {
	_ = xml.EscapeText(b, []byte(text))
}

// writeTo writes the document: the elements on a white canvas of the size
// given, in the viewer's sans-serif font.
func (s *svg) writeTo(w io.Writer, width, height float64) error {
	var doc bytes.Buffer
	doc.WriteString(`<svg xmlns="http://www.w3.org/2000/svg" width="` + num(width) + `" height="` + num(height) +
		`" viewBox="0 0 ` + num(width) + " " + num(height) + `" font-family="sans-serif" font-size="12">` + "\n")
	doc.WriteString(`<rect width="100%" height="100%" fill="#fff"/>` + "\n")
	doc.Write(s.body.Bytes())
	doc.WriteString("</svg>\n")
	_, err := w.Write(doc.Bytes())
	return err
}

// num formats a coordinate to a tenth of a pixel, finer than a screen
// shows, without a trailing ".0".
func num(v float64) string {
	return strings.TrimSuffix(strconv.FormatFloat(v, 'f', 1, 64), ".0")
}

// stroke is how a line is drawn; dash, when set, is an SVG dash array.
type stroke struct {
	color string
	width float64
	dash  string
}

func (st stroke) attrs() []attr {
	as := []attr{{"fill", "none"}, {"stroke", st.color}, {"stroke-width", num(st.width)}}
	if st.dash != "" {
		as = append(as, attr{"stroke-dasharray", st.dash})
	}
	return as
}

func (s *svg) line(class string, x1, y1, x2, y2 float64, st stroke) {
	s.element("line", append([]attr{{"class", class},
		{"x1", num(x1)}, {"y1", num(y1)}, {"x2", num(x2)}, {"y2", num(y2)}}, st.attrs()...), "")
}

// point is an x, y on the canvas.
type point struct{ x, y float64 }

// polyline joins the points with round joins and caps, so that a single
// point, given twice, still shows as a dot.
func (s *svg) polyline(class string, pts []point, st stroke) {
	var coords []string
	for _, p := range pts {
		coords = append(coords, num(p.x)+","+num(p.y))
	}
	s.element("polyline", append([]attr{{"class", class}, {"points", strings.Join(coords, " ")},
		{"stroke-linejoin", "round"}, {"stroke-linecap", "round"}}, st.attrs()...), "")
}

// rect is a filled rectangle, see-through by opacity.
func (s *svg) rect(class string, x, y, w, h float64, fill string, opacity float64) {
	s.element("rect", []attr{{"class", class}, {"x", num(x)}, {"y", num(y)}, {"width", num(w)}, {"height", num(h)},
		{"fill", fill}, {"fill-opacity", strconv.FormatFloat(opacity, 'f', -1, 64)}}, "")
}

// text is a label anchored at x ("start", "middle" or "end") on the
// baseline y.
func (s *svg) text(class string, x, y float64, anchor, label string, extra ...attr) {
	s.element("text", append([]attr{{"class", class}, {"x", num(x)}, {"y", num(y)}, {"text-anchor", anchor}}, extra...), label)
}
