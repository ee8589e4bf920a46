package pages_test

import (
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/httpapi/pages"
	"github.com/kbserver/kbserver/internal/kb"
)

// get fetches path from the fixture's server without following
// redirects and returns the status, headers and body.
func (f *fixture) get(t *testing.T, path string, header ...string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodGet, f.srv.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return f.do(t, req)
}

func (f *fixture) do(t *testing.T, req *http.Request) (int, http.Header, string) {
	t.Helper()
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, resp.Header, string(b)
}

// post sends a form to path as a browser on origin would.
func (f *fixture) post(t *testing.T, path string, form url.Values, origin string) (int, http.Header, string) {
	t.Helper()
	return f.postForm(t, path, form, "Origin", origin)
}

// postForm sends a form to path with the headers given as name, value
// pairs (an empty value is left out).
func (f *fixture) postForm(t *testing.T, path string, form url.Values, header ...string) (int, http.Header, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, f.srv.URL+path, strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for i := 0; i+1 < len(header); i += 2 {
		if header[i+1] != "" {
			req.Header.Set(header[i], header[i+1])
		}
	}
	return f.do(t, req)
}

// TestPagesHTTP checks the pages' answers without a browser: statuses,
// headers, what each page says, and the refusals.
func TestPagesHTTP(t *testing.T) {
	f := newFixture(t)
	az := pages.AZPath(guestProfile)
	pw := pages.AZPath(passwordProfile)
	tests := []struct {
		name, path string
		status     int
		want       []string // in the body
		not        []string // not in the body
	}{
		{"landing page", "/", 200, []string{"Holdings and knowledge base", "Publication search", "Resource management",
			`href="/docs"`, `href="/console/"`, `href="` + az + `"`}, []string{pw}},
		{"A–Z page", az, 200, []string{"Riverside Library", "1–25 of 47 titles", "Page 1 of 2", "Nursing Journal 01",
			"From 2001 to present, except the most recent 6 months.", `name="search"`, "Peer reviewed"}, nil},
		{"a search", az + "?search=handbook", 200, []string{"1–5 of 5 titles", "Nursing Handbook 1", "Book"}, []string{"Nursing Journal 01"}},
		{"a letter", az + "?alphamenufacet=A", 200, []string{"1–1 of 1 titles", "Atlas of Anatomy", `aria-current="page" class="current">A<`,
			`href="?alphamenufacet=At" title="1 titles">At<`}, nil},
		{"a bad letter marks none", az + "?alphamenufacet=%C3%A9", 400, []string{"Parameter alphamenufacet"}, []string{`class="current"`}},
		{"a facet", az + "?resourcetypefacet=book", 200, []string{"1–6 of 6 titles", "Type: Book"}, nil},
		{"page 2", az + "?offset=2", 200, []string{"26–47 of 47 titles", "Page 2 of 2"}, nil},
		{"a title that looks like markup is text", az + "?search=alert", 200,
			[]string{"&lt;script&gt;alert(1)&lt;/script&gt; Nursing"}, []string{"<script>"}},
		{"a bad parameter says which", az + "?searchtype=sideways", 400, []string{"Parameter searchtype has an invalid value"}, nil},
		{"a password profile asks for its password", pw, 401, []string{`type="password"`, `action="` + pw + `signin"`}, []string{"Nursing Journal"}},
		{"an unknown profile looks the same", "/az/lib.main.nobody/", 401, []string{`type="password"`}, nil},
		{"a malformed profile", "/az/nodots/", 400, []string{"is malformed"}, nil},
		{"the search box snippet", az + "embed", 200, []string{"&lt;form action=&#34;" + f.srv.URL + az + "&#34;", `name="search"`}, nil},
		{"a snippet does not tell whether a profile exists", "/az/lib.main.nobody/embed", 200, []string{"/az/lib.main.nobody/"}, nil},
		{"a bad page number", az + "?offset=0", 400, []string{"Parameter offset"}, nil},
		{"a parameter given twice", az + "?alphamenufacet=A&alphamenufacet=B", 400, []string{"Parameter alphamenufacet is given 2 times"}, nil},
		{"an entry below the first level", az + "?alphamenufacet=Nu", 200, []string{"1–25 of 45 titles",
			`aria-current="page" class="current">Nu<`, `aria-current="page" class="current">N<`}, nil},
		{"a letter offers the entries below it", az + "?alphamenufacet=N", 200, []string{`href="?alphamenufacet=Nu" title="45 titles">Nu<`},
			[]string{`>Na<`}}, // entries without titles are not offered
		// Links from a page whose address spells a parameter otherwise
		// replace it rather than give it twice.
		{"mixed-case parameters", az + "?AlphaMenuFacet=N&Offset=1", 200, []string{`href="?alphamenufacet=A"`, `href="?alphamenufacet=N&amp;offset=2"`}, []string{"AlphaMenuFacet", "Offset"}},
		{"the style sheet", "/assets/site.css", 200, []string{"--accent"}, nil},
		{"no such asset", "/assets/nothing.js", 404, []string{"There is no asset"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			status, h, body := f.get(t, tt.path)
			if status != tt.status {
				t.Errorf("GET %s: status %d, want %d", tt.path, status, tt.status)
			}
			for _, w := range tt.want {
				if !strings.Contains(body, w) {
					t.Errorf("GET %s: body lacks %q", tt.path, w)
				}
			}
			for _, w := range tt.not {
				if strings.Contains(body, w) {
					t.Errorf("GET %s: body has %q", tt.path, w)
				}
			}
			if !strings.HasPrefix(tt.path, "/assets/") || status != 200 {
				if ct := h.Get("Content-Type"); ct != "text/html; charset=utf-8" {
					t.Errorf("GET %s: Content-Type %q", tt.path, ct)
				}
				if csp := h.Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "script-src") {
					t.Errorf("GET %s: Content-Security-Policy %q allows scripts", tt.path, csp)
				}
			}
			if t.Failed() {
				if i := strings.Index(body, `class="titles"`); i >= 0 {
					body = body[i:]
				}
				t.Logf("body: %.3000s", body)
			}
		})
	}
}

// TestPatronSignIn: a password profile's page opens with a session
// cookie (HttpOnly, SameSite, only for that page) that the right password
// gets; a wrong one, an empty one, or a form posted from another site
// gets none.
func TestPatronSignIn(t *testing.T) {
	f := newFixture(t)
	pw := pages.AZPath(passwordProfile)
	signin := pw + "signin"
	for _, tt := range []struct {
		name, password, origin string
		status                 int
		want                   string
	}{
		{"wrong password", "guess", f.srv.URL, 401, "That password is not right"},
		{"no password", "", f.srv.URL, 400, "Enter the password."},
		{"from another site", profilePassword, "https://evil.example", 403, "sent from another site"},
	} {
		status, h, body := f.post(t, signin, url.Values{"password": {tt.password}}, tt.origin)
		if status != tt.status || !strings.Contains(body, tt.want) || h.Get("Set-Cookie") != "" {
			t.Errorf("%s: status %d, cookie %q, body has %q: %v", tt.name, status, h.Get("Set-Cookie"), tt.want, strings.Contains(body, tt.want))
		}
	}
	status, h, _ := f.post(t, signin, url.Values{"password": {profilePassword}}, f.srv.URL)
	if status != http.StatusSeeOther || h.Get("Location") != pw {
		t.Fatalf("right password: status %d, Location %q; want 303 to %s", status, h.Get("Location"), pw)
	}
	cookie := h.Get("Set-Cookie")
	for _, want := range []string{"kb_patron=", "Path=" + pw, "HttpOnly", "SameSite=Lax", "Max-Age="} {
		if !strings.Contains(cookie, want) {
			t.Errorf("session cookie %q lacks %q", cookie, want)
		}
	}
	value, _, _ := strings.Cut(cookie, ";")
	if status, _, body := f.get(t, pw, "Cookie", value); status != 200 || !strings.Contains(body, "Nursing Journal 01") {
		t.Errorf("with the cookie: status %d, want the A–Z list", status)
	}
	// Another password profile, with the same password: the cookie is
	// its own profile's.
	other := kb.ProfileID{CustomerID: "lib", GroupID: "main", ProfileID: "pw2"}
	hash, err := kb.HashPassword(profilePassword)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.store.SaveProfile(t.Context(), kb.Profile{ID: other, PasswordHash: hash}); err != nil {
		t.Fatal(err)
	}
	if status, _, _ := f.get(t, pages.AZPath(other), "Cookie", value); status != 401 {
		t.Errorf("the cookie on another password profile's page: status %d, want 401", status)
	}
	tampered := value[:len(value)-2] + "xx"
	if status, _, _ := f.get(t, pw, "Cookie", tampered); status != 401 {
		t.Errorf("a tampered cookie: status %d, want 401", status)
	}
	if status, h, _ := f.get(t, signin); status != http.StatusSeeOther || h.Get("Location") != pw {
		t.Errorf("GET of the sign-in address: %d to %q; want 303 to the page", status, h.Get("Location"))
	}
	// A new password ends the sessions of the old one.
	newHash, err := kb.HashPassword("another password")
	if err != nil {
		t.Fatal(err)
	}
	if err := f.store.SaveProfile(t.Context(), kb.Profile{ID: passwordProfile, PasswordHash: newHash}); err != nil {
		t.Fatal(err)
	}
	if status, _, _ := f.get(t, pw, "Cookie", value); status != 401 {
		t.Errorf("the cookie after the password changed: status %d, want 401", status)
	}
}
