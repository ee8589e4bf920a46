package pages

import (
	"math"
	"unicode/utf8"

	"github.com/kbserver/kbserver/internal/kb"
)

// A small horizontal bar chart, drawn on the server as SVG for what a
// person would rather look at than read (a comparison's unique, shared
// and partial titles per package; clicks per month). The geometry is
// computed here; the template "barchart" (templates/chart.html) draws
// its rects and text, html/template escaping every name, with a legend
// and the stylesheet's classes for colours: no script, no style
// attribute. The pages show the numbers beside it in a table.

// chartSeries is one kind of value the bars stack: its legend's label
// and the stylesheet's class that colours it.
type chartSeries struct {
	Label, Class string
}

// barChart is a chart ready to draw.
type barChart struct {
	Label         string // what it shows: the figure's caption and the svg's accessible name
	Width, Height int
	LabelX        int // the right edge of the bars' names
	BarHeight     int
	Legend        []chartSeries
	Bars          []chartBar
}

// chartBar is one row: its name (whole, and as much as fits), its
// stacked segments and its total.
type chartBar struct {
	Name, Short string
	Y, TextY    int
	Segments    []chartSegment
	TotalX      int
	Total       string
}

// chartSegment is one value of a bar.
type chartSegment struct {
	X, Width     int
	Class, Title string
}

// The chart's geometry, in pixels of its viewBox.
const (
	chartWidth      = 600
	chartNames      = 180 // the column of the bars' names
	chartBarsWidth  = 340 // the longest bar, leaving room for its total
	chartRow        = 30
	chartBarHeight  = 20
	chartNameRunes  = 28 // a longer name is cut, whole in its tooltip
	chartFontOffset = 15 // a text's baseline below its row's top
)

// newBarChart lays out one bar a name, each stacking values[i] (one per
// series, none negative) from left to right, scaled so that the largest
// total is the longest bar. A value that is not zero is at least a pixel
// wide; zeros draw nothing.
func newBarChart(label string, series []chartSeries, names []string, values [][]int) barChart {
	c := barChart{Label: label, Width: chartWidth, Height: len(names)*chartRow + 4, LabelX: chartNames - 8, BarHeight: chartBarHeight,
		Legend: series}
	most := 0
	for _, vs := range values {
		sum := 0
		for _, v := range vs {
			sum += max(v, 0)
		}
		most = max(most, sum)
	}
	scale := 0.0
	if most > 0 {
		scale = float64(chartBarsWidth) / float64(most)
	}
	for i, name := range names {
		y := i*chartRow + 4
		b := chartBar{Name: name, Short: cut(name, chartNameRunes), Y: y, TextY: y + chartFontOffset}
		sum, x := 0, chartNames
		for j, v := range values[i] {
			if v <= 0 || j >= len(series) {
				continue
			}
			sum += v
			end := max(chartNames+int(math.Round(float64(sum)*scale)), x+1)
			b.Segments = append(b.Segments, chartSegment{X: x, Width: end - x, Class: series[j].Class,
				Title: series[j].Label + ": " + kb.Thousands(v)})
			x = end
		}
		b.TotalX, b.Total = x+6, kb.Thousands(sum)
		c.Bars = append(c.Bars, b)
	}
	return c
}

// cut returns s, or its first n-1 characters and an ellipsis when it is
// longer than n.
func cut(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}
