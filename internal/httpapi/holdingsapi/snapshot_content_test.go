package holdingsapi_test

import (
	"fmt"
	"io"
	"mime"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kbserver/kbserver/internal/httpapi/apitest"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
)

// addGamma imports the package Gamma Press / Gamma Serials with n titles
// "Gamma Serial 01"… (in that order, so in title id order) and has cust1
// select it.
func (f *fixture) addGamma(t *testing.T, n int) int64 {
	t.Helper()
	var rs []kb.ImportRow
	for i := 1; i <= n; i++ {
		rs = append(rs, kbartRow(map[int]string{
			fTitle: fmt.Sprintf("Gamma Serial %02d", i), fURL: fmt.Sprintf("https://gamma.example/%d", i),
			fFirstDate: "2001-01-01", fPublisher: "Gamma Press", fPubType: "serial",
			int(kbart.TitleID): fmt.Sprintf("g%d", i), int(kbart.AccessType): "F",
		}))
	}
	res, err := f.store.ImportPackage(t.Context(), kb.PackageSpec{VendorName: "Gamma Press", PackageName: "Gamma Serials",
		ContentType: kb.ContentEJournal, PackageType: kb.PackageSelectable}, rows(rs...))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.store.SetPackageState(t.Context(), "cust1", res.PackageID, kb.PackageState{Selected: true}); err != nil {
		t.Fatal(err)
	}
	return res.PackageID
}

// decimalID is the form of our ids as JSON records give them.
var decimalID = regexp.MustCompile(`^[1-9][0-9]*$`)

// withProviderIDs returns copies of JSON records with title_id, which is
// our title id there, replaced by the provider's KBART title_id that a
// KBART file of the same records has (ours maps our id to it).
func withProviderIDs(t *testing.T, hs []kb.Holding, ours map[string]string) []kb.Holding {
	t.Helper()
	out := slices.Clone(hs)
	for i := range out {
		id, ok := ours[out[i].Values[kbart.TitleID]]
		if !ok {
			t.Fatalf("record %d: title_id %q is none of our ids %v", i+1, out[i].Values[kbart.TitleID], ours)
		}
		out[i].Values[kbart.TitleID] = id
	}
	return out
}

// titles returns the publication_title of each record.
func titles(hs []kb.Holding) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.Values[kbart.PublicationTitle]
	}
	return out
}

func TestHoldingsPaging(t *testing.T) {
	f := newFixture(t)
	gamma := f.addGamma(t, 12)
	if st := f.snapshot(t); st.Total != 13 {
		t.Fatalf("snapshot of %d records, want 13", st.Total)
	}
	all := f.allHoldings(t)
	want := []string{"Journal of Testing"}
	for i := 1; i <= 12; i++ {
		want = append(want, fmt.Sprintf("Gamma Serial %02d", i))
	}
	// Alpha Journals was imported before Gamma Serials: package id, then
	// title id.
	if f.alphaJournals > gamma {
		t.Fatalf("package ids %d, %d: the fixture's order changed", f.alphaJournals, gamma)
	}
	if diff := cmp.Diff(want, titles(all)); diff != "" {
		t.Fatalf("order of the records (-want +got):\n%s", diff)
	}
	// title_id is our title id, not the provider's g1 (which the KBART
	// file keeps).
	if h := all[1]; h.Values[kbart.AccessType] != "F" || !decimalID.MatchString(h.Values[kbart.TitleID]) || h.Values[26] != fmt.Sprint(gamma) {
		t.Errorf("first Gamma record: %q", h.Values[:])
	}
	var paged []kb.Holding
	for offset := 1; offset <= 13; offset += 5 {
		page := f.holdings(t, offset, 5)
		if want := min(5, 13-offset+1); len(page) != want {
			t.Errorf("offset %d: %d records, want %d", offset, len(page), want)
		}
		paged = append(paged, page...)
	}
	if diff := cmp.Diff(all, paged); diff != "" {
		t.Errorf("pages of 5 (-one page +pages):\n%s", diff)
	}
	for _, tt := range []struct{ offset, count, want int }{
		{13, 5000, 1}, {14, 10, 0}, {1000, 1, 0}, {2, 1, 1}, {4, 3, 3},
	} {
		got := f.holdings(t, tt.offset, tt.count)
		if len(got) != tt.want {
			t.Errorf("offset %d count %d: %d records, want %d", tt.offset, tt.count, len(got), tt.want)
		}
		if len(got) > 0 && got[0].Values != all[tt.offset-1].Values {
			t.Errorf("offset %d: first record %q, want record %d", tt.offset, got[0].Values[0], tt.offset)
		}
	}
	if res := f.get(t, p("/holdings?format=kbart2&count=10&offset=14"), key1); string(res.body) != `{"offset":14,"format":"kbart2","holdings":[]}`+"\n" {
		t.Errorf("past the end: %s", res.body)
	}
}

// getKBART sends GET holdings with Accept: text/tab-separated-values.
func (f *fixture) getKBART(t *testing.T, query string) response {
	t.Helper()
	return newResponse(apitest.Do(t, f.srv.Client(), http.MethodGet, f.srv.URL+p("/holdings%s", query), nil,
		"x-api-key", key1, "Accept", "text/tab-separated-values, application/json;q=0.5"))
}

// kbartRows splits a KBART download into its header and rows, checking
// that every line has the 30 columns.
func kbartRows(t *testing.T, body []byte) []kb.Holding {
	t.Helper()
	text, ok := strings.CutSuffix(string(body), "\n")
	if !ok {
		t.Fatalf("KBART file does not end with a newline: %q", body)
	}
	lines := strings.Split(text, "\n")
	if lines[0] != strings.Join(kb.HoldingColumns[:], "\t") {
		t.Fatalf("header line %q", lines[0])
	}
	var out []kb.Holding
	for i, l := range lines[1:] {
		fs := strings.Split(l, "\t")
		if len(fs) != kb.HoldingFieldCount {
			t.Fatalf("line %d has %d fields: %q", i+2, len(fs), l)
		}
		out = append(out, kb.Holding{Values: [kb.HoldingFieldCount]string(fs)})
	}
	return out
}

func TestHoldingsKBARTDownload(t *testing.T) {
	f := newFixture(t)
	f.addGamma(t, 12)

	// Before a snapshot, the error is JSON, without a file name.
	res := f.getKBART(t, "?format=kbart2")
	if res.status != http.StatusNotFound || res.header.Get("Content-Disposition") != "" ||
		res.header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("before a snapshot: %d %v %s", res.status, res.header, res.body)
	}

	st := f.snapshot(t)
	// The JSON records' title_id is our id; the file's the provider's:
	// g1… for Gamma, none for Journal of Testing.
	ours := map[string]string{fmt.Sprint(f.testing): ""}
	for _, h := range f.allHoldings(t) {
		if n, ok := strings.CutPrefix(h.Values[0], "Gamma Serial "); ok {
			ours[h.Values[kbart.TitleID]] = "g" + strings.TrimPrefix(n, "0")
		}
	}
	all := withProviderIDs(t, f.allHoldings(t), ours)
	res = f.getKBART(t, "?format=kbart2")
	if res.status != http.StatusOK {
		t.Fatalf("download: %d %s", res.status, res.body)
	}
	if ct := res.header.Get("Content-Type"); ct != "text/tab-separated-values; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	_, params, err := mime.ParseMediaType(res.header.Get("Content-Disposition"))
	if want := "kbserver_Global_cust1-holdings_" + st.Created[:10] + ".txt"; err != nil || params["filename"] != want {
		t.Errorf("Content-Disposition %q, want filename %s", res.header.Get("Content-Disposition"), want)
	}
	if diff := cmp.Diff(all, kbartRows(t, res.body)); diff != "" {
		t.Errorf("KBART file vs JSON records (-json +file):\n%s", diff)
	}
	// The standard reader reads the 25 standard fields back unchanged.
	kr, err := kbart.NewReader(strings.NewReader(string(res.body)))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; ; i++ {
		row, err := kr.Next()
		if err == io.EOF {
			if i != len(all) {
				t.Errorf("reader read %d rows, want %d", i, len(all))
			}
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(row.Values[:], all[i].Values[:kb.KBARTFieldCount]) || row.Repairs != nil {
			t.Errorf("row %d read back as %q (repairs %v), want %q", i+1, row.Values, row.Repairs, all[i].Values[:kb.KBARTFieldCount])
		}
	}

	// count and offset work as for JSON; count is optional here only.
	res = f.getKBART(t, "?format=kbart2&offset=3&count=2")
	if diff := cmp.Diff(all[2:4], kbartRows(t, res.body)); diff != "" {
		t.Errorf("offset 3 count 2 (-json +file):\n%s", diff)
	}
	res = f.getKBART(t, "?format=kbart2&offset=100")
	if res.status != http.StatusOK || string(res.body) != strings.Join(kb.HoldingColumns[:], "\t")+"\n" {
		t.Errorf("past the end: %d %q, want the header line only", res.status, res.body)
	}
	wantError(t, f.getKBART(t, "?format=kbart2&count=0"), 400, 1006, `Parameter count is outside the range 1-5000 (got "0").`)
}

func TestSnapshotCustomisations(t *testing.T) {
	f := newFixture(t)
	jot := p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.alphaJournals, f.testing)
	acta := p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.alphaJournals, f.acta)
	f.mustWrite(t, http.StatusNoContent, http.MethodPut, jot, `{"isSelected":true,
		"customCoverageList":[{"beginCoverage":"2005-01-01","endCoverage":""},{"beginCoverage":"2000-01-01","endCoverage":"2004-02-01"}],
		"coverageStatement":"Only 2000s issues.","customEmbargoPeriod":{"embargoUnit":"Months","embargoValue":5},
		"proxy":{"id":"EZProxy","inherited":false}}`)
	// Beta Books selected but hidden: none of its titles.
	f.mustWrite(t, http.StatusNoContent, http.MethodPut, p("/vendors/%d/packages/%d", f.betaVendor, f.betaBooks), `{"isSelected":true,"isHidden":true}`)
	local := f.newCustomTitle(t, "Local Collection", "First Local Title")
	res := f.mustWrite(t, http.StatusOK, http.MethodPost, p("/vendors/%d/packages/%d/titles", f.cust1Vendor, local.pkg),
		`{"titleName":"Local Studies Bulletin","pubType":"newsletter","publisherName":"City Library","url":"https://library.example/bulletin",
		"contributorsList":[{"type":"editor","contributor":"Doe, Jane"},{"type":"author","contributor":"Poe, Pat"}],
		"identifiersList":[{"id":"0317-8471","type":0,"subtype":1}],"customEmbargoPeriod":{"embargoUnit":"weeks","embargoValue":6}}`)
	bulletin := int64(res.object(t)["titleId"].(float64))
	bulletinPath := p("/vendors/%d/packages/%d/titles/%d", f.cust1Vendor, local.pkg, bulletin)

	f.snapshot(t)
	first := f.allHoldings(t)
	pkgID, vendorID := fmt.Sprint(f.alphaJournals), fmt.Sprint(f.alphaVendor)
	const proxied = "http://ezproxy.example.edu/login?url=http://alpha.example.com/jot?a=1&b=2"
	jotRow := func(begin, end string) kb.Holding {
		return kb.Holding{Values: [kb.HoldingFieldCount]string{
			"Journal of Testing", "0317-8471", "1050-124X", begin, "", "", end, "", "",
			proxied, "", fmt.Sprint(f.testing), "P5M", "", "Only 2000s issues.", "Alpha Publishing", "serial",
			"", "", "", "", "", "", "", "P",
			"Alpha Journals", pkgID, "Alpha Publishing", vendorID, "Journal",
		}}
	}
	localPkg, ownVendor := fmt.Sprint(local.pkg), fmt.Sprint(f.cust1Vendor)
	want := []kb.Holding{
		// One record per custom coverage range, newest first.
		jotRow("2005-01-01", ""), jotRow("2000-01-01", "2004-02-01"),
		{Values: [kb.HoldingFieldCount]string{"First Local Title", "", "", "", "", "", "", "", "", "", "", fmt.Sprint(local.title), "", "", "", "", "monograph",
			"", "", "", "", "", "", "", "P", "Local Collection", localPkg, "Customer One Library", ownVendor, "Book"}},
		{Values: [kb.HoldingFieldCount]string{"Local Studies Bulletin", "0317-8471", "", "", "", "", "", "", "", "https://library.example/bulletin", "Poe, Pat",
			fmt.Sprint(bulletin), "P6W", "", "", "City Library", "serial",
			"", "", "", "", "", "", "", "P", "Local Collection", localPkg, "Customer One Library", ownVendor, "Newsletter"}},
	}
	if diff := cmp.Diff(want, first); diff != "" {
		t.Fatalf("holdings (-want +got):\n%s", diff)
	}

	// Customer changes after the POST wait for the next one; renaming a
	// title or a package is metadata and shows at once. (A deleted title
	// keeps its record until the next POST.)
	f.mustWrite(t, http.StatusNoContent, http.MethodPut, jot, `{"isSelected":true}`)
	f.mustWrite(t, http.StatusNoContent, http.MethodPut, acta, `{"isSelected":true,"isHidden":false}`)
	f.mustWrite(t, http.StatusNoContent, http.MethodPut, p("/vendors/%d/packages/%d", f.alphaVendor, f.alphaJournals),
		`{"isSelected":true,"proxy":{"id":"EZProxy","inherited":false}}`)
	f.mustWrite(t, http.StatusNoContent, http.MethodPut, bulletinPath, `{"isSelected":true,"titleName":"Renamed Bulletin","pubType":"newsletter","publisherName":"Town Library"}`)
	f.mustWrite(t, http.StatusNoContent, http.MethodPut, p("/vendors/%d/packages/%d", f.cust1Vendor, local.pkg), `{"isSelected":true,"packageName":"Town Collection"}`)
	f.mustWrite(t, http.StatusNoContent, http.MethodPut, local.path, `{"isSelected":false}`)
	renamed := slices.Clone(want)
	renamed[3].Values[kbart.PublicationTitle] = "Renamed Bulletin"
	renamed[3].Values[kbart.PublisherName] = "Town Library"
	renamed[2].Values[25], renamed[3].Values[25] = "Town Collection", "Town Collection"
	if diff := cmp.Diff(renamed, f.allHoldings(t)); diff != "" {
		t.Errorf("holdings after changes, before a new POST (-want +got):\n%s", diff)
	}

	// A new POST takes the changes: one record with the managed coverage,
	// the package's proxy inherited, Acta Testica visible again, the first
	// local title deleted, the bulletin's customisation cleared by the PUT.
	f.snapshot(t)
	second := f.allHoldings(t)
	if diff := cmp.Diff([]string{"Journal of Testing", "Acta Testica", "Renamed Bulletin"}, titles(second)); diff != "" {
		t.Fatalf("titles after a new POST (-want +got):\n%s\n%s", diff, dump(second))
	}
	j := second[0]
	if j.Values[kbart.DateFirstIssueOnline] != "1995-01-01" || j.Values[kbart.EmbargoInfo] != "P6M" || j.Values[kbart.Notes] != "" || j.Values[kbart.TitleURL] != proxied {
		t.Errorf("Journal of Testing after a new POST: %q", j.Values[:])
	}
	if a := second[1]; a.Values[kbart.TitleURL] != "" || a.Values[kbart.DateLastIssueOnline] != "2010-12-31" {
		t.Errorf("Acta Testica (no URL to proxy): %q", a.Values[:])
	}
	if b := second[2]; b.Values[kbart.EmbargoInfo] != "" || b.Values[kbart.TitleURL] != "" {
		t.Errorf("bulletin after a PUT without embargo or URL: %q", b.Values[:])
	}
}
