package holdingsapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/httpapi/apitest"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata")

// Keys of the fixture's customers. Never real keys.
const (
	key1 = "test-key-customer-one"
	key2 = "test-key-customer-two"
)

// fixture is a running server over a store of the test run's kind
// (package testdb) filled through the store methods, with the ids the import gave out. Every exchange with srv is
// checked against the API description (package apitest).
type fixture struct {
	srv     *httptest.Server
	handler http.Handler
	log     *apitest.Buffer
	store   kb.Store // the store behind the server, for checks the API cannot make
	dsn     string   // the store's --db value, for testdb.Exec

	cust1Vendor, cust2Vendor int64 // the customers' own vendors

	alphaVendor, betaVendor int64
	alphaJournals           int64 // Alpha Publishing / Alpha Journals, selected by cust1
	betaBooks               int64 // Beta Media / Beta Books
	betaEmpty               int64 // Beta Media / Beta Empty, no titles

	testing   int64 // "Journal of Testing": in Alpha Journals and Beta Books
	acta      int64 // "Acta Testica": in Alpha Journals, hidden by cust1
	series    int64 // "Testing Monographs": a book series in Beta Books
	cookbook  int64 // "The Test Cookbook": a book in Beta Books
	nowhere   int64 // an id that is no title
	otherPkgs []int64
}

// kbartRow builds a KBART row from field index → value pairs.
func kbartRow(fields map[int]string) kb.ImportRow {
	var r kb.ImportRow
	for i, v := range fields {
		r.KBART[i] = v
	}
	return r
}

// rows turns a slice into the iterator ImportPackage reads.
func rows(rs ...kb.ImportRow) func() (kb.ImportRow, error) {
	return storetest.RowsOf(len(rs), func(i int) kb.ImportRow {
		rs[i].Line = i + 1
		return rs[i]
	})
}

// KBART field indexes used by the fixture.
const (
	fTitle     = 0
	fPrint     = 1
	fOnline    = 2
	fFirstDate = 3
	fLastDate  = 6
	fURL       = 9
	fEmbargo   = 12
	fPublisher = 15
	fPubType   = 16
)

// newFixture builds a fixture in a new, empty store of the test run's kind,
// served on the spec's wire, and stops it when the test ends.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	return newFixtureWire(t, web.WireSpec)
}

// newFixtureWire builds a fixture whose server speaks wire.
func newFixtureWire(t *testing.T, wire web.Wire) *fixture {
	t.Helper()
	dsn := testdb.NewDSN(t)
	st := storetest.Searched(t.Context(), testdb.OpenDSN(t, dsn))
	f, err := buildFixture(t.Context(), st, dsn, wire)
	if err != nil {
		t.Fatalf("build fixture: %v", err)
	}
	f.srv = apitest.NewServer(t, f.handler)
	f.store = st
	t.Cleanup(func() {
		f.srv.Close()
		if err := st.Close(); err != nil {
			t.Errorf("close store: %v", err)
		}
		// The server's errors say why a request failed with a 500.
		if t.Failed() {
			for line := range strings.Lines(f.log.String()) {
				if strings.Contains(line, "level=ERROR") {
					t.Logf("server log: %s", strings.TrimSuffix(line, "\n"))
				}
			}
		}
	})
	return f
}

// buildFixture fills the empty store st (whose --db value is dsn) and
// makes the handler that serves it on wire.
func buildFixture(ctx context.Context, st kb.Store, dsn string, wire web.Wire) (*fixture, error) {
	f := &fixture{log: &apitest.Buffer{}, dsn: dsn}

	c1, err := st.AddCustomer(ctx, "cust1", "Customer One Library")
	if err != nil {
		return nil, err
	}
	c2, err := st.AddCustomer(ctx, "cust2", "Customer Two Library")
	if err != nil {
		return nil, err
	}
	f.cust1Vendor, f.cust2Vendor = c1.VendorID, c2.VendorID
	if err := st.AddAPIKey(ctx, "cust1", kb.HashAPIKey(key1), kb.Production); err != nil {
		return nil, err
	}
	if err := st.AddAPIKey(ctx, "cust2", kb.HashAPIKey(key2), kb.Production); err != nil {
		return nil, err
	}
	if err := st.AddProxy(ctx, "cust1", kb.Proxy{ID: "EZProxy", Name: "EZProxy", URLMask: "http://ezproxy.example.edu/login?url={targetURL}"}); err != nil {
		return nil, err
	}

	testingRow := kbartRow(map[int]string{
		fTitle: "Journal of Testing", fPrint: "0317-8471", fOnline: "1050-124X",
		fFirstDate: "1995-01-01", fURL: "http://alpha.example.com/jot?a=1&b=2",
		fEmbargo: "P6M", fPublisher: "Alpha Publishing", fPubType: "serial",
	})
	testingRow.Subjects = []kb.Subject{{Type: "TLI", Name: "Software Testing"}}
	testingRow.Contributors = []kb.Contributor{{Type: "Editor", Name: "Tester, Tina"}}
	testingRow.Description = "A journal about tests."
	testingRow.PeerReviewed = true
	actaRow := kbartRow(map[int]string{
		fTitle: "Acta Testica", fPrint: "0028-0836",
		fFirstDate: "2001-01-01", fLastDate: "2010-12-31",
		fPublisher: "Alpha Publishing", fPubType: "serial",
	})
	alpha, err := st.ImportPackage(ctx, kb.PackageSpec{VendorName: "Alpha Publishing", PackageName: "Alpha Journals",
		ContentType: kb.ContentEJournal, PackageType: kb.PackageSelectable}, rows(testingRow, actaRow))
	if err != nil {
		return nil, err
	}
	f.alphaVendor, f.alphaJournals = alpha.VendorID, alpha.PackageID

	seriesRow := kbartRow(map[int]string{
		fTitle: "Testing Monographs", fOnline: "0036-8075",
		fPublisher: "Beta Media", fPubType: "serial",
	})
	seriesRow.PubType = kb.ResourceBookSeries
	cookbookRow := kbartRow(map[int]string{
		fTitle: "The Test Cookbook", fOnline: "978-0-306-40615-7",
		fPublisher: "Beta Media", fPubType: "monograph",
	})
	cookbookRow.Contributors = []kb.Contributor{{Type: "Author", Name: "Cook, Carla"}}
	testingAgain := kbartRow(map[int]string{
		fTitle: "Journal of Testing", fOnline: "1050-124X",
		fFirstDate: "2000-01-01", fPublisher: "Alpha Publishing", fPubType: "serial",
	})
	beta, err := st.ImportPackage(ctx, kb.PackageSpec{VendorName: "Beta Media", PackageName: "Beta Books",
		ContentType: kb.ContentEBook, PackageType: kb.PackageComplete}, rows(seriesRow, cookbookRow, testingAgain))
	if err != nil {
		return nil, err
	}
	f.betaVendor, f.betaBooks = beta.VendorID, beta.PackageID
	empty, err := st.ImportPackage(ctx, kb.PackageSpec{VendorName: "Beta Media", PackageName: "Beta Empty",
		ContentType: kb.ContentOnlineReference, PackageType: kb.PackageVariable}, rows())
	if err != nil {
		return nil, err
	}
	f.betaEmpty = empty.PackageID

	// Title ids: found through the store, since the import reports none.
	titles, err := st.Titles(ctx, "cust1", kb.TitleQuery{Selection: kb.SelectionAll, OrderBy: kb.OrderName, Page: kb.Page{Count: 100, Number: 1}})
	if err != nil {
		return nil, err
	}
	ids := map[string]*int64{"Journal of Testing": &f.testing, "Acta Testica": &f.acta, "Testing Monographs": &f.series, "The Test Cookbook": &f.cookbook}
	for _, tt := range titles.Titles {
		if p, ok := ids[tt.Name]; ok {
			*p = tt.ID
			f.nowhere = max(f.nowhere, tt.ID)
		}
	}
	for name, p := range ids {
		if *p == 0 {
			return nil, fmt.Errorf("title %q not listed by the store", name)
		}
	}
	f.nowhere += 1000

	// cust1 selects Alpha Journals and hides Acta Testica in it.
	if err := st.SetPackageState(ctx, "cust1", f.alphaJournals, kb.PackageState{Selected: true}); err != nil {
		return nil, err
	}
	if err := st.SetResourceState(ctx, "cust1", f.alphaJournals, f.acta, kb.ResourceState{Hidden: true}); err != nil {
		return nil, err
	}

	logger := slog.New(slog.NewTextHandler(f.log, &slog.HandlerOptions{Level: slog.LevelInfo}))
	f.handler = httpapi.NewServer(storetest.SearchOf(ctx, st), httpapi.Deps{Store: storetest.Raw(st), Logger: logger, Wire: wire})
	return f, nil
}

// response is an answer of the server.
type response struct {
	status int
	header http.Header
	body   []byte
}

// get sends a GET with the key (none when empty).
func (f *fixture) get(t *testing.T, path, key string) response {
	t.Helper()
	return f.do(t, http.MethodGet, path, key)
}

func (f *fixture) do(t *testing.T, method, path, key string) response {
	t.Helper()
	return f.send(t, method, path, key, nil)
}

// send sends a request with the key (none when empty) and a JSON body
// (none when nil).
func (f *fixture) send(t *testing.T, method, path, key string, body io.Reader) response {
	t.Helper()
	ctype := ""
	if body != nil {
		ctype = "application/json"
	}
	res := newResponse(apitest.Do(t, f.srv.Client(), method, f.srv.URL+path, body, "Content-Type", ctype, "x-api-key", key))
	noBody := res.status == http.StatusNoContent || res.status == http.StatusAccepted
	if ct := res.header.Get("Content-Type"); method != http.MethodHead && !noBody && ct != "application/json; charset=utf-8" {
		t.Errorf("%s %s: Content-Type = %q", method, path, ct)
	}
	return res
}

// newResponse holds an answer as apitest.Do returns it.
func newResponse(res *http.Response, body []byte) response {
	return response{status: res.StatusCode, header: res.Header, body: body}
}

// object decodes a JSON object body.
func (r response) object(t *testing.T) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(r.body, &m); err != nil {
		t.Fatalf("body %s is not a JSON object: %v", r.body, err)
	}
	return m
}

// errorModel is the wire form of an error.
type errorModel struct {
	Code    int    `json:"code"`
	Subcode int    `json:"subcode"`
	Message string `json:"message"`
}

// errors decodes an error array body of exactly one error.
func (r response) errors(t *testing.T) errorModel {
	t.Helper()
	var es []errorModel
	if err := json.Unmarshal(r.body, &es); err != nil || len(es) != 1 {
		t.Fatalf("body %s is not an array of one error: %v", r.body, err)
	}
	return es[0]
}

// errorObject decodes a single-object error body.
func (r response) errorObject(t *testing.T) errorModel {
	t.Helper()
	var e errorModel
	if err := json.Unmarshal(r.body, &e); err != nil {
		t.Fatalf("body %s is not an error object: %v", r.body, err)
	}
	return e
}

// path builds a path under /rm/rmaccounts/cust1.
func p(format string, args ...any) string {
	return "/rm/rmaccounts/cust1" + fmt.Sprintf(format, args...)
}

// names returns the string field key of each object in the array field list.
func names(t *testing.T, obj map[string]any, list, key string) []string {
	t.Helper()
	items, ok := obj[list].([]any)
	if !ok {
		t.Fatalf("%s is not an array in %v", list, obj)
	}
	out := []string{}
	for _, it := range items {
		out = append(out, fmt.Sprint(it.(map[string]any)[key]))
	}
	return out
}

func TestRoutes(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name  string
		path  string
		check func(t *testing.T, obj map[string]any)
	}{
		{"root with slash", p("/"), func(t *testing.T, o map[string]any) {
			if got := o["proxy"].(map[string]any)["id"]; got != "<n>" {
				t.Errorf("proxy id = %v, want <n>", got)
			}
			if got := len(o["labels"].([]any)); got != 5 {
				t.Errorf("%d labels, want 5", got)
			}
		}},
		{"root without slash", p(""), func(t *testing.T, o map[string]any) {
			if _, ok := o["labels"]; !ok {
				t.Errorf("no labels in %v", o)
			}
		}},
		{"proxies", p("/proxies"), func(t *testing.T, o map[string]any) {
			if diff := cmp.Diff([]string{"<n>", "EZProxy"}, names(t, o, "proxies", "id")); diff != "" {
				t.Errorf("proxy ids (-want +got):\n%s", diff)
			}
		}},
		{"vendors", p("/vendors"), func(t *testing.T, o map[string]any) {
			if diff := cmp.Diff([]string{"Alpha Publishing", "Beta Media", "Customer One Library"}, names(t, o, "vendors", "vendorName")); diff != "" {
				t.Errorf("vendors (-want +got):\n%s", diff)
			}
			if o["totalResults"] != 3.0 {
				t.Errorf("totalResults = %v, want 3", o["totalResults"])
			}
		}},
		{"vendors search", p("/vendors?search=beta"), func(t *testing.T, o map[string]any) {
			if diff := cmp.Diff([]string{"Beta Media"}, names(t, o, "vendors", "vendorName")); diff != "" {
				t.Errorf("vendors (-want +got):\n%s", diff)
			}
		}},
		{"vendors page 2", p("/vendors?count=2&offset=2&orderby=vendorname"), func(t *testing.T, o map[string]any) {
			if diff := cmp.Diff([]string{"Customer One Library"}, names(t, o, "vendors", "vendorName")); diff != "" {
				t.Errorf("vendors (-want +got):\n%s", diff)
			}
			if o["totalResults"] != 3.0 {
				t.Errorf("totalResults = %v, want 3", o["totalResults"])
			}
		}},
		{"vendor", p("/vendors/%d", f.betaVendor), func(t *testing.T, o map[string]any) {
			if o["vendorName"] != "Beta Media" || o["packagesTotal"] != 2.0 || o["packagesSelected"] != 0.0 {
				t.Errorf("vendor = %v", o)
			}
		}},
		{"own vendor", p("/vendors/%d", f.cust1Vendor), func(t *testing.T, o map[string]any) {
			if o["isCustomer"] != true {
				t.Errorf("isCustomer = %v, want true", o["isCustomer"])
			}
		}},
		{"packages", p("/packages"), func(t *testing.T, o map[string]any) {
			if diff := cmp.Diff([]string{"Alpha Journals", "Beta Books", "Beta Empty"}, names(t, o, "packagesList", "packageName")); diff != "" {
				t.Errorf("packages (-want +got):\n%s", diff)
			}
		}},
		{"packages selected", p("/packages?selection=selected"), func(t *testing.T, o map[string]any) {
			if diff := cmp.Diff([]string{"Alpha Journals"}, names(t, o, "packagesList", "packageName")); diff != "" {
				t.Errorf("packages (-want +got):\n%s", diff)
			}
		}},
		{"packages by content type", p("/packages?contenttype=ebook"), func(t *testing.T, o map[string]any) {
			if diff := cmp.Diff([]string{"Beta Books"}, names(t, o, "packagesList", "packageName")); diff != "" {
				t.Errorf("packages (-want +got):\n%s", diff)
			}
		}},
		{"packages search", p("/packages?search=journals"), func(t *testing.T, o map[string]any) {
			if diff := cmp.Diff([]string{"Alpha Journals"}, names(t, o, "packagesList", "packageName")); diff != "" {
				t.Errorf("packages (-want +got):\n%s", diff)
			}
		}},
		{"vendor packages", p("/vendors/%d/packages", f.betaVendor), func(t *testing.T, o map[string]any) {
			if diff := cmp.Diff([]string{"Beta Books", "Beta Empty"}, names(t, o, "packagesList", "packageName")); diff != "" {
				t.Errorf("packages (-want +got):\n%s", diff)
			}
		}},
		{"vendor packages empty filter", p("/vendors/%d/packages?selection=selected", f.betaVendor), func(t *testing.T, o map[string]any) {
			if o["totalResults"] != 0.0 || len(o["packagesList"].([]any)) != 0 {
				t.Errorf("list = %v, want empty", o)
			}
		}},
		{"package", p("/vendors/%d/packages/%d", f.alphaVendor, f.alphaJournals), func(t *testing.T, o map[string]any) {
			if o["packageName"] != "Alpha Journals" || o["isSelected"] != true || o["contentType"] != "EJournal" ||
				o["packageType"] != "Selectable" || o["titleCount"] != 2.0 {
				t.Errorf("package = %v", o)
			}
		}},
		{"titles", p("/titles"), func(t *testing.T, o map[string]any) {
			if diff := cmp.Diff([]string{"Acta Testica", "Journal of Testing", "Testing Monographs", "The Test Cookbook"}, names(t, o, "titles", "titleName")); diff != "" {
				t.Errorf("titles (-want +got):\n%s", diff)
			}
		}},
		{"titles search", p("/titles?search=cookbook"), func(t *testing.T, o map[string]any) {
			if diff := cmp.Diff([]string{"The Test Cookbook"}, names(t, o, "titles", "titleName")); diff != "" {
				t.Errorf("titles (-want +got):\n%s", diff)
			}
		}},
		{"titles by isxn", p("/titles?search=0028-0836&searchfield=isxn"), func(t *testing.T, o map[string]any) {
			if diff := cmp.Diff([]string{"Acta Testica"}, names(t, o, "titles", "titleName")); diff != "" {
				t.Errorf("titles (-want +got):\n%s", diff)
			}
		}},
		{"titles by publisher", p("/titles?search=beta&searchfield=publisher&orderby=titlename"), func(t *testing.T, o map[string]any) {
			if diff := cmp.Diff([]string{"Testing Monographs", "The Test Cookbook"}, names(t, o, "titles", "titleName")); diff != "" {
				t.Errorf("titles (-want +got):\n%s", diff)
			}
		}},
		{"titles by resource type", p("/titles?resourcetype=bookseries"), func(t *testing.T, o map[string]any) {
			if diff := cmp.Diff([]string{"Testing Monographs"}, names(t, o, "titles", "titleName")); diff != "" {
				t.Errorf("titles (-want +got):\n%s", diff)
			}
		}},
		{"titles selected", p("/titles?selection=selected"), func(t *testing.T, o map[string]any) {
			if diff := cmp.Diff([]string{"Acta Testica", "Journal of Testing"}, names(t, o, "titles", "titleName")); diff != "" {
				t.Errorf("titles (-want +got):\n%s", diff)
			}
		}},
		{"package titles", p("/vendors/%d/packages/%d/titles", f.betaVendor, f.betaBooks), func(t *testing.T, o map[string]any) {
			if diff := cmp.Diff([]string{"Journal of Testing", "Testing Monographs", "The Test Cookbook"}, names(t, o, "titles", "titleName")); diff != "" {
				t.Errorf("titles (-want +got):\n%s", diff)
			}
			for _, it := range o["titles"].([]any) {
				rs := it.(map[string]any)["customerResourcesList"].([]any)
				if len(rs) != 1 || rs[0].(map[string]any)["packageId"] != float64(f.betaBooks) {
					t.Errorf("resources of a package title list = %v, want only the package's", rs)
				}
			}
		}},
		{"empty package titles", p("/vendors/%d/packages/%d/titles", f.betaVendor, f.betaEmpty), func(t *testing.T, o map[string]any) {
			if o["totalResults"] != 0.0 || len(o["titles"].([]any)) != 0 {
				t.Errorf("list = %v, want empty", o)
			}
		}},
		{"title", p("/titles/%d", f.testing), func(t *testing.T, o map[string]any) {
			if o["titleName"] != "Journal of Testing" || o["pubType"] != "Journal" || len(o["customerResourcesList"].([]any)) != 2 {
				t.Errorf("title = %v", o)
			}
		}},
		{"resource", p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.alphaJournals, f.acta), func(t *testing.T, o map[string]any) {
			rs := o["customerResourcesList"].([]any)
			if len(rs) != 1 {
				t.Fatalf("resources = %v, want one", rs)
			}
			r := rs[0].(map[string]any)
			vis := r["visibilityData"].(map[string]any)
			if r["isSelected"] != true || vis["isHidden"] != true || vis["reason"] != kb.ReasonHiddenByCustomer {
				t.Errorf("resource = %v, want selected and hidden by the customer", r)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.get(t, tt.path, key1)
			if res.status != http.StatusOK {
				t.Fatalf("GET %s: status %d, body %s", tt.path, res.status, res.body)
			}
			tt.check(t, res.object(t))
		})
	}
}

// TestOrdering checks that a search term orders by relevance unless the
// client asks for name order.
func TestOrdering(t *testing.T) {
	f := newFixture(t)
	res := f.get(t, p("/titles?search=testing&orderby=titlename"), key1)
	if res.status != 200 {
		t.Fatalf("status %d: %s", res.status, res.body)
	}
	if diff := cmp.Diff([]string{"Journal of Testing", "Testing Monographs"}, names(t, res.object(t), "titles", "titleName")); diff != "" {
		t.Errorf("name order (-want +got):\n%s", diff)
	}
	res = f.get(t, p("/titles?search=testing"), key1)
	if res.status != 200 {
		t.Fatalf("status %d: %s", res.status, res.body)
	}
	if got := names(t, res.object(t), "titles", "titleName"); len(got) != 2 {
		t.Errorf("relevance order: %v, want 2 titles", got)
	}
}

// allRoutes lists one request path of every route, with valid ids.
func allRoutes(f *fixture) []string {
	return []string{
		p("/"),
		p(""),
		p("/proxies"),
		p("/vendors"),
		p("/vendors/%d", f.alphaVendor),
		p("/packages"),
		p("/vendors/%d/packages", f.alphaVendor),
		p("/vendors/%d/packages/%d", f.alphaVendor, f.alphaJournals),
		p("/titles"),
		p("/titles/%d", f.testing),
		p("/vendors/%d/packages/%d/titles", f.alphaVendor, f.alphaJournals),
		p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.alphaJournals, f.testing),
	}
}

func TestAuth(t *testing.T) {
	f := newFixture(t)
	for _, path := range allRoutes(f) {
		t.Run(path, func(t *testing.T) {
			res := f.get(t, path, "")
			if res.status != 401 {
				t.Errorf("missing key: status %d, want 401", res.status)
			}
			if diff := cmp.Diff(errorModel{Code: 1003, Message: "Missing x-api-key header."}, res.errors(t)); diff != "" {
				t.Errorf("missing key (-want +got):\n%s", diff)
			}

			res = f.get(t, path, "no-such-key")
			if res.status != 401 {
				t.Errorf("unknown key: status %d, want 401", res.status)
			}
			if diff := cmp.Diff(errorModel{Code: 1003, Message: "Invalid APIKEY"}, res.errors(t)); diff != "" {
				t.Errorf("unknown key (-want +got):\n%s", diff)
			}

			res = f.get(t, path, key2)
			if res.status != 403 {
				t.Errorf("other customer's key: status %d, want 403", res.status)
			}
			want := errorModel{Code: 1004, Message: "The API key is not authorized for customer cust1."}
			var got errorModel
			if path == p("/") || path == p("") {
				got = res.errorObject(t) // the spec's 403error of GET {custid}/
			} else {
				got = res.errors(t)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("other customer's key (-want +got):\n%s", diff)
			}
			for _, leak := range []string{"Alpha", "Beta", "Testing", "EZProxy", "labels"} {
				if bytes.Contains(res.body, []byte(leak)) {
					t.Errorf("403 body leaks %q: %s", leak, res.body)
				}
			}

			if res := f.get(t, path, key1); res.status != 200 {
				t.Errorf("own key: status %d, body %s", res.status, res.body)
			}
		})
	}
	// cust2 reads its own root with its own key.
	if res := f.get(t, "/rm/rmaccounts/cust2/", key2); res.status != 200 {
		t.Errorf("cust2 own root: status %d, body %s", res.status, res.body)
	}
	if strings.Contains(f.log.String(), key1) || strings.Contains(f.log.String(), key2) {
		t.Error("the request log holds an API key")
	}
}

func TestParameterValidation(t *testing.T) {
	f := newFixture(t)
	bad := []struct {
		path, param string
	}{
		{p("/vendors?count=0"), "count"},
		{p("/vendors?count=101"), "count"},
		{p("/vendors?count=ten"), "count"},
		{p("/vendors?offset=0"), "offset"},
		{p("/vendors?offset=-1"), "offset"},
		{p("/vendors?orderby=packagename"), "orderby"},
		{p("/packages?selection=some"), "selection"},
		{p("/packages?selection=4"), "selection"},
		{p("/packages?contenttype=video"), "contenttype"},
		{p("/packages?orderby=titlename"), "orderby"},
		{p("/packages?count=1000"), "count"},
		{p("/vendors/%d/packages?contenttype=8", f.alphaVendor), "contenttype"},
		{p("/vendors/%d/packages?orderby=x", f.alphaVendor), "orderby"},
		{p("/titles?searchfield=author"), "searchfield"},
		{p("/titles?searchtype=fuzzy"), "searchtype"},
		{p("/titles?resourcetype=podcast"), "resourcetype"},
		{p("/titles?resourcetype=15"), "resourcetype"},
		{p("/titles?selection=none"), "selection"},
		{p("/titles?orderby=vendorname"), "orderby"},
		{p("/titles?offset=x"), "offset"},
		{p("/titles?packageidfilter=1,x"), "packageidfilter"},
		{p("/titles?packageidfilter=0"), "packageidfilter"},
		{p("/vendors/%d/packages/%d/titles?searchfield=9", f.alphaVendor, f.alphaJournals), "searchfield"},
		{p("/vendors/%d/packages/%d/titles?count=0", f.alphaVendor, f.alphaJournals), "count"},
		{p("/vendors/x"), "vendorid"},
		{p("/vendors/0"), "vendorid"},
		{p("/vendors/-3"), "vendorid"},
		{p("/vendors/99999999999999999999999"), "vendorid"},
		{p("/vendors/1.5/packages"), "vendorid"},
		{p("/vendors/%d/packages/abc", f.alphaVendor), "packageid"},
		{p("/vendors/abc/packages/%d", f.alphaJournals), "vendorid"},
		{p("/vendors/%d/packages/0/titles", f.alphaVendor), "packageid"},
		{p("/titles/abc"), "kbid"},
		{p("/titles/0"), "kbid"},
		{p("/vendors/%d/packages/%d/titles/x1", f.alphaVendor, f.alphaJournals), "kbid"},
	}
	for _, tt := range bad {
		t.Run(tt.path, func(t *testing.T) {
			res := f.get(t, tt.path, key1)
			if res.status != 400 {
				t.Fatalf("status %d, want 400; body %s", res.status, res.body)
			}
			e := res.errors(t)
			if e.Code != 1006 || !strings.HasPrefix(e.Message, "Parameter "+tt.param+" ") {
				t.Errorf("error %+v, want code 1006 naming parameter %s", e, tt.param)
			}
		})
	}

	good := []string{
		p("/vendors?orderby=0&count=1&offset=1"),
		p("/vendors?orderby=1"),
		p("/vendors?orderby=VendorName&search="),
		p("/vendors?search&unknown=1"),
		p("/packages?selection=1&contenttype=4&orderby=1"),
		p("/packages?selection=NotSelected&contenttype=EJOURNAL&orderby=PackageName"),
		p("/packages?selection=&contenttype=&orderby=&count=&offset="),
		p("/packages?selection=3"),
		p("/titles?searchfield=0&searchtype=1&selection=0&resourcetype=9&orderby=0"),
		p("/titles?searchfield=ISXN&searchtype=exactmatch&search=0317-8471&resourcetype=Journal&selection=all"),
		p("/titles?searchfield=subject&search=software&searchtype=any"),
		p("/titles?searchtype=beginswith&search=acta"),
		p("/titles?searchfield=&searchtype=&resourcetype=&selection="),
		p("/vendors/%d/packages/%d/titles?searchfield=3&searchtype=2&selection=2&resourcetype=14&orderby=titlename", f.alphaVendor, f.alphaJournals),
	}
	for _, path := range good {
		t.Run(path, func(t *testing.T) {
			if res := f.get(t, path, key1); res.status != 200 {
				t.Errorf("status %d, want 200; body %s", res.status, res.body)
			}
		})
	}
}

func TestNotFound(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		path, message string
	}{
		{p("/vendors/%d", f.nowhere), "Vendor not found"},
		{p("/vendors/%d", f.cust2Vendor), "Vendor not found"}, // another customer's own vendor
		{p("/vendors/%d/packages", f.nowhere), "Vendor not found"},
		{p("/vendors/%d/packages", f.cust2Vendor), "Vendor not found"},
		{p("/vendors/%d/packages/%d", f.nowhere, f.alphaJournals), "Vendor not found"},
		{p("/vendors/%d/packages/%d", f.alphaVendor, f.nowhere), "Package not found"},
		{p("/vendors/%d/packages/%d", f.betaVendor, f.alphaJournals), "Package not found"}, // package of another vendor
		{p("/vendors/%d/packages/%d/titles", f.alphaVendor, f.nowhere), "Package not found"},
		{p("/vendors/%d/packages/%d/titles", f.betaVendor, f.alphaJournals), "Package not found"},
		{p("/titles/%d", f.nowhere), "Title not found"},
		{p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.alphaJournals, f.nowhere), "Title not found"},
		{p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.alphaJournals, f.cookbook), "Title not found"}, // title not in the package
		{p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.nowhere, f.testing), "Package not found"},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			res := f.get(t, tt.path, key1)
			if res.status != 404 {
				t.Fatalf("status %d, want 404; body %s", res.status, res.body)
			}
			if diff := cmp.Diff(errorModel{Code: 1001, Message: tt.message}, res.errors(t)); diff != "" {
				t.Errorf("error (-want +got):\n%s", diff)
			}
		})
	}
}

func TestUnknownRouteAndMethod(t *testing.T) {
	f := newFixture(t)
	res := f.get(t, p("/nothing/here"), key1)
	if res.status != 404 {
		t.Errorf("unknown route: status %d", res.status)
	}
	if diff := cmp.Diff(errorModel{Code: 1001, Message: "No route for GET /rm/rmaccounts/cust1/nothing/here"}, res.errors(t)); diff != "" {
		t.Errorf("unknown route (-want +got):\n%s", diff)
	}
	res = f.get(t, "/nothing", "")
	if res.status != 404 || res.errors(t).Code != 1001 {
		t.Errorf("GET /nothing: %d %s", res.status, res.body)
	}

	for _, tt := range []struct{ method, path, allow string }{
		{http.MethodPost, p("/vendors"), "GET, HEAD"},
		{http.MethodDelete, p("/titles/%d", f.testing), "GET, HEAD"},
		{http.MethodPatch, p("/"), "GET, HEAD, PUT"},
	} {
		res := f.do(t, tt.method, tt.path, key1)
		if res.status != 405 {
			t.Errorf("%s %s: status %d, want 405", tt.method, tt.path, res.status)
			continue
		}
		if allow := res.header.Get("Allow"); allow != tt.allow {
			t.Errorf("%s %s: Allow = %q, want %s", tt.method, tt.path, allow, tt.allow)
		}
		if e := res.errors(t); e.Code != 1007 {
			t.Errorf("%s %s: error %+v, want code 1007", tt.method, tt.path, e)
		}
	}
}

// TestGolden compares representative answers with testdata/*.golden.json;
// go test -run TestGolden -update rewrites them.
func TestGolden(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		name   string
		path   string
		key    string
		status int
	}{
		{"root", p("/"), key1, 200},
		{"proxies", p("/proxies"), key1, 200},
		{"vendor_list", p("/vendors"), key1, 200},
		{"vendor_detail", p("/vendors/%d", f.alphaVendor), key1, 200},
		{"package_list", p("/vendors/%d/packages", f.betaVendor), key1, 200},
		{"package_detail", p("/vendors/%d/packages/%d", f.alphaVendor, f.alphaJournals), key1, 200},
		{"title_list", p("/vendors/%d/packages/%d/titles", f.betaVendor, f.betaBooks), key1, 200},
		{"title_detail", p("/titles/%d", f.testing), key1, 200},
		{"resource_detail", p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.alphaJournals, f.acta), key1, 200},
		{"error_not_found", p("/vendors/%d", f.nowhere), key1, 404},
		{"error_bad_parameter", p("/titles?searchtype=fuzzy"), key1, 400},
		{"error_forbidden_root", p("/"), key2, 403},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.get(t, tt.path, tt.key)
			if res.status != tt.status {
				t.Fatalf("status %d, want %d; body %s", res.status, tt.status, res.body)
			}
			var got bytes.Buffer
			if err := json.Indent(&got, res.body, "", "  "); err != nil {
				t.Fatalf("body is not JSON: %v\n%s", err, res.body)
			}
			file := filepath.Join("testdata", tt.name+".golden.json")
			if *update {
				if err := os.MkdirAll("testdata", 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, got.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if errors.Is(err, os.ErrNotExist) {
				t.Fatalf("%s is missing; run go test -run TestGolden -update", file)
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(want), got.String()); diff != "" {
				t.Errorf("%s differs (-want +got):\n%s", file, diff)
			}
		})
	}
}

// TestRequestLog checks the one log line per request.
func TestRequestLog(t *testing.T) {
	f := newFixture(t)
	path := p("/vendors/%d", f.alphaVendor)
	f.get(t, path, key1)
	var line string
	for _, l := range strings.Split(f.log.String(), "\n") {
		if strings.Contains(l, "path="+path+" ") {
			line = l
		}
	}
	for _, part := range []string{"msg=request", "method=GET", `route="GET /rm/rmaccounts/{custid}/vendors/{vendorid}"`, "status=200", "custid=cust1", "duration="} {
		if !strings.Contains(line, part) {
			t.Errorf("log line %q lacks %s", line, part)
		}
	}
}

// TestCustomerIsolation checks that one customer's selections do not show
// in another's answers.
func TestCustomerIsolation(t *testing.T) {
	f := newFixture(t)
	cust2 := func(format string, args ...any) string {
		return "/rm/rmaccounts/cust2" + fmt.Sprintf(format, args...)
	}
	res := f.get(t, cust2("/vendors/%d/packages/%d", f.alphaVendor, f.alphaJournals), key2)
	if res.status != 200 {
		t.Fatalf("status %d: %s", res.status, res.body)
	}
	if o := res.object(t); o["isSelected"] != false || o["selectedCount"] != 0.0 {
		t.Errorf("cust2 sees cust1's selection: %v", o)
	}
	res = f.get(t, cust2("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.alphaJournals, f.acta), key2)
	if res.status != 200 {
		t.Fatalf("status %d: %s", res.status, res.body)
	}
	r := res.object(t)["customerResourcesList"].([]any)[0].(map[string]any)
	if r["isSelected"] != false || r["visibilityData"].(map[string]any)["isHidden"] != false {
		t.Errorf("cust2 sees cust1's resource state: %v", r)
	}
	res = f.get(t, cust2("/titles?selection=selected"), key2)
	if o := res.object(t); o["totalResults"] != 0.0 {
		t.Errorf("cust2 selected titles: %v", o)
	}
	res = f.get(t, cust2("/vendors"), key2)
	if got := names(t, res.object(t), "vendors", "vendorName"); !cmp.Equal(got, []string{"Alpha Publishing", "Beta Media", "Customer Two Library"}) {
		t.Errorf("cust2 vendors = %v", got)
	}
}

// TestPackageIDFilter checks the title list's packageidfilter: the titles
// in at least one of the packages, with or without a search; a package
// the customer may not see (another customer's custom package) adds
// nothing.
func TestPackageIDFilter(t *testing.T) {
	f := newFixture(t)
	names := func(path string) []string {
		t.Helper()
		var out []string
		for _, tt := range f.read(t, path)["titles"].([]any) {
			out = append(out, tt.(map[string]any)["titleName"].(string))
		}
		return out
	}
	for _, tt := range []struct {
		query string
		want  []string
	}{
		{fmt.Sprintf("packageidfilter=%d", f.alphaJournals), []string{"Acta Testica", "Journal of Testing"}},
		{fmt.Sprintf("packageidfilter=%d,%d", f.betaBooks, f.alphaJournals), []string{"Acta Testica", "Journal of Testing", "Testing Monographs", "The Test Cookbook"}},
		{fmt.Sprintf("packageidfilter=%d&search=testing", f.betaBooks), []string{"Journal of Testing", "Testing Monographs"}},
		{fmt.Sprintf("packageidfilter=%d&resourcetype=book", f.betaBooks), []string{"The Test Cookbook"}},
		{fmt.Sprintf("packageidfilter=%d", f.nowhere), nil},
	} {
		got := names(p("/titles?orderby=titlename&") + tt.query)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s: %q, want %q", tt.query, got, tt.want)
		}
	}
	// Inside a package's title list the filter applies too, total included.
	for _, tt := range []struct {
		filter int64
		want   float64
	}{{f.betaBooks, 1}, {f.betaEmpty, 0}, {f.alphaJournals, 2}} {
		l := f.read(t, p("/vendors/%d/packages/%d/titles?packageidfilter=%d", f.alphaVendor, f.alphaJournals, tt.filter))
		if got := l["totalResults"]; got != tt.want || len(l["titles"].([]any)) != int(tt.want) {
			t.Errorf("package titles filtered by %d: totalResults %v, %d titles; want %v", tt.filter, got, len(l["titles"].([]any)), tt.want)
		}
	}
}
