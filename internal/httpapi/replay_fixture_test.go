package httpapi_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/httpapi/apitest"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// The replay's customer and its key. Never a real key.
const (
	replayCustomer = "replaycust"
	replayKey      = "replay-test-key"
)

// replayFixture is a running server, speaking one wire, over a new store
// of the test run's kind that holds what the replayed exchanges need, by
// role:
//
//	Token Vendor (a vendor token to fill in)
//	  Token Package (ejournal, a package token; selected): Token Gazette
//	Plain Vendor (no token)
//	  Plain Journals (ejournal; selected): Journal of Replays (customised by
//	    the customer: custom coverage, embargo, coverage statement, proxy,
//	    user-defined fields), Annals of Replay
//	  Plain Ebooks (ebook; not selected): Replay Handbook
//	the customer's own vendor
//	  Replay Custom Package (custom; selected): Replay Custom Title
//	  Replay Doomed Package (custom): deleted by the contract's v2 package delete
//
// The customer has the proxies EZProxy and TestingFolio (the ids the
// recorded bodies use), the root proxy EZProxy and two labels.
type replayFixture struct {
	srv  *httptest.Server
	log  *apitest.Buffer
	wire web.Wire

	tokenVendor, tokenPackage, tokenTitle  int64
	plainVendor, plainJournals, plainEbook int64
	replayJournal, replayAnnals, handbook  int64
	customVendor, customPackage, doomed    int64
	customTitle                            int64
}

// replayRows builds KBART rows from field index → value pairs.
func replayRows(rows ...map[int]string) []kb.ImportRow {
	out := make([]kb.ImportRow, len(rows))
	for i, fields := range rows {
		for k, v := range fields {
			out[i].KBART[k] = v
		}
	}
	return out
}

// KBART field indexes the fixture fills.
const (
	kbTitle     = 0
	kbPrint     = 1
	kbOnline    = 2
	kbFirstDate = 3
	kbLastDate  = 6
	kbURL       = 9
	kbTitleID   = 11
	kbEmbargo   = 12
	kbPublisher = 15
	kbPubType   = 16
)

// newReplayFixture fills a new store and starts a server speaking wire
// over it; both stop when the test ends. The server's error log lines are
// shown when the test fails.
func newReplayFixture(t *testing.T, wire web.Wire) *replayFixture {
	t.Helper()
	ctx := t.Context()
	dsn := testdb.NewDSN(t)
	st := storetest.Searched(t.Context(), testdb.OpenDSN(t, dsn))
	f := &replayFixture{log: &apitest.Buffer{}, wire: wire}
	if err := f.seed(ctx, st); err != nil {
		t.Fatalf("seed the replay fixture: %v", err)
	}
	// No import path sets tokens: the knowledge-base columns are written
	// directly, as the holdings service's own tests do.
	testdb.Exec(t, dsn, fmt.Sprintf(`UPDATE vendors SET token_fact = '[[siteid]]', token_prompt = '/site/', token_help = 'Your site id.' WHERE id = %d`, f.tokenVendor))
	testdb.Exec(t, dsn, fmt.Sprintf(`UPDATE packages SET token_fact = '[[pkgid]]', token_prompt = '/pkg/', token_help = 'Your package id.' WHERE id = %d`, f.tokenPackage))

	logger := slog.New(slog.NewTextHandler(f.log, &slog.HandlerOptions{Level: slog.LevelInfo}))
	f.srv = httptest.NewServer(httpapi.NewServer(storetest.SearchOf(t.Context(), st), httpapi.Deps{Store: storetest.Raw(st), Logger: logger, Wire: wire}))
	t.Cleanup(func() {
		f.srv.Close()
		if t.Failed() {
			for line := range strings.Lines(f.log.String()) {
				if strings.Contains(line, "level=ERROR") {
					t.Logf("server log: %.400s", strings.TrimSuffix(line, "\n"))
				}
			}
		}
	})
	return f
}

// seed fills the empty store st through the store's own methods.
func (f *replayFixture) seed(ctx context.Context, st kb.Store) error {
	c, err := st.AddCustomer(ctx, replayCustomer, "Replay Library")
	if err != nil {
		return err
	}
	f.customVendor = c.VendorID
	if err := st.AddAPIKey(ctx, replayCustomer, kb.HashAPIKey(replayKey), kb.Production); err != nil {
		return err
	}
	for _, p := range []kb.Proxy{
		{ID: "EZProxy", Name: "EZProxy", URLMask: "http://ezproxy.example.edu/login?url={targetURL}"},
		{ID: "TestingFolio", Name: "TestingFolio", URLMask: "https://folio.example.org/?u={targetURL}"},
	} {
		if err := st.AddProxy(ctx, replayCustomer, p); err != nil {
			return err
		}
	}
	root := kb.RootSettings{ProxyID: "EZProxy"}
	for i := range root.Labels {
		root.Labels[i].ID = i + 1
	}
	root.Labels[0] = kb.Label{ID: 1, DisplayLabel: "Shelf", DisplayOnFullTextFinder: true}
	root.Labels[2] = kb.Label{ID: 3, DisplayLabel: "Fund", DisplayOnPublicationFinder: true}
	if err := st.UpdateRoot(ctx, replayCustomer, root); err != nil {
		return err
	}

	imp := func(vendor, pkg string, ct kb.ContentType, rows []kb.ImportRow) (kb.ImportResult, error) {
		for i := range rows {
			rows[i].Line = i + 1
		}
		return st.ImportPackage(ctx, kb.PackageSpec{VendorName: vendor, PackageName: pkg, ContentType: ct, PackageType: kb.PackageSelectable},
			storetest.RowsOf(len(rows), func(i int) kb.ImportRow { return rows[i] }))
	}
	r, err := imp("Token Vendor", "Token Package", kb.ContentEJournal, replayRows(
		map[int]string{kbTitle: "Token Gazette", kbOnline: "2049-3630", kbFirstDate: "2001-01-01", kbURL: "https://token.example/tg",
			kbTitleID: "tg-1", kbPublisher: "Token House", kbPubType: "serial"}))
	if err != nil {
		return fmt.Errorf("import Token Package: %w", err)
	}
	f.tokenVendor, f.tokenPackage = r.VendorID, r.PackageID

	journals := replayRows(
		map[int]string{kbTitle: "Journal of Replays", kbPrint: "0317-8471", kbOnline: "1050-124X", kbFirstDate: "1995-01-01",
			kbLastDate: "2010-12-31", kbURL: "https://plain.example/jor", kbTitleID: "jor-1", kbEmbargo: "P6M",
			kbPublisher: "Plain Press", kbPubType: "serial"},
		map[int]string{kbTitle: "Annals of Replay", kbPrint: "0028-0836", kbFirstDate: "2001-01-01", kbURL: "https://plain.example/aor",
			kbTitleID: "aor-1", kbPublisher: "Plain Press", kbPubType: "serial"})
	journals[0].Subjects = []kb.Subject{{Type: "TLI", Name: "History"}, {Type: "TLI", Name: "Recorded Media"}}
	journals[0].Contributors = []kb.Contributor{{Type: "Editor", Name: "Player, Rita"}}
	journals[0].Description = "A journal about replays."
	journals[0].PeerReviewed = true
	journals[1].Subjects = []kb.Subject{{Type: "TLI", Name: "History"}}
	if r, err = imp("Plain Vendor", "Plain Journals", kb.ContentEJournal, journals); err != nil {
		return fmt.Errorf("import Plain Journals: %w", err)
	}
	f.plainVendor, f.plainJournals = r.VendorID, r.PackageID
	books := replayRows(map[int]string{kbTitle: "Replay Handbook", kbOnline: "978-0-306-40615-7", kbURL: "https://plain.example/rh",
		kbTitleID: "rh-1", kbPublisher: "Plain Press", kbPubType: "monograph"})
	books[0].Contributors = []kb.Contributor{{Type: "Author", Name: "Writer, Wes"}}
	if r, err = imp("Plain Vendor", "Plain Ebooks", kb.ContentEBook, books); err != nil {
		return fmt.Errorf("import Plain Ebooks: %w", err)
	}
	f.plainEbook = r.PackageID

	titles, err := st.Titles(ctx, replayCustomer, kb.TitleQuery{Selection: kb.SelectionAll, OrderBy: kb.OrderName, Page: kb.Page{Count: 100, Number: 1}})
	if err != nil {
		return err
	}
	ids := map[string]*int64{"Token Gazette": &f.tokenTitle, "Journal of Replays": &f.replayJournal, "Annals of Replay": &f.replayAnnals, "Replay Handbook": &f.handbook}
	for _, tt := range titles.Titles {
		if p, ok := ids[tt.Name]; ok {
			*p = tt.ID
		}
	}
	for name, p := range ids {
		if *p == 0 {
			return fmt.Errorf("title %q not listed by the store", name)
		}
	}

	for _, p := range []int64{f.tokenPackage, f.plainJournals} {
		if err := st.SetPackageState(ctx, replayCustomer, p, kb.PackageState{Selected: true}); err != nil {
			return err
		}
	}
	if err := st.UpdateResource(ctx, replayCustomer, f.plainVendor, f.plainJournals, f.replayJournal, kb.ResourceUpdate{
		Selected:          true,
		CustomCoverage:    []kb.Coverage{{Begin: "2005-01-01"}, {Begin: "2000-01-01", End: "2004-02-01"}},
		CoverageStatement: "Only 2000s issues.",
		CustomEmbargo:     kb.Embargo{Unit: kb.EmbargoMonths, Value: 5},
		Proxy:             &kb.ProxyRef{ID: "EZProxy"},
		UserDefined:       [5]string{"shelf 12", "", "fund A"},
	}); err != nil {
		return fmt.Errorf("customise Journal of Replays: %w", err)
	}

	if f.customPackage, err = st.CreateCustomPackage(ctx, replayCustomer, f.customVendor, kb.CustomPackage{
		Name: "Replay Custom Package", ContentType: kb.ContentEBook, CustomCoverage: kb.Coverage{Begin: "2003-01-01", End: "2004-01-01"},
	}); err != nil {
		return fmt.Errorf("create the custom package: %w", err)
	}
	if f.doomed, err = st.CreateCustomPackage(ctx, replayCustomer, f.customVendor, kb.CustomPackage{
		Name: "Replay Doomed Package", ContentType: kb.ContentUnknown,
	}); err != nil {
		return fmt.Errorf("create the doomed package: %w", err)
	}
	if f.customTitle, err = st.CreateCustomTitle(ctx, replayCustomer, f.customVendor, f.customPackage, kb.CustomTitle{
		TitleFields: kb.TitleFields{
			Name: "Replay Custom Title", PubType: kb.ResourceBook, Publisher: "Local Press", PeerReviewed: true,
			Edition: "2", Description: "A title of our own.", URL: "https://local.example/rct",
			Contributors: []kb.Contributor{{Type: "Author", Name: "Local, Lou"}},
			Identifiers:  []kb.Identifier{{ID: "978-0-201-53082-7", Type: kb.IdentISBN, Subtype: kb.SubtypePrint}},
		},
		CustomCoverage:    []kb.Coverage{{Begin: "2003-01-01", End: "2003-12-12"}},
		CoverageStatement: "All of it.",
		CustomEmbargo:     kb.Embargo{Unit: kb.EmbargoWeeks, Value: 6},
	}); err != nil {
		return fmt.Errorf("create the custom title: %w", err)
	}
	return nil
}

// path returns a path under the customer: /rm/rmaccounts/{custid}…
func (f *replayFixture) path(format string, args ...any) string {
	return "/rm/rmaccounts/" + replayCustomer + fmt.Sprintf(format, args...)
}

// v2 returns a path under the customer's v2 prefix: /rm/rmaccounts/v2/{custid}…
func (f *replayFixture) v2(format string, args ...any) string {
	return "/rm/rmaccounts/v2/" + replayCustomer + fmt.Sprintf(format, args...)
}

// send sends a request as FOLIO's client does (section 0 of the
// contract: Accept and Content-Type application/json on every request,
// the key in X-Api-Key) and returns the status and the whole body.
func (f *replayFixture) send(t *testing.T, method, pathAndQuery, body string) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	res, b := apitest.Do(t, f.srv.Client(), method, f.srv.URL+pathAndQuery, rd,
		"Accept", "application/json", "Content-Type", "application/json", "X-Api-Key", replayKey)
	return res.StatusCode, b
}

// statusIs reports whether status is one of want.
func statusIs(status int, want []int) bool {
	for _, w := range want {
		if status == w {
			return true
		}
	}
	return false
}
