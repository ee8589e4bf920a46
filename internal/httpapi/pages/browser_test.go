package pages_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/kbserver/kbserver/internal/httpapi/pages"
	"github.com/kbserver/kbserver/internal/testbrowser"
)

// newBrowser starts headless Chromium for the test and returns a tab's
// context (testbrowser.Path finds it, or skips the test).
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	if testing.Short() {
		t.Skip("drives Chromium; skipped with -short")
	}
	bin := testbrowser.Path(t, "test the pages in a browser")
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(1280, 1000))
	actx, cancelAlloc := chromedp.NewExecAllocator(t.Context(), opts...)
	tab, cancelTab := chromedp.NewContext(actx)
	// The first action starts the browser, which lives as long as the
	// context of that action: no timeout on it, one on every later one.
	if err := chromedp.Do(tab); err != nil {
		cancelTab()
		cancelAlloc()
		t.Fatalf("start %s: %v", bin, err)
	}
	ctx, cancelTime := context.WithTimeout(tab, 2*time.Minute)
	t.Cleanup(func() { cancelTime(); cancelTab(); cancelAlloc() })
	return ctx
}

// screenshot saves what the window shows (1280 × 1000) as name.png under
// the test's temporary directory, or under KBSERVER_PAGES_SCREENSHOT_DIR
// when set (to look at them; docs/ keeps some).
func screenshot(t *testing.T, ctx context.Context, name string) {
	t.Helper()
	dir := os.Getenv("KBSERVER_PAGES_SCREENSHOT_DIR")
	if dir == "" {
		dir = t.TempDir()
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot %s: %v", name, err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".png"), png, 0o644); err != nil {
		t.Fatal(err)
	}
}

// text returns the text of the first visible element that the CSS
// selector sel matches.
func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel), chromedp.NodeVisible))
	if err != nil {
		t.Fatalf("text of %s: %v", sel, err)
	}
	return strings.TrimSpace(s)
}

// follow runs action, which makes the page navigate (a click on a link,
// a form's submission), and waits for the new page's answer, so that the
// next query reads the new page, not the old one being left.
func follow(t *testing.T, ctx context.Context, what string, action chromedp.Action[chromedp.Void]) {
	t.Helper()
	if _, err := chromedp.RunResponse(ctx, action); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// run runs the actions, failing the test with what was being done.
func run(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// TestPatronInBrowser drives the A–Z page in Chromium as a patron does:
// a search, a facet, the next page, a link-out to the publisher; a letter;
// a password profile; a title that looks like a script.
func TestPatronInBrowser(t *testing.T) {
	f := newFixture(t)
	ctx := newBrowser(t)
	az := f.srv.URL + pages.AZPath(guestProfile)

	t.Run("search, facet, page 2, link-out", func(t *testing.T) {
		run(t, ctx, "search", chromedp.Navigate(az), chromedp.SendKeys(chromedp.ID("q"), "nursing"))
		follow(t, ctx, "submit the search", chromedp.Submit(chromedp.ID("q")))
		run(t, ctx, "results", chromedp.WaitVisible(chromedp.CSS(".count-line")))
		if got := text(t, ctx, ".count-line"); got != "1–25 of 46 titles" {
			t.Errorf("after the search: %q, want 1–25 of 46 titles", got)
		}
		screenshot(t, ctx, "az-search")
		follow(t, ctx, "facet", chromedp.Click(`//aside//a[normalize-space(text())="Journal"]`))
		run(t, ctx, "facet's results", chromedp.WaitVisible(chromedp.CSS(".facets .active")))
		if got := text(t, ctx, ".count-line"); got != "1–25 of 41 titles" {
			t.Errorf("after the Journal facet: %q, want 1–25 of 41 titles", got)
		}
		if got := text(t, ctx, ".facets .active"); !strings.Contains(got, "Type: Journal") {
			t.Errorf("filters in force: %q, want Type: Journal", got)
		}
		screenshot(t, ctx, "az-facet")
		follow(t, ctx, "next page", chromedp.Click(chromedp.CSS("a[rel=next]")))
		run(t, ctx, "page 2", chromedp.WaitVisible(chromedp.CSS("a[rel=prev]")))
		if got := text(t, ctx, ".count-line"); got != "26–41 of 41 titles" {
			t.Errorf("page 2: %q, want 26–41 of 41 titles", got)
		}
		screenshot(t, ctx, "az-page2")
		follow(t, ctx, "link-out", chromedp.Click(chromedp.CSS("a.go")))
		run(t, ctx, "the publisher's page", chromedp.WaitVisible(`//h1[starts-with(text(), "Publisher")]`))
		location, err := chromedp.Run(ctx, chromedp.Location())
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(location, f.site.URL+"/title/") {
			t.Errorf("the link-out led to %q, want the publisher's site %s", location, f.site.URL)
		}
		if v := f.visited(); len(v) != 1 {
			t.Errorf("the publisher's site was asked for %v, want one title", v)
		}
	})

	t.Run("letter", func(t *testing.T) {
		run(t, ctx, "the A–Z page", chromedp.Navigate(az))
		follow(t, ctx, "letter A", chromedp.Click(`//nav[contains(@class,"letters")]//a[text()="A"]`))
		run(t, ctx, "letter A's titles", chromedp.WaitVisible(chromedp.CSS("a[aria-current=page]")))
		if got := text(t, ctx, ".count-line"); got != "1–1 of 1 titles" {
			t.Errorf("letter A: %q, want 1–1 of 1 titles", got)
		}
		if got := text(t, ctx, "li.title h3"); got != "Atlas of Anatomy" {
			t.Errorf("letter A lists %q, want Atlas of Anatomy", got)
		}
		screenshot(t, ctx, "az-letter")
	})

	t.Run("password profile", func(t *testing.T) {
		pw := f.srv.URL + pages.AZPath(passwordProfile)
		run(t, ctx, "sign-in form", chromedp.Navigate(pw), chromedp.WaitVisible(chromedp.ID("password")))
		run(t, ctx, "wrong password", chromedp.SendKeys(chromedp.ID("password"), "guess"))
		follow(t, ctx, "send it", chromedp.Submit(chromedp.ID("password")))
		run(t, ctx, "the refusal", chromedp.WaitVisible(chromedp.ID("signin-error")))
		if got := text(t, ctx, "#signin-error"); !strings.Contains(got, "not right") {
			t.Errorf("wrong password says %q", got)
		}
		screenshot(t, ctx, "az-signin-wrong")
		run(t, ctx, "right password", chromedp.SendKeys(chromedp.ID("password"), profilePassword))
		follow(t, ctx, "send it", chromedp.Submit(chromedp.ID("password")))
		run(t, ctx, "the list", chromedp.WaitVisible(chromedp.CSS(".count-line")))
		if got := text(t, ctx, ".count-line"); got != "1–25 of 47 titles" {
			t.Errorf("signed in: %q, want the whole list", got)
		}
		script, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.cookie`))
		if err != nil {
			t.Fatal(err)
		}
		if script != "" {
			t.Errorf("scripts see the cookies %q; the session must be HttpOnly", script)
		}
		cookies, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) ([]*network.Cookie, error) {
			res, err := cdp.Call(ctx, tg, network.GetCookies, network.GetCookiesParams{})
			return res.Cookies, err
		})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, c := range cookies {
			if c.Name == "kb_patron" {
				found = c.HTTPOnly && c.SameSite == network.CookieSameSiteLax && c.Path == pages.AZPath(passwordProfile)
			}
		}
		if !found {
			t.Errorf("no HttpOnly, SameSite=Lax session cookie for the page among %d cookies", len(cookies))
		}
	})

	t.Run("markup in a title is text", func(t *testing.T) {
		// A dialog would block the page, and with it the navigation: the
		// dialog is noted and dismissed so that the test can say so.
		dialogs := chromedp.Events(ctx, page.JavascriptDialogOpening)
		dialog := make(chan string, 1)
		go func() {
			for ev, err := range dialogs {
				if err != nil {
					return
				}
				select {
				case dialog <- ev.Message:
				default:
				}
				_, _ = chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (chromedp.Void, error) {
					_, err := cdp.Call(ctx, tg, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: true})
					return chromedp.Void{}, err
				})
			}
		}()
		run(t, ctx, "search", chromedp.Navigate(az+"?search=alert"), chromedp.WaitVisible(chromedp.CSS("li.title h3")))
		if got := text(t, ctx, "li.title h3"); got != "<script>alert(1)</script> Nursing" {
			t.Errorf("the title shows as %q", got)
		}
		screenshot(t, ctx, "az-markup")
		select {
		case m := <-dialog:
			t.Errorf("a script ran: dialog %q", m)
		default:
		}
	})
}

// TestStaffInBrowser drives the staff console in Chromium: sign in with
// the API key, select a package and find its title on the A–Z page, send
// custom coverage oldest first and read the rule, send a form whose CSRF
// token was removed, sign out.
func TestStaffInBrowser(t *testing.T) {
	f := newFixture(t)
	ctx := newBrowser(t)
	console := f.srv.URL + "/console/"

	run(t, ctx, "sign in", chromedp.Navigate(console), chromedp.SendKeys(chromedp.ID("apikey"), "lib-key"))
	follow(t, ctx, "send the key", chromedp.Submit(chromedp.ID("apikey")))
	run(t, ctx, "the console", chromedp.WaitVisible(`//h2[starts-with(text(), "Selected packages")]`))
	screenshot(t, ctx, "console-home")

	run(t, ctx, "find the package", chromedp.SetValue(chromedp.ID("kind"), "packages"), chromedp.SendKeys(chromedp.ID("q"), "maps"))
	follow(t, ctx, "search", chromedp.Submit(chromedp.ID("q")))
	follow(t, ctx, "open the package", chromedp.Click(`//a[text()="Rare Maps"]`))
	run(t, ctx, "select it", chromedp.WaitVisible(chromedp.ID("selected")), chromedp.Click(chromedp.ID("selected")))
	follow(t, ctx, "save", chromedp.Submit(chromedp.ID("selected")))
	run(t, ctx, "saved", chromedp.WaitVisible(chromedp.CSS(".flash")))
	if got := text(t, ctx, ".meta"); !strings.Contains(got, "2 selected") {
		t.Errorf("the package after selecting it: %q, want 2 selected", got)
	}
	screenshot(t, ctx, "console-package")

	run(t, ctx, "A–Z page", chromedp.Navigate(f.srv.URL+pages.AZPath(guestProfile)+"?search=map"), chromedp.WaitVisible(chromedp.CSS(".count-line")))
	if got := text(t, ctx, ".count-line"); got != "1–2 of 2 titles" {
		t.Errorf("the A–Z page after the selection: %q, want the package's 2 titles", got)
	}

	run(t, ctx, "search a title", chromedp.Navigate(console+"search?kind=titles&q=Nursing+Journal+02"))
	follow(t, ctx, "a title's page", chromedp.Click(`//a[text()="Nursing Journals"]`))
	run(t, ctx, "its form", chromedp.WaitVisible(chromedp.ID("begin1")))
	run(t, ctx, "coverage oldest first", chromedp.SetValue(chromedp.ID("begin1"), "2001-01-01"), chromedp.SetValue(chromedp.ID("end1"), "2002-12-31"),
		chromedp.SetValue(chromedp.ID("begin2"), "2005-01-01"), chromedp.SetValue(chromedp.ID("end2"), "2006-12-31"))
	follow(t, ctx, "save", chromedp.Submit(chromedp.ID("begin1")))
	run(t, ctx, "the refusal", chromedp.WaitVisible(chromedp.ID("form-error")))
	if got := text(t, ctx, "#form-error"); !strings.Contains(got, "exceeds a previous date") {
		t.Errorf("coverage oldest first says %q", got)
	}
	if got := text(t, ctx, "#coverage-rule"); !strings.Contains(got, "newest first") {
		t.Errorf("the rule's explanation: %q", got)
	}
	screenshot(t, ctx, "console-coverage-rule")

	run(t, ctx, "a form without its CSRF token", chromedp.Navigate(console+"history"), chromedp.WaitVisible(chromedp.CSS("h1")))
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`document.querySelector('input[name=csrf]').remove() || true`)); err != nil {
		t.Fatal(err)
	}
	follow(t, ctx, "send it", chromedp.Click(`//button[text()="Sign out"]`))
	run(t, ctx, "the refusal", chromedp.WaitVisible(chromedp.CSS("[role=alert]")))
	if got := text(t, ctx, "[role=alert]"); !strings.Contains(got, "CSRF") {
		t.Errorf("a form without its CSRF token: %q", got)
	}

	run(t, ctx, "the history", chromedp.Navigate(console+"history"))
	follow(t, ctx, "sign out", chromedp.Click(`//button[text()="Sign out"]`))
	run(t, ctx, "the sign-in form", chromedp.WaitVisible(chromedp.ID("apikey")))
	run(t, ctx, "history after signing out", chromedp.Navigate(console+"history"), chromedp.WaitVisible(chromedp.ID("apikey")))
	if html, err := chromedp.Run(ctx, chromedp.OuterHTML(chromedp.CSS("main"))); err != nil || strings.Contains(html, "Changes of") {
		t.Errorf("the history after signing out shows %q (%v)", html, err)
	}
}
