package feedapi_test

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kbserver/kbserver/internal/feeds"
	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/httpapi/apitest"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// header is a KBART header line.
const header = "publication_title\tprint_identifier\tonline_identifier\tdate_first_issue_online\tnum_first_vol_online\tnum_first_issue_online\tdate_last_issue_online\tnum_last_vol_online\tnum_last_issue_online\ttitle_url\tfirst_author\ttitle_id\tembargo_info\tcoverage_depth\tnotes\tpublisher_name\tpublication_type\n"

// The institution's files: all three titles of Alpha Journals (by print
// ISSN, by online ISSN, by name alone), then Journal of Testing only.
const (
	allThree = header +
		"Journal of Testing\t0317-8471\t\t\t\t\t\t\t\t\t\t\t\t\t\t\tserial\n" +
		"Annals (as the publisher names it)\t\t2049-3630\t\t\t\t\t\t\t\t\t\t\t\t\t\tserial\n" +
		"ZEBRA STUDIES\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\tserial\n"
	oneOnly = header + "Journal of Testing\t0317-8471\t\t\t\t\t\t\t\t\t\t\t\t\t\t\tserial\n"
)

// publisher serves the institution's file, when asked with its token.
type publisher struct {
	*httptest.Server
	mu   sync.Mutex
	body string
}

func (p *publisher) serve(body string) {
	p.mu.Lock()
	p.body = body
	p.mu.Unlock()
}

func newPublisher(t *testing.T) *publisher {
	p := &publisher{}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Token") != "open-sesame" {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		p.mu.Lock()
		defer p.mu.Unlock()
		io.WriteString(w, p.body)
	}))
	t.Cleanup(p.Close)
	return p
}

type fixture struct {
	url       string
	fx        storetest.Fixture
	st        kb.Store
	c1Package int64 // c1's custom package
}

// newFixture is a server over a store of the test run's kind with
// storetest's fixture, whose feeds may fetch from the loopback address
// (the test's publisher). Every exchange is checked against the API
// description.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := t.Context()
	st := storetest.Searched(ctx, testdb.Open(t))
	f := &fixture{fx: storetest.LoadFixture(t, st), st: st}
	var err error
	f.c1Package, err = st.CreateCustomPackage(ctx, "c1", f.fx.C1Vendor, kb.CustomPackage{Name: "Our Own", ContentType: kb.ContentEJournal})
	if err != nil {
		t.Fatal(err)
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	raw := storetest.Raw(st)
	lib := feeds.NewLibrary(feeds.Deps{Log: logger, AllowPrivate: true, TempDir: t.TempDir()}, raw.(feeds.LibraryStore), "test")
	f.url = apitest.NewServer(t, httpapi.NewServer(storetest.SearchOf(ctx, st), httpapi.Deps{Store: raw, Logger: logger, Feeds: lib})).URL
	return f
}

// do asks for path under c1's holdings feeds with key.
func (f *fixture) do(t *testing.T, method, path, body, key string) (int, []byte) {
	t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	res, b := apitest.Do(t, http.DefaultClient, method, f.url+"/rm/rmaccounts/c1/holdingsfeeds"+path, r, "x-api-key", key, "Content-Type", "application/json")
	return res.StatusCode, b
}

// errMessage reads the message of an error answer.
func errMessage(t *testing.T, b []byte) string {
	t.Helper()
	var errs []struct{ Message string }
	if err := json.Unmarshal(b, &errs); err != nil || len(errs) == 0 {
		t.Fatalf("not an error array: %s", b)
	}
	return errs[0].Message
}

type run struct {
	ID         int64
	Outcome    string
	Message    string
	Selected   int
	Deselected int
	Held       bool
}

func TestHoldingsFeeds(t *testing.T) {
	f := newFixture(t)
	pub := newPublisher(t)
	pub.serve(allThree)
	addr := pub.URL + "/inst/c1.txt?token=hidden-token"
	body := func(vendor, pkg int64, url, extra string) string {
		return fmt.Sprintf(`{"vendorId": %d, "packageId": %d, "url": %q%s}`, vendor, pkg, url, extra)
	}
	for _, c := range []struct {
		name, body string
		status     int
		words      string
	}{
		{"no address", body(f.fx.AlphaVendor, f.fx.AlphaJournals, "", ""), 400, "url"},
		{"no package", `{"vendorId": 1, "url": "https://x.example/f"}`, 400, "packageId"},
		{"no vendor", `{"packageId": 1, "url": "https://x.example/f"}`, 400, "vendorId"},
		{"a local file", body(f.fx.AlphaVendor, f.fx.AlphaJournals, "file:///etc/passwd", ""), 400, "http or https"},
		{"too often", body(f.fx.AlphaVendor, f.fx.AlphaJournals, addr, `, "every": "5m"`), 400, "once an hour"},
		{"a bad share", body(f.fx.AlphaVendor, f.fx.AlphaJournals, addr, `, "maxRemoval": "150%"`), 400, "max-removal"},
		{"a refused header", body(f.fx.AlphaVendor, f.fx.AlphaJournals, addr, `, "headers": ["Host: x"]`), 400, "Host"},
		{"an unknown member", body(f.fx.AlphaVendor, f.fx.AlphaJournals, addr, `, "token": "x"`), 400, "token"},
		{"an unknown package", body(f.fx.AlphaVendor, 999999, addr, ""), 404, "Package"},
		{"another vendor's package", body(f.fx.BetaVendor, f.fx.AlphaJournals, addr, ""), 404, "Package"},
		{"a custom package", body(f.fx.C1Vendor, f.c1Package, addr, ""), 400, "custom package"},
	} {
		status, b := f.do(t, "POST", "", c.body, "key-c1")
		if status != c.status || !strings.Contains(errMessage(t, b), c.words) {
			t.Errorf("%s: %d %s, want %d naming %q", c.name, status, b, c.status, c.words)
		}
	}
	status, b := f.do(t, "POST", "", body(f.fx.AlphaVendor, f.fx.AlphaJournals, addr, `, "every": "weekly", "headers": ["X-Token: open-sesame"]`), "key-c1")
	if status != 201 || strings.Contains(string(b), "hidden-token") || strings.Contains(string(b), "open-sesame") {
		t.Fatalf("add: %d %s", status, b)
	}
	var feed struct {
		ID      int64
		URL     string
		Every   string
		Headers []string
	}
	json.Unmarshal(b, &feed)
	if feed.Every != "weekly" || !slices.Equal(feed.Headers, []string{"X-Token"}) || !strings.Contains(feed.URL, "token=REDACTED") {
		t.Errorf("the feed: %s", b)
	}
	id := fmt.Sprintf("/%d", feed.ID)

	// Another customer sees nothing of it.
	if res, b := apitest.Do(t, http.DefaultClient, "GET", f.url+"/rm/rmaccounts/c2/holdingsfeeds"+id, nil, "x-api-key", "key-c2"); res.StatusCode != 404 {
		t.Errorf("c2 reads c1's feed: %d %s", res.StatusCode, b)
	}
	if res, b := apitest.Do(t, http.DefaultClient, "GET", f.url+"/rm/rmaccounts/c2/holdingsfeeds", nil, "x-api-key", "key-c2"); res.StatusCode != 200 ||
		!strings.Contains(string(b), `"totalResults":0`) {
		t.Errorf("c2's list: %d %s, want none", res.StatusCode, b)
	}
	for _, c := range []struct{ method, path string }{{"POST", id + "/run"}, {"DELETE", id}, {"POST", id + "/runs/1/approve"}, {"GET", id + "/runs/1/review"}} {
		if res, b := apitest.Do(t, http.DefaultClient, c.method, f.url+"/rm/rmaccounts/c2/holdingsfeeds"+c.path, nil, "x-api-key", "key-c2"); res.StatusCode != 404 {
			t.Errorf("c2: %s %s of c1's feed: %d %s, want 404", c.method, c.path, res.StatusCode, b)
		}
	}
	if status, b := f.do(t, "POST", "", body(f.fx.AlphaVendor, f.fx.AlphaJournals, addr, ""), "key-c1"); status != 400 || !strings.Contains(string(b), "already") {
		t.Errorf("a second feed of the package: %d %s, want 400", status, b)
	}
	if status, _ := f.do(t, "GET", "", "", "key-c2"); status != 403 {
		t.Errorf("c1's feeds with c2's key: %d, want 403", status)
	}

	runNow := func(want string) run {
		t.Helper()
		status, b := f.do(t, "POST", id+"/run", "", "key-c1")
		var r run
		if err := json.Unmarshal(b, &r); status != 200 || err != nil || r.Outcome != want {
			t.Fatalf("run: %d %s, want %s", status, b, want)
		}
		return r
	}
	if r := runNow("applied"); r.Selected != 3 || r.Deselected != 0 {
		t.Errorf("first run: %+v, want the three titles selected", r)
	}
	if n := selectedTitles(t, f); n != 3 {
		t.Errorf("%d titles of Alpha Journals selected, want 3", n)
	}
	pub.serve(oneOnly)
	held := runNow("held")
	if held.Deselected != 2 || !held.Held || !strings.Contains(held.Message, "deselect 2 of the 3") {
		t.Errorf("held run: %+v", held)
	}
	status, b = f.do(t, "GET", fmt.Sprintf("%s/runs/%d/review", id, held.ID), "", "key-c1")
	var rv struct {
		SelectedBefore, SelectedAfter, Kept, DeselectedCount int
		Deselected                                           []struct{ TitleName string }
	}
	if err := json.Unmarshal(b, &rv); status != 200 || err != nil || rv.SelectedBefore != 3 || rv.SelectedAfter != 1 || rv.Kept != 1 || rv.DeselectedCount != 2 {
		t.Fatalf("review: %d %s", status, b)
	}
	var names []string
	for _, d := range rv.Deselected {
		names = append(names, d.TitleName)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"Annals of Software Quality", "Zebra Studies"}) {
		t.Errorf("review names %v", names)
	}
	status, b = f.do(t, "POST", fmt.Sprintf("%s/runs/%d/approve", id, held.ID), "", "key-c1")
	var ap run
	if err := json.Unmarshal(b, &ap); status != 200 || err != nil || ap.Outcome != "applied" || ap.Deselected != 2 {
		t.Fatalf("approve: %d %s", status, b)
	}
	if n := selectedTitles(t, f); n != 1 {
		t.Errorf("%d titles selected after the approval, want 1", n)
	}
	if status, b := f.do(t, "POST", fmt.Sprintf("%s/runs/%d/approve", id, held.ID), "", "key-c1"); status != 400 {
		t.Errorf("approving again: %d %s, want 400", status, b)
	}
	if status, _ := f.do(t, "GET", id+"/runs/abc/review", "", "key-c1"); status != 400 {
		t.Errorf("a run id that is not a number: %d, want 400", status)
	}
	status, b = f.do(t, "GET", id, "", "key-c1")
	var hist struct{ Runs []run }
	if err := json.Unmarshal(b, &hist); status != 200 || err != nil || len(hist.Runs) != 3 || hist.Runs[0].ID != ap.ID {
		t.Errorf("history: %d %s", status, b)
	}
	status, b = f.do(t, "GET", "", "", "key-c1")
	var list struct {
		TotalResults int
		Feeds        []struct{ LastRun run }
	}
	if err := json.Unmarshal(b, &list); status != 200 || err != nil || list.TotalResults != 1 || list.Feeds[0].LastRun.ID != ap.ID {
		t.Errorf("list: %d %s", status, b)
	}
	if status, b := f.do(t, "DELETE", id, "", "key-c1"); status != 204 {
		t.Errorf("remove: %d %s", status, b)
	}
	if status, _ := f.do(t, "GET", id, "", "key-c1"); status != 404 {
		t.Errorf("a removed feed: %d, want 404", status)
	}
	if n := selectedTitles(t, f); n != 1 {
		t.Errorf("%d titles selected after the feed's removal, want 1 (they stay)", n)
	}
}

// selectedTitles counts the titles of Alpha Journals c1 selects.
func selectedTitles(t *testing.T, f *fixture) int {
	t.Helper()
	p, err := f.st.Package(t.Context(), "c1", f.fx.AlphaVendor, f.fx.AlphaJournals)
	if err != nil {
		t.Fatal(err)
	}
	return p.SelectedCount
}
