package feeds_test

import (
	"bytes"
	"cmp"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/kbserver/kbserver/internal/feeds"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
	"github.com/kbserver/kbserver/internal/realdata"
	"github.com/kbserver/kbserver/internal/testdb"
)

// realFile is the real KBART file the tests serve (1,484 rows of Wiley's).
const realFile = "ezpaarse-platforms/wiley/WILEY_FRANCE_ISTEXJOURNALS_2016-11-30_2016-12-19.txt"

// secret is the token in the feed's address; no run's message may show it.
const secret = "s3cr3t-t0ken"

// The feed's package.
const vendor, pkg = "Wiley", "ISTEX Journals"

// version is what the test server answers.
type version struct {
	body     []byte
	etag     string
	status   int    // 0: 200
	ctype    string // "": text/plain
	truncate bool   // announce the whole body, send half of it
	slow     bool   // answer nothing until the client gives up
}

// server serves the current version, answering 304 to a request whose
// If-None-Match is its ETag.
type server struct {
	*httptest.Server
	mu sync.Mutex
	v  version
}

func newServer(t testing.TB) *server {
	s := &server{}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		v := s.v
		s.mu.Unlock()
		if r.URL.Query().Get("token") != secret {
			http.Error(w, "no token", http.StatusUnauthorized)
			return
		}
		if v.status != 0 {
			http.Error(w, http.StatusText(v.status), v.status)
			return
		}
		if v.slow {
			<-r.Context().Done() // the client's time limit passed
			return
		}
		if v.etag != "" {
			w.Header().Set("ETag", v.etag)
			if r.Header.Get("If-None-Match") == v.etag {
				w.WriteHeader(http.StatusNotModified)
				return
			}
		}
		w.Header().Set("Content-Type", cmp.Or(v.ctype, "text/plain; charset=utf-8"))
		if v.truncate {
			w.Header().Set("Content-Length", strconv.Itoa(len(v.body)))
			w.Write(v.body[:len(v.body)/2])
			return
		}
		w.Write(v.body)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *server) serve(v version) {
	s.mu.Lock()
	s.v = v
	s.mu.Unlock()
}

// realKBART reads the real file, or skips (fails under CI=true) without it.
func realKBART(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(realdata.Dir(t), realFile))
	if err != nil {
		t.Fatalf("read the real KBART file: %v", err)
	}
	return b
}

// withoutShare returns the file with the data rows i%10 < tenths left out.
func withoutShare(b []byte, tenths int) []byte {
	lines := strings.SplitAfter(string(b), "\n")
	var out strings.Builder
	out.WriteString(lines[0])
	for i, l := range lines[1:] {
		if i%10 >= tenths {
			out.WriteString(l)
		}
	}
	return []byte(out.String())
}

// store opens a new store of this run's kind with customer c1, who reads
// the package.
func store(t testing.TB) feeds.Store {
	t.Helper()
	st := testdb.Open(t)
	if _, err := st.AddCustomer(t.Context(), "c1", "Customer One"); err != nil {
		t.Fatal(err)
	}
	fs, ok := st.(feeds.Store)
	if !ok {
		t.Fatalf("%T does not keep feeds", st)
	}
	return fs
}

// directImport is a store into which the files were imported directly,
// as `import kbart` does (kbart.Source into the importer).
func directImport(t *testing.T, files ...[]byte) feeds.Store {
	t.Helper()
	st := store(t)
	for _, b := range files {
		kr, err := kbart.NewReader(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		src := kbart.NewSource(kbart.SourceFile{Name: "direct", Reader: kr})
		spec := kb.PackageSpec{VendorName: vendor, PackageName: pkg, ContentType: kb.ContentUnknown, PackageType: kb.PackageSelectable,
			ExtraColumns: src.ExtraColumns()}
		if _, err := st.ImportPackage(t.Context(), spec, src.Next); err != nil {
			t.Fatal(err)
		}
	}
	return st
}

// packageTitles reads the package's titles with their resources through
// the store's reads, without the ids, which differ from store to store.
func packageTitles(t *testing.T, st feeds.Store) []kb.Title {
	t.Helper()
	all := packageTitlesWithIDs(t, st)
	for i := range all {
		all[i].ID = 0
		for j := range all[i].Resources {
			res := &all[i].Resources[j]
			res.TitleID, res.PackageID, res.VendorID = 0, 0, 0
		}
	}
	key := func(ti kb.Title) string {
		s := ti.Name + "\x00" + ti.Publisher
		for _, r := range ti.Resources {
			s += "\x00" + r.URL
		}
		return s
	}
	slices.SortFunc(all, func(a, b kb.Title) int { return strings.Compare(key(a), key(b)) })
	return all
}

// packageTitlesWithIDs reads the package's titles as customer c1 sees
// them, with their ids.
func packageTitlesWithIDs(t *testing.T, st feeds.Store) []kb.Title {
	t.Helper()
	ctx := t.Context()
	p, ok, err := st.FeedPackage(ctx, vendor, pkg)
	if err != nil || !ok {
		t.Fatalf("the package: %v, %v", ok, err)
	}
	r := st.(kb.KBReader)
	var all []kb.Title
	for n := 1; ; n++ {
		l, err := r.Titles(ctx, "c1", kb.TitleQuery{VendorID: p.VendorID, PackageID: p.PackageID, Page: kb.Page{Count: 100, Number: n}})
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, l.Titles...)
		if len(l.Titles) == 0 || len(all) >= l.Total {
			break
		}
	}
	if len(all) != p.Titles {
		t.Fatalf("read %d titles of the package's %d", len(all), p.Titles)
	}
	return all
}

// sameKB asserts that the feed's store holds the package as the direct
// import does.
func sameKB(t *testing.T, when string, got, want feeds.Store) {
	t.Helper()
	g, w := packageTitles(t, got), packageTitles(t, want)
	if len(w) == 0 {
		t.Fatalf("%s: the direct import has no titles", when)
	}
	if diff := gocmp.Diff(w, g); diff != "" {
		t.Errorf("%s: the feed's package differs from a direct import (-direct +feed):\n%s", when, diff)
	}
}

// claimFeed claims feed id for holder, or fails the test.
func claimFeed(t *testing.T, st feeds.Store, id int64, holder string) kb.Feed {
	t.Helper()
	f, ok, err := st.ClaimFeed(t.Context(), id, time.Now(), holder, time.Minute)
	if err != nil || !ok {
		t.Fatalf("claim the feed: %v, %v", ok, err)
	}
	return f
}

// runFeedNow runs the claimed feed f, and fails the test unless the run
// is recorded with outcome want and its message shows no token.
func runFeedNow(t *testing.T, d feeds.Deps, f kb.Feed, holder string, want kb.FeedOutcome) kb.FeedRun {
	t.Helper()
	r, err := feeds.Run(t.Context(), d, f, holder)
	if err != nil {
		t.Fatal(err)
	}
	if r.Outcome != want || r.ID == 0 {
		t.Fatalf("run: %s (%q), want %s", r.Outcome, r.Message, want)
	}
	if strings.Contains(r.Message, secret) {
		t.Errorf("the run's message shows the token: %q", r.Message)
	}
	return r
}

// TestRun serves versions of a real KBART file and then faults, and
// checks each run's outcome and the knowledge base against a direct
// import of the same file. Both stores (KBSERVER_TEST_STORE).
func TestRun(t *testing.T) {
	v1 := realKBART(t)
	v2 := withoutShare(v1, 3)
	srv := newServer(t)
	st := store(t)
	ctx := t.Context()
	d := feeds.Deps{Store: st, Client: srv.Client(), TempDir: t.TempDir(), Log: slog.New(slog.NewTextHandler(io.Discard, nil))}
	f, err := st.AddFeed(ctx, kb.Feed{Vendor: vendor, Package: pkg, URL: srv.URL + "/wiley.txt?token=" + secret, MaxRemoval: 20})
	if err != nil {
		t.Fatal(err)
	}
	const holder = "test"
	claim := func() kb.Feed { return claimFeed(t, st, f.ID, holder) }
	run := func(want kb.FeedOutcome) kb.FeedRun { return runFeedNow(t, d, claim(), holder, want) }

	srv.serve(version{body: v1, etag: `"v1"`})
	r := run(kb.FeedApplied)
	direct1 := directImport(t, v1)
	if r.Added == 0 || r.Removed != 0 || r.Status != 200 || r.Bytes != int64(len(v1)) || r.ETag != `"v1"` {
		t.Errorf("first run: %+v", r)
	}
	sameKB(t, "first run", st, direct1)
	if cs, err := st.(kb.HoldingsWriter).Changes(ctx, kb.ChangeQuery{KB: true, FeedID: f.ID, Limit: -1}); err != nil || len(cs) == 0 {
		t.Errorf("the first run's changes recorded as the feed's: %d, %v", len(cs), err)
	}

	r = run(kb.FeedUnchanged)
	if r.Status != http.StatusNotModified || r.Added+r.Removed+r.Changed != 0 {
		t.Errorf("second run: %+v", r)
	}
	sameKB(t, "unchanged", st, direct1)

	srv.serve(version{body: v2, etag: `"v2"`})
	held := run(kb.FeedHeld)
	if !held.Held || held.Removed == 0 || !strings.Contains(held.Message, "remove") {
		t.Errorf("30%% removed: %+v", held)
	}
	sameKB(t, "held", st, direct1)
	hf, err := st.HeldFile(ctx, held.ID)
	if err != nil {
		t.Fatal(err)
	}
	kept, err := io.ReadAll(hf)
	hf.Close()
	if err != nil || !bytes.Equal(kept, v2) {
		t.Errorf("the held file: %d bytes, %v; want the %d served", len(kept), err, len(v2))
	}

	r, err = feeds.Approve(ctx, d, claim(), held.ID, holder)
	if err != nil || r.Outcome != kb.FeedApplied || r.Removed != held.Removed || r.ETag != `"v2"` {
		t.Fatalf("approve: %+v, %v", r, err)
	}
	direct2 := directImport(t, v2)
	sameKB(t, "approved", st, direct2)
	if _, err := feeds.Approve(ctx, d, claim(), held.ID, holder); kb.ErrorCode(err) != kb.CodeInvalid {
		t.Errorf("approving it again: %v, want refused", err)
	}
	if _, err := feeds.Approve(ctx, d, claim(), r.ID, holder); kb.ErrorCode(err) != kb.CodeInvalid {
		t.Errorf("approving an applied run: %v, want refused", err)
	}
	if _, err := feeds.Approve(ctx, d, claim(), r.ID+1000, holder); kb.ErrorCode(err) != kb.CodeNotFound {
		t.Errorf("approving a run the feed does not have: %v, want not found", err)
	}
	run(kb.FeedUnchanged) // the approved file's ETag is the feed's now; each refusal released the lease

	for _, c := range []struct {
		name   string
		v      version
		status int
	}{
		{"404", version{body: v1, status: http.StatusNotFound}, http.StatusNotFound},
		{"401", version{body: v1, status: http.StatusUnauthorized}, http.StatusUnauthorized},
		{"500", version{body: v1, status: http.StatusInternalServerError}, http.StatusInternalServerError},
		{"HTML with 200", version{body: []byte("<!doctype html><html><body>Log in</body></html>"), ctype: "text/html"}, 200},
		{"HTML with 200 as text", version{body: []byte("<!doctype html><html><body>Log in</body></html>")}, 200},
		{"truncated", version{body: v1, etag: `"v3"`, truncate: true}, 200},
		{"slow", version{body: v1, slow: true}, 0},
	} {
		srv.serve(c.v)
		d.Limits.Timeout = 0
		if c.v.slow {
			d.Limits.Timeout = 200 * time.Millisecond
		}
		r := run(kb.FeedFailed)
		if c.v.slow && !strings.Contains(r.Message, "time limit") {
			t.Errorf("slow: %q, want the time limit named", r.Message)
		}
		if r.Status != c.status || !strings.Contains(r.Message, "REDACTED") || r.Added+r.Removed+r.Changed != 0 {
			t.Errorf("%s: %+v, want status %d and the address redacted", c.name, r, c.status)
		}
		sameKB(t, c.name, st, direct2)
	}

	// Files that fail a check before the import: held, untouched.
	for _, c := range []struct {
		name, body, reason string
	}{
		{"empty", "", "empty"},
		{"comma-separated", "publication_title,print_identifier\nA,1234-5678\n", "KBART header"},
		{"header only", string(v1[:bytes.IndexByte(v1, '\n')+1]), "no rows"},
	} {
		srv.serve(version{body: []byte(c.body), etag: `"` + c.name + `"`})
		r := run(kb.FeedHeld)
		if !r.Held || !strings.Contains(r.Message, c.reason) {
			t.Errorf("%s: %+v, want held for %q", c.name, r, c.reason)
		}
		sameKB(t, c.name, st, direct2)
	}

	_, runs, err := st.FeedHistory(ctx, f.ID)
	if err != nil {
		t.Fatal(err)
	}
	var outcomes []kb.FeedOutcome
	for _, r := range slices.Backward(runs) {
		outcomes = append(outcomes, r.Outcome)
	}
	want := []kb.FeedOutcome{kb.FeedApplied, kb.FeedUnchanged, kb.FeedHeld, kb.FeedApplied, kb.FeedUnchanged,
		kb.FeedFailed, kb.FeedFailed, kb.FeedFailed, kb.FeedFailed, kb.FeedFailed, kb.FeedFailed, kb.FeedFailed, kb.FeedHeld, kb.FeedHeld, kb.FeedHeld}
	if !slices.Equal(outcomes, want) {
		t.Errorf("history: %v, want %v", outcomes, want)
	}
}
