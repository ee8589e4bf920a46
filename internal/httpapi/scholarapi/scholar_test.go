package scholarapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/httpapi/apitest"
	"github.com/kbserver/kbserver/internal/httpapi/scholarapi"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// countingStore counts the reads of the serials, to see when the
// holdings files are written.
type countingStore struct {
	kb.Store
	reads atomic.Int64
}

func (s *countingStore) CollectionSerials(ctx context.Context, custID string, fn func(*kb.SerialHolding) error) error {
	s.reads.Add(1)
	return s.Store.CollectionSerials(ctx, custID, fn)
}

// scholarFixture is a real server over a real store (of the test run's
// kind, package testdb). Customer 1001 (profile 1001.main.az, guest;
// profile 1001.main.pw, password "pw"; named "Library 1001") holds:
//
//	Care Press / Nursing Journals (EJournal), selected whole:
//	  Journal of Nursing         0317-8471, 1050-124X; 1990 v1 i1 - 1999 v10 i4 and 2005 v16 -, embargo 6 months
//	  Custom Covered Quarterly   0036-8075; custom coverage 2001-03-15 - 2004-06-30, custom embargo 1 year
//	  Hidden Nursing Gem         2049-3630 (hidden)
//	  Deselected Nursing Digest  0000-0019 (deselected)
//	  Nursing Without Numbers    no ISSN
//	  Nursing Facts              a book
//	Care Press / Health Books (EBook), not selected:
//	  Journal of Nursing         selected alone, no coverage
//	  Nursing Atlas              a book
//	Other House / Secret Package, selected and hidden:
//	  Secret Review              0028-0836
//	Library 1001 / Local, its custom package:
//	  Local Gazette              newspaper 0140-6736, custom coverage from 2010
//
// Customer 2002 selected every package and has a custom journal of its
// own (Their Bulletin, 1474-547X).
type scholarFixture struct {
	srv   *httptest.Server
	store *countingStore
	st    storetest.Store
	pkgs  map[string]int64
	ids   map[string]int64
	care  int64 // Care Press
}

// row is a KBART row of the fixture.
type row struct {
	title, print, online, first, volFirst, issueFirst, last, volLast, issueLast, embargo, typ string
}

func newScholarFixture(t *testing.T, files *scholarapi.Files) *scholarFixture {
	t.Helper()
	ctx := t.Context()
	st := storetest.Searched(ctx, testdb.Open(t))
	f := &scholarFixture{st: st, pkgs: map[string]int64{}, ids: map[string]int64{}}
	ok := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []string{"1001", "2002"} {
		_, err := st.AddCustomer(ctx, c, "Library "+c)
		ok(err)
	}
	for _, p := range []struct {
		id, password string
		guest        bool
	}{{"az", "", true}, {"pw", "pw", false}} {
		prof := kb.Profile{ID: kb.ProfileID{CustomerID: "1001", GroupID: "main", ProfileID: p.id}, Guest: p.guest}
		if p.password != "" {
			var err error
			prof.PasswordHash, err = kb.HashPassword(p.password)
			ok(err)
		}
		ok(st.SaveProfile(ctx, prof))
	}
	imp := func(vendor, pkg string, ct kb.ContentType, rows []row) kb.ImportResult {
		res, err := st.ImportPackage(ctx, kb.PackageSpec{VendorName: vendor, PackageName: pkg, ContentType: ct},
			storetest.RowsOf(len(rows), func(i int) kb.ImportRow { return kbartRow(i, rows[i]) }))
		ok(err)
		f.pkgs[pkg] = res.PackageID
		return res
	}
	journals := imp("Care Press", "Nursing Journals", kb.ContentEJournal, []row{
		{title: "Journal of Nursing", print: "0317-8471", online: "1050-124X", first: "1990", volFirst: "1", issueFirst: "1",
			last: "1999", volLast: "10", issueLast: "4", embargo: "P6M"},
		{title: "Journal of Nursing", print: "0317-8471", online: "1050-124X", first: "2005-01-01", volFirst: "16", embargo: "P6M"},
		{title: "Custom Covered Quarterly", print: "0036-8075", first: "1980", volFirst: "1", last: "2010", volLast: "31"},
		{title: "Hidden Nursing Gem", print: "2049-3630", first: "2000"},
		{title: "Deselected Nursing Digest", print: "0000-0019", first: "2000"},
		{title: "Nursing Without Numbers", first: "2000"},
		{title: "Nursing Facts", online: "978-0-306-40615-7", typ: "monograph"},
	})
	f.care = journals.VendorID
	books := imp("Care Press", "Health Books", kb.ContentEBook, []row{
		{title: "Journal of Nursing", print: "0317-8471", online: "1050-124X"},
		{title: "Nursing Atlas", online: "0-306-40615-2", typ: "monograph"},
	})
	secret := imp("Other House", "Secret Package", kb.ContentPrint, []row{{title: "Secret Review", print: "0028-0836", first: "1950"}})
	all, err := st.Titles(ctx, "1001", kb.TitleQuery{Page: kb.Page{Count: 100, Number: 1}})
	ok(err)
	for _, tt := range all.Titles {
		f.ids[tt.Name] = tt.ID
	}
	yes, no := true, false
	ok(st.SetPackageState(ctx, "1001", journals.PackageID, kb.PackageState{Selected: true}))
	ok(st.SetResourceState(ctx, "1001", journals.PackageID, f.ids["Hidden Nursing Gem"], kb.ResourceState{Hidden: true}))
	ok(st.SetResourceState(ctx, "1001", journals.PackageID, f.ids["Deselected Nursing Digest"], kb.ResourceState{Selected: &no}))
	ok(st.SetResourceState(ctx, "1001", books.PackageID, f.ids["Journal of Nursing"], kb.ResourceState{Selected: &yes}))
	ok(st.SetPackageState(ctx, "1001", secret.PackageID, kb.PackageState{Selected: true, Hidden: true}))
	ok(st.UpdateResource(ctx, "1001", journals.VendorID, journals.PackageID, f.ids["Custom Covered Quarterly"], kb.ResourceUpdate{
		Selected: true, CustomCoverage: []kb.Coverage{{Begin: "2001-03-15", End: "2004-06-30"}},
		CustomEmbargo: kb.Embargo{Unit: kb.EmbargoYears, Value: 1}}))
	c1, err := st.Customer(ctx, "1001")
	ok(err)
	local, err := st.CreateCustomPackage(ctx, "1001", c1.VendorID, kb.CustomPackage{Name: "Local", ContentType: kb.ContentEJournal})
	ok(err)
	_, err = st.CreateCustomTitle(ctx, "1001", c1.VendorID, local, kb.CustomTitle{TitleFields: kb.TitleFields{
		Name: "Local Gazette", PubType: kb.ResourceNewspaper, URL: "https://town.example/gazette",
		Identifiers: []kb.Identifier{{ID: "0140-6736", Type: kb.IdentISSN, Subtype: kb.SubtypePrint}}},
		CustomCoverage: []kb.Coverage{{Begin: "2010-01-01"}}})
	ok(err)
	for _, p := range []int64{journals.PackageID, books.PackageID, secret.PackageID} {
		ok(st.SetPackageState(ctx, "2002", p, kb.PackageState{Selected: true}))
	}
	c2, err := st.Customer(ctx, "2002")
	ok(err)
	theirs, err := st.CreateCustomPackage(ctx, "2002", c2.VendorID, kb.CustomPackage{Name: "Theirs", ContentType: kb.ContentEJournal})
	ok(err)
	_, err = st.CreateCustomTitle(ctx, "2002", c2.VendorID, theirs, kb.CustomTitle{TitleFields: kb.TitleFields{
		Name: "Their Bulletin", PubType: kb.ResourceJournal, URL: "https://them.example/bulletin",
		Identifiers: []kb.Identifier{{ID: "1474-547X", Type: kb.IdentISSN, Subtype: kb.SubtypePrint}}}})
	ok(err)

	f.store = &countingStore{Store: storetest.Raw(st)}
	if files == nil {
		files = scholarapi.NewFiles(t.TempDir(), 0, nil)
	}
	t.Cleanup(func() { _ = files.Close() })
	f.srv = apitest.NewServer(t, httpapi.NewServer(st.Search, httpapi.Deps{Store: f.store, ScholarFiles: files,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}))
	return f
}

// kbartRow is the import row of a fixture row, its line i+2. The rows of
// a title share its URL: they are one item of the package.
func kbartRow(i int, r row) kb.ImportRow {
	var v [kb.KBARTFieldCount]string
	v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8] = r.title, r.print, r.online, r.first, r.volFirst, r.issueFirst, r.last, r.volLast, r.issueLast
	v[9], v[12], v[15], v[16] = "https://care.example/"+url.PathEscape(r.title), r.embargo, "Care Press", "serial"
	if r.typ != "" {
		v[16] = r.typ
	}
	return kb.ImportRow{Line: i + 2, KBART: v}
}

// get fetches a path of the server with header pairs.
func (f *scholarFixture) get(t *testing.T, path string, header ...string) (*http.Response, []byte) {
	t.Helper()
	return apitest.Do(t, http.DefaultClient, "GET", f.srv.URL+path, nil, header...)
}

// links is an institutional_links.xml as read back.
type links struct {
	Institution string   `xml:"institution"`
	Label       string   `xml:"electronic_link_label"`
	Base        string   `xml:"openurl_base"`
	Options     []string `xml:"openurl_option"`
	URLs        []string `xml:"electronic_holdings>url"`
}

// fetchLinks fetches and parses the profile's institutional_links.xml.
func (f *scholarFixture) fetchLinks(t *testing.T, profile string, header ...string) links {
	t.Helper()
	res, body := f.get(t, "/scholar/"+profile+"/institutional_links.xml", header...)
	if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/xml" {
		t.Fatalf("institutional_links.xml: %d %s %s", res.StatusCode, res.Header.Get("Content-Type"), body)
	}
	var l links
	if err := strictXML(body, &l); err != nil {
		t.Fatalf("institutional_links.xml does not parse: %v\n%s", err, body)
	}
	return l
}

// strictXML decodes b strictly into v.
func strictXML(b []byte, v any) error {
	d := xml.NewDecoder(bytes.NewReader(b))
	d.Strict = true
	return d.Decode(v)
}

// holdings is a holdings file as read back.
type holdings struct {
	Items []struct {
		Title    string   `xml:"title"`
		ISSNs    []string `xml:"issn"`
		Coverage []struct {
			From *issue `xml:"from"`
			To   *issue `xml:"to"`
			Days int    `xml:"embargo>days_not_available"`
		} `xml:"coverage"`
	} `xml:"item"`
}

type issue struct {
	Year   int `xml:"year"`
	Month  int `xml:"month"`
	Volume int `xml:"volume"`
	Issue  int `xml:"issue"`
}

func (i *issue) String() string {
	if i == nil {
		return "-"
	}
	return fmt.Sprintf("%d/%d v%d i%d", i.Year, i.Month, i.Volume, i.Issue)
}

// fetchItems fetches every holdings file the links name (paths on the
// test server) and returns their items, each as one line, sorted, with
// the files' sizes.
func (f *scholarFixture) fetchItems(t *testing.T, l links, header ...string) ([]string, []int) {
	t.Helper()
	var items []string
	var sizes []int
	for _, u := range l.URLs {
		path, ok := strings.CutPrefix(u, f.srv.URL)
		if !ok {
			t.Fatalf("holdings file %s is not on the server %s", u, f.srv.URL)
		}
		res, body := f.get(t, path, header...)
		if res.StatusCode != http.StatusOK || res.Header.Get("Content-Type") != "application/xml" {
			t.Fatalf("%s: %d %s %s", path, res.StatusCode, res.Header.Get("Content-Type"), body)
		}
		sizes = append(sizes, len(body))
		var h holdings
		if err := strictXML(body, &h); err != nil {
			t.Fatalf("%s does not parse: %v", path, err)
		}
		for _, it := range h.Items {
			var cov []string
			for _, c := range it.Coverage {
				cov = append(cov, c.From.String()+" to "+c.To.String()+" embargo "+strconv.Itoa(c.Days))
			}
			slices.Sort(cov)
			items = append(items, it.Title+" | "+strings.Join(it.ISSNs, " ")+" | "+strings.Join(cov, "; "))
		}
	}
	slices.Sort(items)
	return items, sizes
}

// wantItems are 1001's items.
var wantItems = []string{
	"Custom Covered Quarterly | 0036-8075 | 2001/3 v0 i0 to 2004/6 v0 i0 embargo 365",
	"Journal of Nursing | 0317-8471 1050-124X | ",
	"Journal of Nursing | 0317-8471 1050-124X | 1990/1 v1 i1 to 1999/12 v10 i4 embargo 180; 2005/1 v16 i0 to - embargo 180",
	"Local Gazette | 0140-6736 | 2010/1 v0 i0 to - embargo 0",
}

func TestScholarFiles(t *testing.T) {
	f := newScholarFixture(t, nil)
	l := f.fetchLinks(t, "1001.main.az")
	want := links{
		Institution: "Library 1001",
		Label:       "Full text @ Library 1001",
		Base:        f.srv.URL + "/openurl/1001.main.az",
		Options:     []string{"doi", "journal-title", "book-title"},
		URLs:        []string{f.srv.URL + "/scholar/1001.main.az/holdings-1.xml"},
	}
	if diff := cmp.Diff(want, l); diff != "" {
		t.Errorf("institutional_links.xml (-want +got):\n%s", diff)
	}
	items, _ := f.fetchItems(t, l)
	if diff := cmp.Diff(wantItems, items); diff != "" {
		t.Errorf("holdings (-want +got):\n%s", diff)
	}
	if n := f.store.reads.Load(); n != 1 {
		t.Errorf("the serials were read %d times for one version, want once", n)
	}

	// Again: the files are kept.
	l = f.fetchLinks(t, "1001.main.az")
	if again, _ := f.fetchItems(t, l); !slices.Equal(again, items) {
		t.Errorf("second fetch: %v", again)
	}
	if n := f.store.reads.Load(); n != 1 {
		t.Errorf("the serials were read %d times for one version, want once", n)
	}

	// A change of the holdings moves the version: the files are written
	// again, and show it.
	if err := f.st.SetResourceState(t.Context(), "1001", f.pkgs["Nursing Journals"], f.ids["Hidden Nursing Gem"], kb.ResourceState{}); err != nil {
		t.Fatal(err)
	}
	res, body := f.get(t, "/scholar/1001.main.az/holdings-1.xml")
	if res.StatusCode != http.StatusOK || !bytes.Contains(body, []byte("<title>Hidden Nursing Gem</title><issn>2049-3630</issn>")) {
		t.Errorf("after showing a title: %d %s", res.StatusCode, body)
	}
	if n := f.store.reads.Load(); n != 2 {
		t.Errorf("the serials were read %d times for two versions, want twice", n)
	}
}

func TestScholarAddresses(t *testing.T) {
	f := newScholarFixture(t, nil)
	// The scheme follows the request's (a proxy in front says https).
	l := f.fetchLinks(t, "1001.main.az", "X-Forwarded-Proto", "https")
	host := strings.TrimPrefix(f.srv.URL, "http://")
	if l.Base != "https://"+host+"/openurl/1001.main.az" || len(l.URLs) != 1 || l.URLs[0] != "https://"+host+"/scholar/1001.main.az/holdings-1.xml" {
		t.Errorf("behind https: base %s, holdings %v", l.Base, l.URLs)
	}
}

func TestScholarAdmission(t *testing.T) {
	f := newScholarFixture(t, nil)
	for _, c := range []struct {
		name, path string
		header     []string
		status     int
	}{
		{"guest profile", "/scholar/1001.main.az/institutional_links.xml", nil, 200},
		{"guest profile, a file", "/scholar/1001.main.az/holdings-1.xml", nil, 200},
		{"password profile without it", "/scholar/1001.main.pw/institutional_links.xml", nil, 401},
		{"password profile, a file without it", "/scholar/1001.main.pw/holdings-1.xml", nil, 401},
		{"wrong password", "/scholar/1001.main.pw/institutional_links.xml", []string{"password", "nope"}, 401},
		{"password", "/scholar/1001.main.pw/institutional_links.xml", []string{"password", "pw"}, 200},
		{"password, a file", "/scholar/1001.main.pw/holdings-1.xml", []string{"password", "pw"}, 200},
		{"unknown profile", "/scholar/1001.main.nope/institutional_links.xml", nil, 401},
		{"malformed profile", "/scholar/1001/institutional_links.xml", nil, 400},
		{"malformed profile, a file", "/scholar/1001..az/holdings-1.xml", nil, 400},
		{"a file past the last", "/scholar/1001.main.az/holdings-2.xml", nil, 404},
		{"file 0", "/scholar/1001.main.az/holdings-0.xml", nil, 404},
		{"another name", "/scholar/1001.main.az/holdings.txt", nil, 404},
		{"a deeper path", "/scholar/1001.main.az/a/holdings-1.xml", nil, 404},
	} {
		t.Run(c.name, func(t *testing.T) {
			res, body := f.get(t, c.path, c.header...)
			if res.StatusCode != c.status {
				t.Fatalf("%d, want %d: %s", res.StatusCode, c.status, body)
			}
			if c.status == 200 {
				return
			}
			var errs []struct{ Message string }
			if err := json.Unmarshal(body, &errs); err != nil || len(errs) != 1 || errs[0].Message == "" {
				t.Errorf("error body %s: %v", body, err)
			}
		})
	}
	// The password profile's files are the customer's, as the guest's.
	l := f.fetchLinks(t, "1001.main.pw", "password", "pw")
	if items, _ := f.fetchItems(t, l, "password", "pw"); !slices.Equal(items, wantItems) {
		t.Errorf("through the password profile: %v", items)
	}
}

// TestScholarSplits fills more than one holdings file: every file holds
// at most 1,000,000 bytes and parses, and together they hold every item.
func TestScholarSplits(t *testing.T) {
	f := newScholarFixture(t, nil)
	const n = 4500
	rows := make([]row, n)
	for i := range rows {
		rows[i] = row{title: fmt.Sprintf("International Review of Generated Studies, Number %05d", i), print: validISSN(1000000 + i),
			first: "1950", volFirst: "1", issueFirst: "1", last: "2020", volLast: "70", issueLast: "12", embargo: "P1Y"}
	}
	res, err := f.st.ImportPackage(t.Context(), kb.PackageSpec{VendorName: "Big Press", PackageName: "Everything", ContentType: kb.ContentEJournal},
		storetest.RowsOf(n, func(i int) kb.ImportRow { return kbartRow(i, rows[i]) }))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.st.SetPackageState(t.Context(), "1001", res.PackageID, kb.PackageState{Selected: true}); err != nil {
		t.Fatal(err)
	}
	l := f.fetchLinks(t, "1001.main.az")
	if len(l.URLs) < 2 {
		t.Fatalf("%d holdings files for %d items of about 250 bytes", len(l.URLs), n)
	}
	for i, u := range l.URLs {
		if want := f.srv.URL + "/scholar/1001.main.az/holdings-" + strconv.Itoa(i+1) + ".xml"; u != want {
			t.Errorf("file %d is %s, want %s", i+1, u, want)
		}
	}
	items, sizes := f.fetchItems(t, l)
	if len(items) != n+len(wantItems) {
		t.Errorf("%d items, want %d", len(items), n+len(wantItems))
	}
	for i, s := range sizes {
		if s > 1_000_000 {
			t.Errorf("holdings-%d.xml has %d bytes", i+1, s)
		}
	}
	want := "International Review of Generated Studies, Number 01234 | " + validISSN(1001234) + " | 1950/1 v1 i1 to 2020/12 v70 i12 embargo 365"
	if _, found := slices.BinarySearch(items, want); !found {
		t.Errorf("no item %q", want)
	}
}

// validISSN returns the ISSN of the seven digits of n with its check
// digit.
func validISSN(n int) string {
	d := fmt.Sprintf("%07d", n%10000000)
	sum := 0
	for i := range 7 {
		sum += int(d[i]-'0') * (8 - i)
	}
	check := "0123456789X"[(11-sum%11)%11]
	return d[:4] + "-" + d[4:] + string(check)
}
