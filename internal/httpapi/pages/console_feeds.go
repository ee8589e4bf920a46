package pages

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/kbserver/kbserver/internal/feeds"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// The console's holdings feeds (NISO RP-26): the addresses of the
// library's own KBART files, each of which keeps the customer's selection
// of one package of the knowledge base exactly the file's titles; their
// history, a held run's review and its approval. Everything goes through
// feeds.Library, as the API under holdingsfeeds does: it sees the
// signed-in customer's holdings feeds only, and says the same things
// about bad input.

// withFeeds answers a holdings feeds page 404 when the server keeps no
// holdings feeds (its store keeps none).
func (p *pages) withFeeds(h staffHandler) staffHandler {
	return func(w http.ResponseWriter, r *http.Request, s *staff) error {
		if p.lib == nil {
			return kb.Errorf(kb.CodeNotFound, "This server keeps no holdings feeds.")
		}
		return h(w, r, s)
	}
}

// feedView is a holdings feed as the console shows it: its address with
// its secrets redacted, its request headers by name only.
type feedView struct {
	ID                    int64
	Vendor, Package       string
	Address, Every, Share string
	Headers               []string
	Created, NextRun      string
	Last                  *runView // nil before its first run
}

// runView is a run of a feed as the console shows it.
type runView struct {
	ID                   int64
	When                 string
	Outcome, Message     string
	Status               int
	Bytes                string
	Selected, Deselected int
	// Review marks a held run whose file may still be approved: no run
	// after it applied a newer file.
	Review bool
	// Attention marks an outcome that asks for someone to look (held,
	// failed).
	Attention bool
}

// consoleTime writes a time as the console's feed pages show it.
func consoleTime(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format("2006-01-02 15:04 UTC")
}

// shareWords writes a review share: "20%", "2.5%".
func shareWords(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) + "%" }

func feedOf(f kb.Feed) feedView {
	v := feedView{ID: f.ID, Vendor: f.Vendor, Package: f.Package, Address: kb.RedactURL(f.URL), Every: kb.FeedEveryWords(f.Every),
		Share: shareWords(f.MaxRemoval), Created: consoleTime(f.Created), NextRun: consoleTime(f.NextRun)}
	for _, h := range f.Headers {
		v.Headers = append(v.Headers, h.Name)
	}
	return v
}

func runOf(r kb.FeedRun) runView {
	when := r.Finished
	if when.IsZero() {
		when = r.Started
	}
	return runView{ID: r.ID, When: consoleTime(when), Outcome: string(r.Outcome), Message: r.Message, Status: r.Status,
		Bytes: kb.Thousands(int(r.Bytes)), Selected: r.Added, Deselected: r.Removed,
		Attention: r.Outcome == kb.FeedHeld || r.Outcome == kb.FeedFailed}
}

// runsOf returns the runs, newest first, each held one that may still be
// approved marked for review.
func runsOf(runs []kb.FeedRun) []runView {
	out := make([]runView, len(runs))
	applied := false
	for i, r := range runs {
		out[i] = runOf(r)
		out[i].Review = r.Outcome == kb.FeedHeld && r.Held && !applied
		applied = applied || r.Outcome == kb.FeedApplied
	}
	return out
}

// feedForm is what the form to add a feed sends, kept to show it again
// (but for the request headers, whose values are secrets).
type feedForm struct {
	Package, URL, Every, MaxRemoval string
}

// feedsPage is the list of the customer's holdings feeds and the form to
// add one.
type feedsPage struct {
	frame
	Feeds    []feedView
	Packages []option
	// PackagesCut says the select lists only the first selected
	// packages.
	PackagesCut    bool
	Form           feedForm
	Error, Field   string // the form's error, and the field it names
	HeadersDropped bool   // the form sent request headers, not sent back
	Flash          string
	Max            int
}

// feedPackagePages bounds the selected packages the form's select lists,
// in pages of feedPackagePage.
const (
	feedPackagePages = 5
	feedPackagePage  = 100
)

// consoleFeeds serves /console/feeds: the customer's holdings feeds, each
// with its last run, and the form that adds one (POST).
func (p *pages) consoleFeeds(w http.ResponseWriter, r *http.Request, s *staff) error {
	ctx := r.Context()
	data := feedsPage{frame: consoleFrame(s, "Holdings feeds"), Form: feedForm{Every: "daily", MaxRemoval: shareWords(kb.DefaultFeedMaxRemoval)},
		Max: kb.MaxLibraryFeeds}
	status := http.StatusOK
	if r.Method == http.MethodPost {
		v := func(name string) string { return strings.TrimSpace(r.PostFormValue(name)) }
		data.Form = feedForm{Package: v("package"), URL: v("url"), Every: v("every"), MaxRemoval: v("maxremoval")}
		headers := headerLines(r.PostFormValue("headers"))
		f, err := p.addFeed(r, s.CustomerID, data.Form, headers)
		if err == nil {
			http.Redirect(w, r, fmt.Sprintf("%sfeeds/%d?added=1", consolePath, f.ID), http.StatusSeeOther)
			return nil
		}
		if kb.ErrorCode(err) == kb.CodeInternal {
			return fmt.Errorf("add a holdings feed of %s: %w", s.CustomerID, err)
		}
		status, _ = web.InPlace(w, err)
		data.Field, data.Error = feedFieldError(err)
		data.HeadersDropped = len(headers) > 0
	} else {
		q := r.URL.Query()
		data.Form.Package = q.Get("package")
		if id, err := strconv.ParseInt(q.Get("removed"), 10, 64); err == nil && id > 0 {
			data.Flash = fmt.Sprintf("Feed %d removed, with its history; the titles it selected stay selected.", id)
		}
	}
	fs, last, err := p.lib.Feeds(ctx, s.CustomerID)
	if err != nil {
		return fmt.Errorf("holdings feeds of %s: %w", s.CustomerID, err)
	}
	for _, f := range fs {
		v := feedOf(f)
		if l := last[f.ID]; l != nil {
			lv := runOf(*l)
			lv.Review = l.Outcome == kb.FeedHeld && l.Held
			v.Last = &lv
		}
		data.Feeds = append(data.Feeds, v)
	}
	if data.Packages, data.PackagesCut, err = p.feedPackageOptions(r, s.CustomerID, data.Form.Package); err != nil {
		return err
	}
	return render(w, status, "console_feeds", data)
}

// addFeed adds the form's feed through the library's service.
func (p *pages) addFeed(r *http.Request, custID string, form feedForm, headers []string) (kb.Feed, error) {
	vendorID, packageID, err := packageRef(form.Package)
	if err != nil {
		return kb.Feed{}, err
	}
	return p.lib.Add(r.Context(), custID, feeds.LibraryFeed{VendorID: vendorID, PackageID: packageID, URL: form.URL,
		Every: form.Every, MaxRemoval: form.MaxRemoval, Headers: headers})
}

// packageRef reads the package select's value, "vendorid-packageid".
func packageRef(v string) (vendorID, packageID int64, err error) {
	if v == "" {
		return 0, 0, kb.Errorf(kb.CodeMissing, "package: choose the package whose selection the file keeps")
	}
	a, b, ok := strings.Cut(v, "-")
	vendorID, errA := strconv.ParseInt(a, 10, 64)
	packageID, errB := strconv.ParseInt(b, 10, 64)
	if !ok || errA != nil || errB != nil || vendorID < 1 || packageID < 1 {
		return 0, 0, kb.Errorf(kb.CodeInvalid, "package: %q names no package", v)
	}
	return vendorID, packageID, nil
}

// headerLines returns the request header lines of the form's text, one a
// line, blank lines left out.
func headerLines(text string) []string {
	var out []string
	for _, l := range strings.Split(text, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// feedFields are the form's fields by the names the service's messages
// start with, and the labels the form gives them.
var feedFields = []struct{ prefix, field, label string }{
	{"package:", "package", "Package"},
	{"packageId:", "package", "Package"},
	{"url:", "url", "Address"},
	{"every:", "every", "Schedule"},
	{"max-removal:", "maxremoval", "Review share"},
	{"headers:", "headers", "Request headers"},
	{"header:", "headers", "Request headers"},
}

// feedFieldError returns the form's field that a refusal of the service
// names ("" for none) and the message with the field's label in place of
// the service's name for it.
func feedFieldError(err error) (field, message string) {
	msg := kb.ErrorMessage(err)
	if kb.ErrorCode(err) == kb.CodeNotFound {
		return "package", "Package: not a package of the knowledge base that this customer sees."
	}
	for _, f := range feedFields {
		if rest, ok := strings.CutPrefix(msg, f.prefix); ok {
			rest = strings.TrimSpace(rest)
			if !strings.HasSuffix(rest, ".") {
				rest += "."
			}
			return f.field, f.label + ": " + rest
		}
	}
	return "", msg
}

// feedPackageOptions returns the package select's options: the
// customer's selected packages of the knowledge base (not custom ones), by
// name, and chosen ("vendorid-packageid") among them when the customer
// sees it, selected or not (a package's page links here with it). cut
// says there were more selected packages than the select lists.
func (p *pages) feedPackageOptions(r *http.Request, custID, chosen string) (opts []option, cut bool, err error) {
	ctx := r.Context()
	found := false
	for n := 1; n <= feedPackagePages; n++ {
		l, err := p.finder.Packages(ctx, custID, kb.PackageQuery{Selection: kb.SelectionSelected, OrderBy: kb.OrderName,
			Page: kb.Page{Count: feedPackagePage, Number: n}})
		if err != nil {
			return nil, false, fmt.Errorf("selected packages of %s: %w", custID, err)
		}
		for _, pkg := range l.Packages {
			if pkg.IsCustom {
				continue
			}
			o := packageOption(pkg)
			o.Selected = o.Value == chosen
			found = found || o.Selected
			opts = append(opts, o)
		}
		if n*feedPackagePage >= l.Total {
			break
		}
		cut = n == feedPackagePages
	}
	if chosen != "" && !found {
		if v, pk, err := packageRef(chosen); err == nil {
			pkg, err := p.store.Package(ctx, custID, v, pk)
			switch {
			case err == nil && !pkg.IsCustom:
				o := packageOption(pkg)
				o.Selected = true
				opts = append([]option{o}, opts...)
			case err != nil && kb.ErrorCode(err) == kb.CodeInternal:
				return nil, false, fmt.Errorf("package %s of %s: %w", chosen, custID, err)
			}
		}
	}
	return opts, cut, nil
}

// packageOption is a package in the select.
func packageOption(pkg kb.Package) option {
	return option{Value: fmt.Sprintf("%d-%d", pkg.VendorID, pkg.ID), Label: packageLabel(pkg)}
}

// packageLabel names a package in the forms' choices: its vendor, its
// name and how many of its titles are selected.
func packageLabel(pkg kb.Package) string {
	return fmt.Sprintf("%s / %s (%s of %s titles selected)", pkg.VendorName, pkg.Name, kb.Thousands(pkg.SelectedCount), kb.Thousands(pkg.TitleCount))
}

// feedPage is one holdings feed and its history.
type feedPage struct {
	frame
	Feed         feedView
	Runs         []runView
	Result       *runView // the run the page was sent back to show
	Flash, Error string
}

// consoleFeed serves /console/feeds/{feedid}: the feed and its runs,
// newest first, with the buttons that run it now and remove it.
func (p *pages) consoleFeed(w http.ResponseWriter, r *http.Request, s *staff) error {
	id, err := web.PathID(r, "feedid")
	if err != nil {
		return err
	}
	return p.renderFeed(w, r, s, id, http.StatusOK, "")
}

// renderFeed renders the page of the customer's feed id with status and
// an error message ("" for none).
func (p *pages) renderFeed(w http.ResponseWriter, r *http.Request, s *staff, id int64, status int, message string) error {
	f, runs, err := p.lib.History(r.Context(), s.CustomerID, id)
	if err != nil {
		return passOn(err, "holdings feed %d of %s", id, s.CustomerID)
	}
	data := feedPage{frame: consoleFrame(s, f.Vendor+" / "+f.Package), Feed: feedOf(f), Runs: runsOf(runs), Error: message}
	if r.Method == http.MethodGet {
		q := r.URL.Query()
		if q.Get("added") != "" {
			data.Flash = "Added. The feed is due: the server runs it shortly, or run it now."
		}
		if runID, err := strconv.ParseInt(q.Get("run"), 10, 64); err == nil {
			for i := range data.Runs {
				if data.Runs[i].ID == runID {
					data.Result = &data.Runs[i]
				}
			}
		}
	}
	return render(w, status, "console_feed", data)
}

// consoleFeedRun serves POST /console/feeds/{feedid}/run: the feed runs
// now, and the browser goes to the feed's page, which shows the run.
func (p *pages) consoleFeedRun(w http.ResponseWriter, r *http.Request, s *staff) error {
	id, err := web.PathID(r, "feedid")
	if err != nil {
		return err
	}
	run, err := p.lib.Run(r.Context(), s.CustomerID, id)
	if err != nil {
		return p.feedActionError(w, r, s, id, err, "run")
	}
	http.Redirect(w, r, fmt.Sprintf("%sfeeds/%d?run=%d#run-%d", consolePath, id, run.ID, run.ID), http.StatusSeeOther)
	return nil
}

// feedActionError answers a refused action on the customer's feed id (a
// run under way, a run that may no longer be approved) on the feed's
// page; an unknown feed is an error page.
func (p *pages) feedActionError(w http.ResponseWriter, r *http.Request, s *staff, id int64, err error, what string) error {
	switch kb.ErrorCode(err) {
	case kb.CodeInternal:
		return fmt.Errorf("%s holdings feed %d of %s: %w", what, id, s.CustomerID, err)
	case kb.CodeNotFound:
		return err
	}
	status, message := web.InPlace(w, err)
	return p.renderFeed(w, r, s, id, status, message)
}

// consoleFeedRemove serves POST /console/feeds/{feedid}/remove: the feed
// and its history go; the titles it selected stay selected.
func (p *pages) consoleFeedRemove(w http.ResponseWriter, r *http.Request, s *staff) error {
	id, err := web.PathID(r, "feedid")
	if err != nil {
		return err
	}
	if err := p.lib.Remove(r.Context(), s.CustomerID, id); err != nil {
		return passOn(err, "holdings feed %d of %s", id, s.CustomerID)
	}
	http.Redirect(w, r, fmt.Sprintf("%sfeeds?removed=%d", consolePath, id), http.StatusSeeOther)
	return nil
}

// reviewPage is what approving a held run would do now.
type reviewPage struct {
	frame
	Feed                                 feedView
	Run                                  runView
	RowsRead, RowsRefused, RowsUnmatched int
	Before, After, Kept                  int
	SelectCount, DeselectCount           int
	Selected, Deselected                 []feeds.NamedTitle
	Limit                                int
}

// consoleFeedReview serves /console/feeds/{feedid}/runs/{runid}: what
// approving the held run would do now (feeds.Library.Review), with the
// button that approves it.
func (p *pages) consoleFeedReview(w http.ResponseWriter, r *http.Request, s *staff) error {
	id, runID, err := web.PathIDPair(r, "feedid", "runid")
	if err != nil {
		return err
	}
	ctx := r.Context()
	f, _, err := p.lib.History(ctx, s.CustomerID, id)
	if err != nil {
		return passOn(err, "holdings feed %d of %s", id, s.CustomerID)
	}
	rv, err := p.lib.Review(ctx, s.CustomerID, id, runID)
	if err != nil {
		return passOn(err, "the review of run %d of holdings feed %d of %s", runID, id, s.CustomerID)
	}
	pv := rv.Preview
	data := reviewPage{frame: consoleFrame(s, fmt.Sprintf("Review of run %d", runID)), Feed: feedOf(f), Run: runOf(rv.Run),
		RowsRead: pv.Counts.RowsRead, RowsRefused: pv.Counts.RowsRefused, RowsUnmatched: pv.Counts.RowsUnmatched,
		Before: pv.WasSelected, After: pv.NowSelected, Kept: pv.Kept, SelectCount: len(pv.Selected), DeselectCount: len(pv.Deselected),
		Selected: rv.SelectedNames, Deselected: rv.DeselectedNames, Limit: feeds.PreviewLimit}
	return render(w, http.StatusOK, "console_feed_review", data)
}

// consoleFeedApprove serves POST /console/feeds/{feedid}/runs/{runid}/approve:
// the held run's file is applied, and the browser goes to the feed's
// page, which shows the new run.
func (p *pages) consoleFeedApprove(w http.ResponseWriter, r *http.Request, s *staff) error {
	id, runID, err := web.PathIDPair(r, "feedid", "runid")
	if err != nil {
		return err
	}
	run, err := p.lib.Approve(r.Context(), s.CustomerID, id, runID)
	if err != nil {
		return p.feedActionError(w, r, s, id, err, "approve a run of")
	}
	http.Redirect(w, r, fmt.Sprintf("%sfeeds/%d?run=%d#run-%d", consolePath, id, run.ID, run.ID), http.StatusSeeOther)
	return nil
}
