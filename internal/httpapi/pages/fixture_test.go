package pages_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/kbserver/kbserver/internal/feeds"
	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// fixture is a real server over a real store (of the test run's kind,
// package testdb) and a publisher's site that the link-outs lead to.
// Customer lib (Riverside Library; profile lib.main.az with guest access,
// lib.main.pw with password "open-sesame") selected:
//
//	Care Press / Nursing Journals: 40 journals "Nursing Journal 01" …
//	  "Nursing Journal 40" (the odd ones peer reviewed, TLI Nursing; the
//	  even ones TLI Food), covered from 2001, the first with an embargo
//	  of 6 months, and a journal named "<script>alert(1)</script> Nursing"
//	Care Press / Health Books: 5 books "Nursing Handbook 1" … 5 and
//	  "Atlas of Anatomy"
//
// and not Care Press / Rare Maps ("Map Quarterly", "Map Review"). Its API
// key "lib-key" is a production key.
//
// Every title's URL is on the publisher's site, whose visits are
// recorded.
type fixture struct {
	srv    *httptest.Server
	store  kb.Store
	site   *httptest.Server
	pkgs   map[string]int64 // package ids by name
	vendor int64            // Care Press

	mu     sync.Mutex
	visits []string // titles the publisher's site was asked for
}

// profiles of the fixture.
var (
	guestProfile    = kb.ProfileID{CustomerID: "lib", GroupID: "main", ProfileID: "az"}
	passwordProfile = kb.ProfileID{CustomerID: "lib", GroupID: "main", ProfileID: "pw"}
)

const profilePassword = "open-sesame"

func newFixture(t *testing.T) *fixture {
	t.Helper()
	ctx := t.Context()
	f := &fixture{pkgs: map[string]int64{}}
	f.site = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/title/") {
			f.mu.Lock()
			f.visits = append(f.visits, r.URL.Path)
			f.mu.Unlock()
		}
		fmt.Fprintf(w, "<!doctype html><title>Publisher</title><h1>Publisher's page %s</h1>", r.URL.Path)
	}))
	t.Cleanup(f.site.Close)
	st := storetest.Searched(t.Context(), testdb.Open(t))
	f.store = st
	if _, err := st.AddCustomer(ctx, "lib", "Riverside Library"); err != nil {
		t.Fatal(err)
	}
	if err := st.AddAPIKey(ctx, "lib", kb.HashAPIKey("lib-key"), kb.Production); err != nil {
		t.Fatal(err)
	}
	hash, err := kb.HashPassword(profilePassword)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []kb.Profile{{ID: guestProfile, Guest: true}, {ID: passwordProfile, PasswordHash: hash}} {
		if err := st.SaveProfile(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	type title struct {
		name     string
		book     bool
		peer     bool
		subject  string
		embargo  string
		coverage [2]string
	}
	var journals []title
	for i := 1; i <= 40; i++ {
		tt := title{name: fmt.Sprintf("Nursing Journal %02d", i), peer: i%2 == 1, subject: "Food", coverage: [2]string{"2001-01-01", ""}}
		if i%2 == 1 {
			tt.subject = "Nursing"
		}
		if i == 1 {
			tt.embargo = "P6M"
		}
		journals = append(journals, tt)
	}
	journals = append(journals, title{name: "<script>alert(1)</script> Nursing", subject: "Nursing"})
	var books []title
	for i := 1; i <= 5; i++ {
		books = append(books, title{name: fmt.Sprintf("Nursing Handbook %d", i), book: true})
	}
	books = append(books, title{name: "Atlas of Anatomy", book: true})
	n := 0
	imp := func(pkg string, ts []title) {
		res, err := st.ImportPackage(ctx, kb.PackageSpec{VendorName: "Care Press", PackageName: pkg, ContentType: kb.ContentEJournal},
			storetest.RowsOf(len(ts), func(i int) kb.ImportRow {
				tt := ts[i]
				n++
				var r kb.ImportRow
				r.Line = i + 1
				r.KBART[0], r.KBART[9], r.KBART[15] = tt.name, f.site.URL+"/title/"+strconv.Itoa(n), "Care Press"
				r.KBART[3], r.KBART[6], r.KBART[12] = tt.coverage[0], tt.coverage[1], tt.embargo
				r.KBART[16], r.PubType = "serial", kb.ResourceJournal
				if tt.book {
					r.KBART[16], r.PubType = "monograph", kb.ResourceBook
				}
				r.PeerReviewed = tt.peer
				if tt.subject != "" {
					r.Subjects = []kb.Subject{{Type: "TLI", Name: tt.subject}}
				}
				return r
			}))
		if err != nil {
			t.Fatal(err)
		}
		f.pkgs[pkg], f.vendor = res.PackageID, res.VendorID
	}
	imp("Nursing Journals", journals)
	imp("Health Books", books)
	for _, id := range f.pkgs {
		if err := st.SetPackageState(ctx, "lib", id, kb.PackageState{Selected: true}); err != nil {
			t.Fatal(err)
		}
	}
	imp("Rare Maps", []title{{name: "Map Quarterly"}, {name: "Map Review"}})
	// The libraries' holdings feeds may fetch from this machine: the
	// tests serve their files on 127.0.0.1.
	lib := feeds.NewLibrary(feeds.Deps{AllowPrivate: true, TempDir: t.TempDir(), Log: slog.New(slog.DiscardHandler)}, storetest.Raw(st), feeds.NewHolder())
	f.srv = httptest.NewServer(httpapi.NewServer(storetest.SearchOf(t.Context(), st), httpapi.Deps{Store: storetest.Raw(st), Feeds: lib}))
	t.Cleanup(f.srv.Close)
	return f
}

// visited returns the paths of the titles the publisher's site was asked
// for.
func (f *fixture) visited() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.visits...)
}
