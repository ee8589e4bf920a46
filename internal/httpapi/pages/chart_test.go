package pages

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"
)

// TestBarChart lays out a comparison's chart: the largest total is the
// longest bar, the segments stack in the series' order, scaled, a zero
// draws nothing and a small value is still a pixel; a long name is cut.
func TestBarChart(t *testing.T) {
	series := []chartSeries{{"Unique", classUnique}, {"Same", classSame}, {"Partial", classPartial}}
	c := newBarChart("Titles", series, []string{"Alpha Journals", "A package whose name is much too long to show whole"},
		[][]int{{2, 0, 1}, {1000, 0, 1}})
	if len(c.Bars) != 2 || c.Height != 2*chartRow+4 || c.Width != chartWidth {
		t.Fatalf("chart %+v", c)
	}
	a, b := c.Bars[0], c.Bars[1]
	if len(a.Segments) != 2 || a.Segments[0].Class != classUnique || a.Segments[1].Class != classPartial || a.Total != "3" {
		t.Errorf("the first bar: %+v", a)
	}
	if a.Segments[0].X != chartNames || a.Segments[0].Width != 1 || a.Segments[1].X != chartNames+1 || a.Segments[1].Width != 1 {
		t.Errorf("the small values are not a pixel each, side by side: %+v", a.Segments)
	}
	end := b.Segments[len(b.Segments)-1]
	if b.Segments[0].Width != 340 || end.X+end.Width != chartNames+chartBarsWidth+1 || b.Total != "1,001" || b.TotalX != end.X+end.Width+6 {
		t.Errorf("the longest bar: %+v", b)
	}
	if b.Segments[0].Title != "Unique: 1,000" || b.Short != "A package whose name is muc…" || b.Name != "A package whose name is much too long to show whole" {
		t.Errorf("the longest bar's words: %q %q %q", b.Segments[0].Title, b.Short, b.Name)
	}
	if b.Y != chartRow+4 || b.TextY != b.Y+chartFontOffset {
		t.Errorf("the second bar's row: y %d, text %d", b.Y, b.TextY)
	}

	zero := newBarChart("Clicks", series[:2], []string{"Jan 2025"}, [][]int{{0, 0}})
	if len(zero.Bars[0].Segments) != 0 || zero.Bars[0].Total != "0" {
		t.Errorf("nothing counted draws no segment: %+v", zero.Bars[0])
	}
}

// TestBarChartDrawn draws a chart whose names look like markup: the SVG
// is well-formed, has a rect a segment with its class, and escapes the
// names; no style attribute.
func TestBarChartDrawn(t *testing.T) {
	c := newBarChart(`Titles <b>"x"</b>`, []chartSeries{{"Unique", classUnique}, {"Same", classSame}},
		[]string{`<script>alert(1)</script>`, "Beta & Co"}, [][]int{{3, 1}, {2, 0}})
	var buf bytes.Buffer
	if err := templates["console_analysis"].ExecuteTemplate(&buf, "barchart", c); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.Contains(out, "<script>") || strings.Contains(out, "<b>") || !strings.Contains(out, "&lt;script&gt;alert(1)&lt;/script&gt;") ||
		!strings.Contains(out, "Beta &amp; Co") || strings.Contains(out, "style=") {
		t.Errorf("the names are not escaped, or a style attribute is drawn:\n%s", out)
	}
	start, stop := strings.Index(out, "<svg"), strings.Index(out, "</svg>")
	if start < 0 || stop < 0 {
		t.Fatalf("no svg:\n%s", out)
	}
	d := xml.NewDecoder(strings.NewReader(out[start : stop+len("</svg>")]))
	rects := map[string]int{}
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("the svg is not well-formed: %v\n%s", err, out)
		}
		if el, ok := tok.(xml.StartElement); ok && el.Name.Local == "rect" {
			for _, a := range el.Attr {
				if a.Name.Local == "class" {
					rects[a.Value]++
				}
			}
		}
	}
	if rects[classUnique] != 2 || rects[classSame] != 1 || len(rects) != 2 {
		t.Errorf("rects by class %v, want 2 unique and 1 same", rects)
	}
}
