package pages_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/kbserver/kbserver/internal/kb"
)

// TestResolverInBrowser follows a citation as a patron does in Chromium:
// the menu of the link resolver shows the full text, and its link goes
// through the link-out and the library's proxy to the publisher's page,
// counted once; a citation before the coverage shows why there is no
// full text and offers a search of the A–Z page.
func TestResolverInBrowser(t *testing.T) {
	f := newResolverFixture(t)
	ctx := newBrowser(t)
	base := f.srv.URL + "/openurl/" + guestProfile.String()

	run(t, ctx, "the menu", chromedp.Navigate(base+"?genre=article&issn=0317-8471&date=2005&atitle=A+Study&aulast=Smith"),
		chromedp.WaitVisible(chromedp.ID("fulltext")))
	screenshot(t, ctx, "resolver-menu")
	if got := text(t, ctx, "ol.fulltext h3"); got != "Journal of Tests" {
		t.Errorf("full text of %q, want Journal of Tests", got)
	}
	follow(t, ctx, "go to the journal", chromedp.Click(`//a[text()="Go to the journal"]`))
	run(t, ctx, "the publisher's page", chromedp.WaitVisible(`//h1[starts-with(text(), "Publisher")]`))
	location, err := chromedp.Run(ctx, chromedp.Location())
	if err != nil {
		t.Fatal(err)
	}
	if location != f.site.URL+"/jot" {
		t.Errorf("the link led to %q, want the publisher's %s", location, f.site.URL+"/jot")
	}
	f.mu.Lock()
	proxied, visits := slices.Clone(f.proxied), slices.Clone(f.visits)
	f.mu.Unlock()
	if !slices.Equal(proxied, []string{f.site.URL + "/jot"}) || !slices.Equal(visits, []string{"/jot"}) {
		t.Errorf("the proxy was asked for %v and the publisher for %v; want the journal once through the proxy", proxied, visits)
	}
	_, ans := f.resolve(t, guestProfile, "issn=0317-8471")
	titleID := int64(results(t, ans)[0]["titleId"].(float64))
	if n, err := f.store.LinkOutCount(t.Context(), "lib", kb.ResourceKey{PackageID: f.mainPackage, TitleID: titleID}); err != nil || n != 1 {
		t.Errorf("link-out count %d, %v; want 1", n, err)
	}

	run(t, ctx, "a citation before the coverage", chromedp.Navigate(base+"?issn=0317-8471&date=1999"),
		chromedp.WaitVisible(chromedp.ID("notcovered")))
	if got := text(t, ctx, "p.reason"); !strings.Contains(got, "older than") {
		t.Errorf("the reason says %q", got)
	}
	follow(t, ctx, "search the A–Z page", chromedp.Submit(chromedp.ID("q")))
	run(t, ctx, "the A–Z page", chromedp.WaitVisible(chromedp.CSS(".count-line")))
	if got := text(t, ctx, ".count-line"); !strings.Contains(got, "1 titles") && !strings.Contains(got, "of 1 ") {
		t.Errorf("the A–Z search for the ISSN found %q", got)
	}
}
