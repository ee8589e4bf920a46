package pfapi_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/httpapi/apitest"
	"github.com/kbserver/kbserver/internal/httpapi/pfapi"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

const ezMask = "http://ezproxy.myinstitute.edu/login?url={targetURL}"

// linkFixture is a real store (of the test run's kind, package testdb)
// with customer "lib" and two packages:
//
//	Gale (vendor, token [[galesiteid]] = "mylib")
//	  Gale Reference (package, token [[galepkg]] = "ref7", proxy EZ):
//	    Atlas (URL with both tokens), Bestiary (plain URL), Codex (ftp URL)
//	Plain Press
//	  Plain Journals (no token, no proxy): Daily Planet
//
// Every package is selected whole. Customer "other" has selected nothing.
type linkFixture struct {
	dsn    string // the store's --db value, to reopen it
	store  kb.Store
	signer kb.LinkSigner
	log    *bytes.Buffer
	srv    *httptest.Server
	titles map[string]kb.ResourceKey // by title name
}

func newLinkFixture(t *testing.T) *linkFixture {
	t.Helper()
	ctx := t.Context()
	f := &linkFixture{dsn: testdb.NewDSN(t), titles: map[string]kb.ResourceKey{}}
	st := storetest.Searched(t.Context(), testdb.OpenDSN(t, f.dsn))
	f.store = st
	for _, c := range []string{"lib", "other"} {
		if _, err := st.AddCustomer(ctx, c, c); err != nil {
			t.Fatal(err)
		}
	}
	gale := storetest.Import(t, st, "Gale", "Gale Reference", kb.ContentOnlineReference, []storetest.Row{
		{Title: "Atlas", URL: "https://gale.example/[[galesiteid]]/atlas?pkg=[[galepkg]]&site=[[galesiteid]]", Type: "monograph"},
		{Title: "Bestiary", URL: "https://gale.example/bestiary", Type: "monograph"},
		{Title: "Codex", URL: "ftp://gale.example/codex", Type: "monograph"},
	})
	plain := storetest.Import(t, st, "Plain Press", "Plain Journals", kb.ContentEJournal, []storetest.Row{
		{Title: "Daily Planet", URL: "https://plain.example/planet", Type: "serial"},
	})
	for _, res := range []kb.ImportResult{gale, plain} {
		l, err := st.Titles(ctx, "lib", kb.TitleQuery{VendorID: res.VendorID, PackageID: res.PackageID, Page: kb.Page{Count: 10, Number: 1}})
		if err != nil {
			t.Fatal(err)
		}
		for _, ti := range l.Titles {
			f.titles[ti.Name] = kb.ResourceKey{PackageID: res.PackageID, TitleID: ti.ID}
		}
		if err := st.SetPackageState(ctx, "lib", res.PackageID, kb.PackageState{Selected: true}); err != nil {
			t.Fatal(err)
		}
	}

	// No import path sets token fact names yet: the test writes the
	// knowledge-base columns directly, then the customer fills them in.
	for _, q := range []string{
		fmt.Sprintf(`UPDATE vendors SET token_fact = '[[galesiteid]]', token_prompt = '/site/' WHERE id = %d`, gale.VendorID),
		fmt.Sprintf(`UPDATE packages SET token_fact = '[[galepkg]]', token_prompt = '/pkg/' WHERE id = %d`, gale.PackageID),
	} {
		testdb.Exec(t, f.dsn, q)
	}
	site, pkg := "mylib", "ref7"
	if err := st.AddProxy(ctx, "lib", kb.Proxy{ID: "EZ", Name: "EZproxy", URLMask: ezMask}); err != nil {
		t.Fatal(err)
	}
	if err := st.UpdateVendor(ctx, "lib", gale.VendorID, kb.VendorUpdate{Proxy: kb.ProxyRef{Inherited: true}, TokenValue: &site}); err != nil {
		t.Fatal(err)
	}
	if err := st.UpdatePackage(ctx, "lib", gale.VendorID, gale.PackageID, kb.PackageUpdate{Selected: true,
		Proxy: &kb.ProxyRef{ID: "EZ"}, TokenValue: &pkg}); err != nil {
		t.Fatal(err)
	}
	f.serve(t, st)
	return f
}

// serve starts a server of the link-out route over store, logging to f.log.
func (f *linkFixture) serve(t *testing.T, store pfapi.LinkOutStore) {
	t.Helper()
	secret, err := store.LinkSecret(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	f.signer = kb.NewLinkSigner(secret)
	f.log = &bytes.Buffer{}
	logger := slog.New(slog.NewTextHandler(f.log, nil))
	mux := http.NewServeMux()
	web.Mount(mux, logger, []web.Route{pfapi.LinkOutRoute(store)})
	f.srv = httptest.NewServer(web.Serve(web.Fallback(mux), logger, 1<<20))
	t.Cleanup(f.srv.Close)
}

// token returns the link-out token of lib's resource.
func (f *linkFixture) token(title string) string { return f.signer.Sign("lib", f.titles[title]) }

// follow sends method to the link-out with the token without following
// redirects.
func (f *linkFixture) follow(t *testing.T, method, token string) (*http.Response, string) {
	t.Helper()
	res, body := apitest.Do(t, noRedirect, method, f.srv.URL+pfapi.LinkOutPath+token, nil)
	return res, string(body)
}

func (f *linkFixture) count(t *testing.T, cust, title string) int64 {
	t.Helper()
	n, err := f.store.LinkOutCount(t.Context(), cust, f.titles[title])
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// wantRedirect checks a 302 to location with no body and no caching.
func wantRedirect(t *testing.T, res *http.Response, body, location string) {
	t.Helper()
	if res.StatusCode != http.StatusFound || res.Header.Get("Location") != location || body != "" {
		t.Errorf("got %d, Location %q, body %q; want 302 to %q, no body", res.StatusCode, res.Header.Get("Location"), body, location)
	}
	if cc := res.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control = %q, want no-store", cc)
	}
}

// wantNotFound checks a 404 with no body and the message in the header.
func wantNotFound(t *testing.T, res *http.Response, body, message string) {
	t.Helper()
	if res.StatusCode != http.StatusNotFound || body != "" || res.Header.Get(web.ErrorMessageHeader) != message {
		t.Errorf("got %d, %s %q, body %q; want 404, %q, no body",
			res.StatusCode, web.ErrorMessageHeader, res.Header.Get(web.ErrorMessageHeader), body, message)
	}
	if res.Header.Get("Location") != "" {
		t.Errorf("404 with Location %q", res.Header.Get("Location"))
	}
}

func TestLinkOutRedirects(t *testing.T) {
	f := newLinkFixture(t)
	tests := []struct {
		title, location string
	}{
		{"Atlas", "http://ezproxy.myinstitute.edu/login?url=https://gale.example/mylib/atlas?pkg=ref7&site=mylib"},
		{"Bestiary", "http://ezproxy.myinstitute.edu/login?url=https://gale.example/bestiary"},
		{"Daily Planet", "https://plain.example/planet"},
	}
	for _, tt := range tests {
		t.Run(tt.title, func(t *testing.T) {
			for i := int64(1); i <= 2; i++ {
				res, body := f.follow(t, "GET", f.token(tt.title))
				wantRedirect(t, res, body, tt.location)
				if n := f.count(t, "lib", tt.title); n != i {
					t.Errorf("count after %d link-outs = %d", i, n)
				}
			}
		})
	}
	// HEAD answers the same without counting.
	res, body := f.follow(t, "HEAD", f.token("Daily Planet"))
	wantRedirect(t, res, body, "https://plain.example/planet")
	if n := f.count(t, "lib", "Daily Planet"); n != 2 {
		t.Errorf("count after HEAD = %d, want 2", n)
	}
	if n := f.count(t, "other", "Daily Planet"); n != 0 {
		t.Errorf("other's count = %d, want 0", n)
	}
}

func TestLinkOutRefusesBadTokens(t *testing.T) {
	f := newLinkFixture(t)
	good := f.token("Atlas")
	p64, m64, _ := strings.Cut(good, ".")
	// The payload of lib's Bestiary, which is in the collection, with
	// Atlas's MAC: what a patron editing the link can make.
	bestiary := f.titles["Bestiary"]
	rePointed := base64.RawURLEncoding.EncodeToString([]byte(fmt.Sprintf("%d|%d|lib", bestiary.PackageID, bestiary.TitleID))) + "." + m64
	other := kb.NewLinkSigner(bytes.Repeat([]byte{7}, 32)).Sign("lib", f.titles["Atlas"])
	flip := func(s string, i int) string {
		b := []byte(s)
		if b[i] == 'A' {
			b[i] = 'B'
		} else {
			b[i] = 'A'
		}
		return string(b)
	}
	tests := []struct{ name, token string }{
		{"payload changed", flip(good, 3)},
		{"MAC changed", flip(good, len(good)-2)},
		{"MAC missing", p64},
		{"re-pointed at another resource", rePointed},
		{"re-pointed at another customer", base64.RawURLEncoding.EncodeToString([]byte(fmt.Sprintf("%d|%d|other",
			f.titles["Atlas"].PackageID, f.titles["Atlas"].TitleID))) + "." + m64},
		{"signed with another secret", other},
		{"garbage", "garbage"},
		// (A NUL or invalid UTF-8 in the path is refused with 400 before
		// any route runs: web.TestRequestText.)
		{"escaped garbage", "%3d%7e..%2e"},
		// (A path over 2,000 bytes is refused with 400 before any route
		// runs, as every path is.)
		{"long", strings.Repeat("A", 1900) + "." + m64},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, body := f.follow(t, "GET", tt.token)
			wantNotFound(t, res, body, "Link not found")
		})
	}
	if n := f.count(t, "lib", "Atlas") + f.count(t, "lib", "Bestiary") + f.count(t, "other", "Atlas"); n != 0 {
		t.Errorf("refused link-outs were counted: %d", n)
	}
	// The genuine tokens still work.
	res, body := f.follow(t, "GET", f.signer.Sign("lib", bestiary))
	wantRedirect(t, res, body, "http://ezproxy.myinstitute.edu/login?url=https://gale.example/bestiary")
	res, body = f.follow(t, "GET", good)
	wantRedirect(t, res, body, "http://ezproxy.myinstitute.edu/login?url=https://gale.example/mylib/atlas?pkg=ref7&site=mylib")
}

func TestLinkOutOutsideCollection(t *testing.T) {
	f := newLinkFixture(t)
	ctx := t.Context()
	planet := f.titles["Daily Planet"]
	tok := f.token("Daily Planet")
	no, yes := false, true

	// A link handed out before the title was deselected stops working,
	// and works again once it is selected again.
	if err := f.store.SetResourceState(ctx, "lib", planet.PackageID, planet.TitleID, kb.ResourceState{Selected: &no}); err != nil {
		t.Fatal(err)
	}
	res, body := f.follow(t, "GET", tok)
	wantNotFound(t, res, body, "Link not found")
	if err := f.store.SetResourceState(ctx, "lib", planet.PackageID, planet.TitleID, kb.ResourceState{Selected: &yes, Hidden: true}); err != nil {
		t.Fatal(err)
	}
	res, body = f.follow(t, "GET", tok)
	wantNotFound(t, res, body, "Link not found")
	if err := f.store.SetResourceState(ctx, "lib", planet.PackageID, planet.TitleID, kb.ResourceState{Selected: &yes}); err != nil {
		t.Fatal(err)
	}
	res, body = f.follow(t, "GET", tok)
	wantRedirect(t, res, body, "https://plain.example/planet")
	if n := f.count(t, "lib", "Daily Planet"); n != 1 {
		t.Errorf("count = %d, want 1 (refused link-outs are not counted)", n)
	}

	// A genuine token of a customer who has not selected the resource.
	res, body = f.follow(t, "GET", f.signer.Sign("other", planet))
	wantNotFound(t, res, body, "Link not found")
	res, body = f.follow(t, "GET", f.signer.Sign("nobody", planet))
	wantNotFound(t, res, body, "Link not found")

	// A resource whose URL is no web address.
	res, body = f.follow(t, "GET", f.token("Codex"))
	wantNotFound(t, res, body, "The resource has no http or https URL to link to.")
}

// failingCounts is a store whose link-outs cannot be counted.
type failingCounts struct{ pfapi.LinkOutStore }

func (failingCounts) CountLinkOut(context.Context, string, kb.ResourceKey, kb.LinkVia) error {
	return errors.New("disk on fire")
}

func TestLinkOutCountFailureStillRedirects(t *testing.T) {
	f := newLinkFixture(t)
	f.serve(t, failingCounts{f.store})
	res, body := f.follow(t, "GET", f.token("Daily Planet"))
	wantRedirect(t, res, body, "https://plain.example/planet")
	if !strings.Contains(f.log.String(), "disk on fire") {
		t.Errorf("the count's failure was not logged:\n%s", f.log)
	}
}

func TestLinkOutSurvivesReopen(t *testing.T) {
	f := newLinkFixture(t)
	tok := f.token("Daily Planet")
	f.srv.Close()
	if err := f.store.Close(); err != nil {
		t.Fatal(err)
	}
	st := storetest.Searched(t.Context(), testdb.OpenDSN(t, f.dsn))
	f.store = st
	f.serve(t, st)
	if again := f.token("Daily Planet"); again != tok {
		t.Errorf("token after reopen = %q, want %q: the secret changed", again, tok)
	}
	res, body := f.follow(t, "GET", tok)
	wantRedirect(t, res, body, "https://plain.example/planet")
}

func TestLinkOutURL(t *testing.T) {
	tests := []struct {
		name, target, proto, want string
	}{
		{"plain", "http://kb.example/pf/x", "", "http://kb.example/pf/linkout/TOK.MAC"},
		{"TLS", "https://kb.example/pf/x", "", "https://kb.example/pf/linkout/TOK.MAC"},
		{"forwarded https", "http://kb.example:8080/pf/x", "https", "https://kb.example:8080/pf/linkout/TOK.MAC"},
		{"forwarded HTTPS first of two", "http://kb.example/pf/x", "HTTPS, http", "https://kb.example/pf/linkout/TOK.MAC"},
		{"forwarded http", "http://kb.example/pf/x", "http", "http://kb.example/pf/linkout/TOK.MAC"},
		{"forwarded http, then https", "http://kb.example/pf/x", "http, https", "http://kb.example/pf/linkout/TOK.MAC"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", tt.target, nil)
			if tt.proto != "" {
				r.Header.Set("X-Forwarded-Proto", tt.proto)
			}
			if got := pfapi.LinkOutURL(r, "TOK.MAC"); got != tt.want {
				t.Errorf("LinkOutURL = %q, want %q", got, tt.want)
			}
		})
	}
	// A signed token comes through unchanged.
	tok := kb.NewLinkSigner(bytes.Repeat([]byte{1}, 32)).Sign("a|b", kb.ResourceKey{PackageID: 1, TitleID: 2})
	if got := pfapi.LinkOutURL(httptest.NewRequest("GET", "http://h/", nil), tok); got != "http://h/pf/linkout/"+tok {
		t.Errorf("LinkOutURL = %q", got)
	}
}
