package pages_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestHoldingsFeedInBrowser walks a library's holdings feed in Chromium:
// add the institution's file through the form, run it now, see it held
// (it would deselect most of the package's titles), open its review, find
// a title it would deselect, approve it and see it applied.
func TestHoldingsFeedInBrowser(t *testing.T) {
	f := newFixture(t)
	in := newInstitution(t)
	in.serve(journals(1, 5)...)
	ctx := newBrowser(t)
	console := f.srv.URL + "/console/"

	run(t, ctx, "sign in", chromedp.Navigate(console), chromedp.SendKeys(chromedp.ID("apikey"), "lib-key"))
	follow(t, ctx, "send the key", chromedp.Submit(chromedp.ID("apikey")))
	run(t, ctx, "the console", chromedp.WaitVisible(`//h2[starts-with(text(), "Selected packages")]`))
	follow(t, ctx, "the holdings feeds", chromedp.Click(`//nav//a[text()="Holdings feeds"]`))
	run(t, ctx, "the form", chromedp.WaitVisible(chromedp.ID("url")),
		chromedp.SetValue(chromedp.ID("package"), fmt.Sprintf("%d-%d", f.vendor, f.pkgs["Nursing Journals"])),
		chromedp.SendKeys(chromedp.ID("url"), in.srv.URL+"/inst.txt?token="+feedURLToken),
		chromedp.SendKeys(chromedp.ID("headers"), "Authorization: Bearer "+feedHeaderToken))
	screenshot(t, ctx, "console-feeds-form")
	follow(t, ctx, "add the feed", chromedp.Submit(chromedp.ID("url")))
	run(t, ctx, "the feed's page", chromedp.WaitVisible(`//button[text()="Run now"]`))
	follow(t, ctx, "run it now", chromedp.Click(`//button[text()="Run now"]`))
	run(t, ctx, "the run's outcome", chromedp.WaitVisible(chromedp.CSS("p.result")))
	if got := text(t, ctx, "p.result"); !strings.Contains(got, "held for review: it would deselect 36 of the 41 titles") {
		t.Fatalf("the run says %q, want it held", got)
	}
	screenshot(t, ctx, "console-feed-held")

	follow(t, ctx, "open the review", chromedp.Click(`//p[contains(@class, "result")]//a[text()="Review it"]`))
	run(t, ctx, "the review", chromedp.WaitVisible(chromedp.ID("deselected")))
	if got := text(t, ctx, "#deselected"); !strings.Contains(got, "Nursing Journal 40") || strings.Contains(got, "Nursing Journal 05") {
		t.Errorf("the titles it would deselect: %q", got)
	}
	screenshot(t, ctx, "console-feed-review")

	follow(t, ctx, "approve", chromedp.Click(`//button[text()="Approve"]`))
	run(t, ctx, "the approval's outcome", chromedp.WaitVisible(chromedp.CSS("p.result")))
	if got := text(t, ctx, "p.result"); !strings.Contains(got, "approved run") || !strings.Contains(got, "36 deselected") {
		t.Errorf("the approval says %q, want it applied", got)
	}
	if n := f.selectedCount(t, "Nursing Journals"); n != 5 {
		t.Errorf("after the approval %d titles are selected, want the file's 5", n)
	}
	html, err := chromedp.Run(ctx, chromedp.OuterHTML(chromedp.CSS("main")))
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(html, feedURLToken) || strings.Contains(html, feedHeaderToken) {
		t.Errorf("the feed's page shows a secret")
	}
}
