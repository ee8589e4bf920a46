package httpapi_test

import (
	"encoding/json"
	"fmt"
	"html"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// TestDiskFull: with the SQLite database on a disk with no room left,
// every kind of write (a title's selection, a custom package, a license,
// a holdings snapshot, a console form) is answered 503 with Retry-After
// and a message naming the full disk, not 500, and writes nothing; reads
// go on; /readyz answers 503 saying so. Once space is freed /readyz
// answers 200 again, before any client writes, and the same writes
// succeed.
func TestDiskFull(t *testing.T) {
	if testdb.Kind() != "sqlite" {
		t.Skip("the full disk is reproduced under the SQLite file; PostgreSQL's is reproduced in internal/postgres (TestDiskFullWrite: a tablespace on a full tmpfs)")
	}
	dir := testdb.SmallDisk(t, 32<<20, nil)
	dsn := filepath.Join(dir, "kb.db")
	st := storetest.Searched(t.Context(), testdb.OpenDSN(t, dsn))
	ctx := t.Context()
	res := storetest.Import(t, st, "Vendor", "Package", kb.ContentEJournal, []storetest.Row{
		{Title: "Journal A", First: "2001-01-01", URL: "https://x.example/a", Type: "serial"},
		{Title: "Journal B", First: "2001-01-01", URL: "https://x.example/b", Type: "serial"},
	})
	cust, err := st.AddCustomer(ctx, "lib", "A Library")
	if err != nil {
		t.Fatal(err)
	}
	if err := st.AddAPIKey(ctx, "lib", kb.HashAPIKey("prod-key"), kb.Production); err != nil {
		t.Fatal(err)
	}
	titles, err := st.Titles(ctx, "lib", kb.TitleQuery{VendorID: res.VendorID, PackageID: res.PackageID, Page: kb.Page{Count: 10, Number: 1}})
	if err != nil || len(titles.Titles) == 0 {
		t.Fatalf("titles: %v, %v", titles, err)
	}
	title := titles.Titles[0].ID
	var logs strings.Builder
	srv := httptest.NewServer(httpapi.NewServer(storetest.SearchOf(t.Context(), st), httpapi.Deps{Store: st, Logger: slog.New(slog.NewTextHandler(&logs, nil))}))
	t.Cleanup(srv.Close)
	cookie, csrf := consoleSignIn(t, srv.URL, "prod-key")

	type write struct {
		what, method, path, body string
		form                     url.Values // a console form instead of a JSON body
		headerErrors             bool       // the message is in X-Error-Message (resource management)
		ok                       int        // its status once space is back
	}
	writes := []write{
		{what: "PUT title", method: "PUT", path: fmt.Sprintf("/rm/rmaccounts/lib/vendors/%d/packages/%d/titles/%d", res.VendorID, res.PackageID, title),
			body: `{"isSelected":true}`, ok: http.StatusNoContent},
		{what: "POST custom package", method: "POST", path: fmt.Sprintf("/rm/rmaccounts/lib/vendors/%d/packages", cust.VendorID),
			body: `{"packageName":"Made While Full","contentType":1}`, ok: http.StatusOK},
		{what: "POST license", method: "POST", path: "/rm/rmaccounts/lib/license",
			body:         `{"extensionObject":{"objectDescription":"License","objectType":"license","status":"active","customerId":"lib"},"license":{"licenseType":"consortial"}}`,
			headerErrors: true, ok: http.StatusCreated},
		{what: "POST holdings", method: "POST", path: "/rm/rmaccounts/lib/holdings", ok: http.StatusAccepted},
		{what: "console package form", method: "POST", path: fmt.Sprintf("/console/packages/%d/%d", res.VendorID, res.PackageID),
			form: url.Values{"csrf": {csrf}, "selected": {"on"}, "alltitles": {"on"}}, ok: http.StatusSeeOther},
	}
	send := func(w write) (*http.Response, string) {
		t.Helper()
		body, ctype := w.body, "application/json"
		if w.form != nil {
			body, ctype = w.form.Encode(), "application/x-www-form-urlencoded"
		}
		req, _ := http.NewRequestWithContext(ctx, w.method, srv.URL+w.path, strings.NewReader(body))
		req.Header.Set("Content-Type", ctype)
		if w.form != nil {
			req.Header.Set("Origin", srv.URL)
			req.Header.Set("Cookie", cookie)
		} else {
			req.Header.Set("x-api-key", "prod-key")
		}
		resp, err := noRedirect.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", w.what, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(b)
	}
	// What the writes would change, as the store reads it.
	unchanged := func(when string) {
		t.Helper()
		if r, err := st.Resource(ctx, "lib", res.VendorID, res.PackageID, title); err != nil || len(r.Resources) != 1 || r.Resources[0].IsSelected {
			t.Errorf("%s: the title is selected (%v): a refused write was applied", when, err)
		}
		if p, err := st.Package(ctx, "lib", res.VendorID, res.PackageID); err != nil || p.IsSelected {
			t.Errorf("%s: the package is selected (%v): a refused console form was applied", when, err)
		}
		if l, err := st.Packages(ctx, "lib", kb.PackageQuery{VendorID: cust.VendorID, Page: kb.Page{Count: 10, Number: 1}}); err != nil || l.Total != 0 {
			t.Errorf("%s: custom packages %+v (%v): a refused write was applied", when, l, err)
		}
		if l, err := st.ERMObjects(ctx, "lib", kb.ERMQuery{Kind: kb.KindLicense, Page: kb.Page{Count: 10, Number: 1}}); err != nil || l.Total != 0 {
			t.Errorf("%s: licenses %+v (%v): a refused write was applied", when, l, err)
		}
		if s, err := st.SnapshotStatus(ctx, "lib"); err != nil || s.Status != kb.SnapshotNone {
			t.Errorf("%s: snapshot %+v (%v): a refused write was applied", when, s, err)
		}
	}

	// The database's WAL is emptied into its file, so that any write
	// must grow a file on the full disk.
	var busy, logFrames, done int
	if err := testdb.DB(t, dsn).QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logFrames, &done); err != nil || busy != 0 {
		t.Fatalf("checkpoint: busy %d, %v", busy, err)
	}
	free := testdb.FillDisk(t, dir)
	for _, w := range writes {
		resp, body := send(w)
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
			t.Errorf("%s on a full disk: status %d, Retry-After %q; want 503 with Retry-After: %.300s", w.what, resp.StatusCode, resp.Header.Get("Retry-After"), body)
		}
		msg := kb.DiskFullMessage
		switch {
		case w.form != nil:
			msg = html.EscapeString(msg)
		case w.headerErrors:
			body = resp.Header.Get(web.ErrorMessageHeader)
		default:
			var e []struct {
				Code    kb.Code `json:"code"`
				Message string  `json:"message"`
			}
			if err := json.Unmarshal([]byte(body), &e); err != nil || len(e) != 1 || e[0].Code != kb.CodeUnavailable {
				t.Errorf("%s on a full disk: body %s; want one error of code %d", w.what, body, kb.CodeUnavailable)
			}
		}
		if !strings.Contains(body, msg) {
			t.Errorf("%s on a full disk: the answer does not say %q: %.300s", w.what, msg, body)
		}
	}
	if strings.Contains(logs.String(), "internal error") {
		t.Errorf("a full disk was logged as an internal error:\n%s", logs.String())
	}
	// Reads go on.
	if resp, body := send(write{what: "GET package", method: "GET", path: fmt.Sprintf("/rm/rmaccounts/lib/vendors/%d/packages/%d", res.VendorID, res.PackageID)}); resp.StatusCode != http.StatusOK {
		t.Errorf("GET package on a full disk: %d %.300s", resp.StatusCode, body)
	}
	unchanged("on the full disk")
	// Not ready, saying why; alive.
	readyz := func() (int, string) {
		t.Helper()
		resp, body := send(write{what: "GET /readyz", method: "GET", path: "/readyz"})
		return resp.StatusCode, strings.TrimSpace(body)
	}
	wantFull, _ := json.Marshal(struct {
		Status string `json:"status"`
		Error  string `json:"error"`
	}{"unavailable", kb.DiskFullMessage})
	if status, body := readyz(); status != http.StatusServiceUnavailable || body != string(wantFull) {
		t.Errorf("GET /readyz on a full disk: %d %s; want 503 %s", status, body, wantFull)
	}
	if resp, _ := send(write{what: "GET /healthz", method: "GET", path: "/healthz"}); resp.StatusCode != http.StatusOK {
		t.Errorf("GET /healthz on a full disk: %d", resp.StatusCode)
	}

	free()
	unchanged("once space is freed")
	// Ready again with no write of a client's: the readiness check's
	// probe sees the space (at most once a second).
	deadline := time.Now().Add(30 * time.Second)
	for {
		status, body := readyz()
		if status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET /readyz 30 s after space was freed: %d %s", status, body)
		}
		time.Sleep(100 * time.Millisecond) // polls a condition: the probe's next turn
	}
	for _, w := range writes {
		if resp, body := send(w); resp.StatusCode != w.ok {
			t.Errorf("%s once space is freed: status %d, want %d: %.300s", w.what, resp.StatusCode, w.ok, body)
		}
	}
	if r, err := st.Resource(ctx, "lib", res.VendorID, res.PackageID, title); err != nil || len(r.Resources) != 1 || !r.Resources[0].IsSelected {
		t.Errorf("once space is freed the title PUT did not apply: %v", err)
	}
}

// noRedirect is a client that returns redirects as they are.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// consoleSignIn signs in to the staff console of the server at base with
// key and returns the session cookie ("name=value") and the CSRF token of
// its forms.
func consoleSignIn(t *testing.T, base, key string) (cookie, csrf string) {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), "POST", base+"/console/signin", strings.NewReader(url.Values{"apikey": {key}}.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", base)
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("console sign-in: status %d", resp.StatusCode)
	}
	cookie, _, _ = strings.Cut(resp.Header.Get("Set-Cookie"), ";")
	req, _ = http.NewRequestWithContext(t.Context(), "GET", base+"/console/", nil)
	req.Header.Set("Cookie", cookie)
	resp, err = noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	m := regexp.MustCompile(`name="csrf" value="([^"]+)"`).FindSubmatch(body)
	if resp.StatusCode != http.StatusOK || m == nil {
		t.Fatalf("console after sign-in: status %d, no CSRF token", resp.StatusCode)
	}
	return cookie, string(m[1])
}
