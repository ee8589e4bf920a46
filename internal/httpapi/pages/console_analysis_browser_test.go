package pages_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestAnalysisInBrowser walks the comparison of packages in Chromium as a
// collection librarian does: from the console's menu, tick Alpha Journals
// and Beta Complete, compare, see the counts and the chart (an svg with
// its bars), and follow the list of Beta Complete's unique titles.
func TestAnalysisInBrowser(t *testing.T) {
	f := newAnalysisFixture(t)
	f.selectBoth(t)
	ctx := newBrowser(t)
	aj, bc := f.fx.AlphaJournals, f.fx.BetaFull

	run(t, ctx, "sign in", chromedp.Navigate(f.srv.URL+"/console/"), chromedp.SendKeys(chromedp.ID("apikey"), "key-c1"))
	follow(t, ctx, "send the key", chromedp.Submit(chromedp.ID("apikey")))
	run(t, ctx, "the console", chromedp.WaitVisible(`//h2[starts-with(text(), "Selected packages")]`))
	follow(t, ctx, "the collection analysis", chromedp.Click(`//nav//a[text()="Collection analysis"]`))
	run(t, ctx, "the form", chromedp.WaitVisible(fmt.Sprintf("#pkg-%d", aj)),
		chromedp.Click(fmt.Sprintf("#pkg-%d", aj)), chromedp.Click(fmt.Sprintf("#pkg-%d", bc)))
	follow(t, ctx, "compare", chromedp.Click(`//button[text()="Compare"]`))
	run(t, ctx, "the counts", chromedp.WaitVisible(chromedp.ID("overlap-counts")), chromedp.WaitVisible(chromedp.CSS("svg.chart")))
	screenshot(t, ctx, "console-analysis-compare")

	rows := strings.Fields(text(t, ctx, "#overlap-counts tbody"))
	if got := strings.Join(rows, " "); got != "Alpha Journals 3 2 1 0 1 Beta Complete 3 2 1 0 1" {
		t.Errorf("the counts read %q", got)
	}
	bars, err := chromedp.Run(ctx, chromedp.AttributesAll(chromedp.CSSAll("svg.chart rect")))
	if err != nil {
		t.Fatalf("the chart's bars: %v", err)
	}
	classes := map[string]int{}
	for _, b := range bars {
		classes[b["class"]]++
		if w := b["width"]; w == "" || w == "0" {
			t.Errorf("a bar without width: %v", b)
		}
	}
	if len(bars) != 4 || classes["chart-unique"] != 2 || classes["chart-partial"] != 2 {
		t.Errorf("the chart draws %d bars by class %v, want 2 unique and 2 partial", len(bars), classes)
	}
	checked, err := chromedp.Run(ctx, chromedp.JavascriptAttribute[bool](chromedp.ID(fmt.Sprintf("pkg-%d", bc)), "checked"))
	if err != nil || !checked {
		t.Errorf("Beta Complete is not ticked after the comparison (%v)", err)
	}

	follow(t, ctx, "the unique titles of Beta Complete", chromedp.Click(`//a[text()="Only in Beta Complete"]`))
	run(t, ctx, "the list", chromedp.WaitVisible(chromedp.ID("analysis-titles")))
	if got := text(t, ctx, "h2"); got != "Only in Beta Complete (2)" {
		t.Errorf("the list's heading is %q", got)
	}
	if got := text(t, ctx, "#analysis-titles tbody"); !strings.Contains(got, "The Weekly Newsletter") || !strings.Contains(got, "Learning Go") ||
		strings.Contains(got, "Journal of Testing") {
		t.Errorf("the list shows %q", got)
	}
	screenshot(t, ctx, "console-analysis-list")
}
