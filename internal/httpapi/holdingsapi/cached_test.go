package holdingsapi_test

import (
	"bufio"
	"bytes"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kbserver/kbserver/internal/answercache"
	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/httpapi/apitest"
	"github.com/kbserver/kbserver/internal/httpapi/holdingsapi"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// TestAnswerCacheFollowsEveryWrite makes each kind of write that can
// change a kept answer (a title, a resource, a vendor, a package), after
// the answers were kept by two servers: the fixture's, and a second one
// over a second store opened on the same database (as a second instance
// would be). After each write both must answer exactly what a server
// without a cache answers, and at least one watched answer must have
// changed: a write whose version bump is missing fails here. Title
// searches and publication search's titles (CollectionTitles, with their
// resources' proxies) are watched too: each store answers searches from
// a title index and keeps the finished titles of their pages, but for
// the reference, a third store that keeps none.
func TestAnswerCacheFollowsEveryWrite(t *testing.T) {
	f := newFixture(t)
	otherStore := storetest.Searched(t.Context(), testdb.OpenDSN(t, f.dsn))
	other := apitest.NewServer(t, httpapi.NewServer(storetest.SearchOf(t.Context(), otherStore), httpapi.Deps{Store: storetest.Raw(otherStore), Logger: quiet}))
	ref := storetest.Searched(t.Context(), testdb.OpenDSN(t, f.dsn))
	ref.KeepTitles(0)
	uncached := apitest.NewServer(t, httpapi.NewServer(storetest.SearchOf(t.Context(), ref), httpapi.Deps{Store: storetest.Raw(ref), Logger: quiet, AnswerCacheBytes: -1}))
	servers := []*httptest.Server{f.srv, other}
	ctx := t.Context()

	var customPkg int64
	title := p("/titles/%d", f.testing)
	resource := p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.alphaJournals, f.testing)
	inBeta := p("/vendors/%d/packages/%d/titles/%d", f.betaVendor, f.betaBooks, f.testing)
	alphaVendor := p("/vendors/%d", f.alphaVendor)
	betaVendor := p("/vendors/%d", f.betaVendor)
	alphaPkg := p("/vendors/%d/packages/%d", f.alphaVendor, f.alphaJournals)
	betaPkg := p("/vendors/%d/packages/%d", f.betaVendor, f.betaBooks)
	ownVendor := p("/vendors/%d", f.cust1Vendor)
	alphaList := fmt.Sprintf("/rm/rmaccounts/v2/cust1/lists/%d", f.alphaJournals) // the v2 read of a package
	betaList := fmt.Sprintf("/rm/rmaccounts/v2/cust1/lists/%d", f.betaBooks)
	put := func(path, body string) func(t *testing.T) {
		return func(t *testing.T) { f.mustWrite(t, http.StatusNoContent, http.MethodPut, path, body) }
	}
	f.enableTokens(t) // direct SQL, before any answer is kept
	customPath := func() string { return p("/vendors/%d/packages/%d", f.cust1Vendor, customPkg) }
	steps := []struct {
		name    string
		watch   []string
		write   func(t *testing.T)
		changes bool // whether a watched answer must change
	}{
		{"package deselected", []string{title, resource, alphaPkg, alphaVendor, alphaList}, put(alphaPkg, `{"isSelected":false}`), true},
		{"package selected", []string{title, resource, alphaPkg, alphaVendor}, put(alphaPkg, `{"isSelected":true}`), true},
		{"package proxy", []string{title, resource, alphaPkg}, put(alphaPkg, `{"isSelected":true,"proxy":{"id":"EZProxy","inherited":false}}`), true},
		{"package token", []string{betaPkg, betaList}, put(betaPkg, `{"isSelected":true,"packageToken":{"value":"pkg7"}}`), true},
		{"resource customised", []string{title, resource}, put(resource,
			`{"isSelected":true,"customCoverageList":[{"beginCoverage":"2003-01-01","endCoverage":"2004-12-31"}],"coverageStatement":"Some issues"}`), true},
		{"resource hidden", []string{title, resource, alphaPkg}, put(resource, `{"isSelected":true,"isHidden":true}`), true},
		{"vendor proxy", []string{title, inBeta, betaVendor}, put(betaVendor, `{"proxy":{"id":"EZProxy","inherited":false}}`), true},
		{"vendor token", []string{betaVendor}, put(betaVendor, `{"vendorToken":{"value":"site42"},"proxy":{"id":"EZProxy","inherited":false}}`), true},
		{"root proxy", []string{title, resource, inBeta, alphaVendor, alphaPkg}, put(p("/"), `{"proxy":{"id":"EZProxy"}}`), true},
		{"root labels", []string{title, resource}, put(p("/"), `{"proxy":{"id":"EZProxy"},"labels":[{"id":1,"displayLabel":"Shelf","displayOnFullTextFinder":true,"displayOnPublicationFinder":false}]}`), false},
		{"proxy mask changed (kbserver proxy add)", []string{title, resource, inBeta}, func(t *testing.T) {
			if err := f.store.AddProxy(ctx, "cust1", kb.Proxy{ID: "EZProxy", Name: "EZProxy", URLMask: "https://other.example/?u={targetURL}"}); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"proxy removed (kbserver proxy remove)", []string{title, resource, inBeta, alphaPkg, betaVendor}, func(t *testing.T) {
			if err := f.store.RemoveProxy(ctx, "cust1", "EZProxy"); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"custom package created", []string{ownVendor}, func(t *testing.T) {
			res := f.mustWrite(t, http.StatusOK, http.MethodPost, p("/vendors/%d/packages", f.cust1Vendor), `{"packageName":"Local Stuff","contentType":1}`)
			var err error
			if customPkg, err = strconv.ParseInt(fmt.Sprint(res.object(t)["packageId"]), 10, 64); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"custom title created", []string{ownVendor}, func(t *testing.T) {
			f.mustWrite(t, http.StatusOK, http.MethodPost, p("/vendors/%d/packages/%d/titles", f.cust1Vendor, customPkg), `{"titleName":"Mine","pubType":"book"}`)
		}, false}, // the vendor does not count titles: the package's count is checked next
		{"custom package renamed", []string{"custom package"}, func(t *testing.T) {
			f.mustWrite(t, http.StatusNoContent, http.MethodPut, customPath(), `{"isSelected":true,"packageName":"Local Things","contentType":1}`)
		}, true},
		{"custom package deleted", []string{ownVendor}, func(t *testing.T) {
			f.mustWrite(t, http.StatusNoContent, http.MethodDelete, p("/vendors/%d/packages/%d", f.cust1Vendor, customPkg), "")
		}, true},
		{"store package state", []string{title, inBeta, betaPkg}, func(t *testing.T) {
			if err := f.store.SetPackageState(ctx, "cust1", f.betaBooks, kb.PackageState{Selected: true, Hidden: true}); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"store resource state", []string{p("/titles/%d", f.acta), p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.alphaJournals, f.acta)}, func(t *testing.T) {
			deselected := false
			if err := f.store.SetResourceState(ctx, "cust1", f.alphaJournals, f.acta, kb.ResourceState{Selected: &deselected}); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"import changes a URL and drops a title", []string{title, resource, alphaPkg}, func(t *testing.T) {
			row := kbartRow(map[int]string{
				fTitle: "Journal of Testing", fPrint: "0317-8471", fOnline: "1050-124X",
				fFirstDate: "1995-01-01", fURL: "http://alpha.example.com/jot-moved", fEmbargo: "P6M",
				fPublisher: "Alpha Publishing", fPubType: "serial",
			})
			if _, err := f.store.ImportPackage(ctx, kb.PackageSpec{VendorName: "Alpha Publishing", PackageName: "Alpha Journals",
				ContentType: kb.ContentEJournal, PackageType: kb.PackageSelectable}, rows(row)); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"retired state purged", []string{title, resource, alphaPkg}, func(t *testing.T) {
			if _, err := f.store.PurgeRetired(ctx, time.Now().Add(time.Hour)); err != nil {
				t.Fatal(err)
			}
		}, false}, // retired state is in no answer
	}
	get := func(t *testing.T, srv *httptest.Server, path string) string {
		t.Helper()
		res, body := apitest.Do(t, srv.Client(), http.MethodGet, srv.URL+path, nil, "x-api-key", key1)
		return fmt.Sprintf("%d %s", res.StatusCode, bytes.TrimSpace(body))
	}
	// Searches whose pages' titles are kept; whether they change does
	// not count for a step.
	searches := []string{p("/titles?search=journal&searchtype=contains&orderby=titlename"), p("/titles?search=testing&searchtype=any"),
		p("/vendors/%d/packages/%d/titles?search=journal&orderby=titlename", f.alphaVendor, f.alphaJournals)}
	collection := func(t *testing.T, st kb.Store) []kb.Title {
		t.Helper()
		ts, err := st.CollectionTitles(ctx, "cust1", []int64{f.testing, f.acta, f.series, f.cookbook})
		if err != nil {
			t.Fatal(err)
		}
		return ts
	}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			watch := slices.Clone(step.watch)
			for i, path := range watch {
				if path == "custom package" {
					watch[i] = customPath()
				}
			}
			before := map[string]string{}
			for _, path := range append(watch, searches...) {
				for _, srv := range servers {
					get(t, srv, path) // kept
					before[path] = get(t, srv, path)
				}
			}
			for _, st := range []kb.Store{f.store, otherStore} {
				collection(t, st) // kept
			}
			step.write(t)
			changed := false
			for _, path := range append(watch, searches...) {
				want := get(t, uncached, path)
				if slices.Contains(watch, path) {
					changed = changed || want != before[path]
				}
				for i, srv := range servers {
					if got := get(t, srv, path); got != want {
						t.Errorf("server %d, GET %s after the write:\n got %.400s\nwant %.400s", i, path, got, want)
					}
				}
			}
			want := collection(t, ref)
			for i, st := range []kb.Store{f.store, otherStore} {
				if diff := cmp.Diff(want, collection(t, st)); diff != "" {
					t.Errorf("store %d, collection titles after the write (-want +got):\n%s", i, diff)
				}
			}
			if changed != step.changes {
				t.Errorf("a watched answer changed: %v, want %v (the step does not test what it says)", changed, step.changes)
			}
		})
	}
}

// TestAnswerCacheHitsAndCustomers: a second GET of a title is served from
// the cache (the metric counts a hit and the bytes are the same), each
// customer's answer is its own, and another customer's key is refused
// before any kept answer is looked at.
func TestAnswerCacheHitsAndCustomers(t *testing.T) {
	f := newFixture(t)
	title := fmt.Sprintf("/titles/%d", f.testing)
	one := "/rm/rmaccounts/cust1" + title
	two := "/rm/rmaccounts/cust2" + title

	hits := cacheCounter(t, f, "hit")
	first := f.get(t, one, key1)
	if got := cacheCounter(t, f, "hit"); got != hits {
		t.Fatalf("first GET counted %v hits", got-hits)
	}
	second := f.get(t, one, key1)
	if got := cacheCounter(t, f, "hit"); got != hits+1 {
		t.Errorf("second GET counted %v hits, want 1", got-hits)
	}
	if first.status != http.StatusOK || !bytes.Equal(first.body, second.body) {
		t.Errorf("second answer differs: %d %s / %d %s", first.status, first.body, second.status, second.body)
	}
	for _, h := range []string{"Content-Type", "X-Content-Type-Options", "Content-Length"} {
		if second.header.Get(h) == "" || h != "Content-Length" && second.header.Get(h) != first.header.Get(h) {
			t.Errorf("header %s: first %q, kept %q", h, first.header.Get(h), second.header.Get(h))
		}
	}

	// cust1 selects Alpha Journals, cust2 does not: their answers differ.
	theirs := f.get(t, two, key2)
	if theirs.status != http.StatusOK || bytes.Equal(theirs.body, first.body) {
		t.Errorf("cust2's answer %d %s is cust1's", theirs.status, theirs.body)
	}
	if !strings.Contains(string(first.body), `"isSelected":true`) || strings.Contains(string(theirs.body), `"isSelected":true`) {
		t.Errorf("selection not the customer's own:\ncust1 %s\ncust2 %s", first.body, theirs.body)
	}
	for _, req := range []struct{ path, key string }{{one, key2}, {two, key1}} {
		if res := f.get(t, req.path, req.key); res.status != http.StatusForbidden {
			t.Errorf("GET %s with the other customer's key: %d %s, want 403", req.path, res.status, res.body)
		}
	}
	if res := f.get(t, one, ""); res.status != http.StatusUnauthorized {
		t.Errorf("GET %s without a key: %d, want 401", one, res.status)
	}
}

// TestAnswerCacheBudget: a server with a small budget keeps no more than
// it, dropping the least recently used answers, and a budget below 0
// keeps nothing.
func TestAnswerCacheBudget(t *testing.T) {
	f := newFixture(t)
	var paths []string
	for _, id := range []int64{f.testing, f.acta, f.series, f.cookbook} {
		paths = append(paths, p("/titles/%d", id))
	}
	for _, r := range [][3]int64{{f.alphaVendor, f.alphaJournals, f.testing}, {f.alphaVendor, f.alphaJournals, f.acta},
		{f.betaVendor, f.betaBooks, f.testing}, {f.betaVendor, f.betaBooks, f.series}, {f.betaVendor, f.betaBooks, f.cookbook}} {
		paths = append(paths, p("/vendors/%d/packages/%d/titles/%d", r[0], r[1], r[2]))
	}
	for _, v := range []int64{f.alphaVendor, f.betaVendor, f.cust1Vendor} {
		paths = append(paths, p("/vendors/%d", v))
	}
	for _, pk := range [][2]int64{{f.alphaVendor, f.alphaJournals}, {f.betaVendor, f.betaBooks}, {f.betaVendor, f.betaEmpty}} {
		paths = append(paths, p("/vendors/%d/packages/%d", pk[0], pk[1]))
	}
	largest := 0
	for _, path := range paths {
		largest = max(largest, len(f.get(t, path, key1).body))
	}
	// Room for a few answers, each within the share one may take.
	budget := int64(answercache.MaxShare * (largest + 400))
	for _, tc := range []struct {
		name   string
		budget int64
	}{{"small", budget}, {"off", -1}} {
		t.Run(tc.name, func(t *testing.T) {
			srv := apitest.NewServer(t, httpapi.NewServer(storetest.SearchOf(t.Context(), f.store), httpapi.Deps{Store: storetest.Raw(f.store), Logger: quiet, AnswerCacheBytes: tc.budget}))
			for range 3 {
				for _, path := range paths {
					if res, body := apitest.Do(t, srv.Client(), http.MethodGet, srv.URL+path, nil, "x-api-key", key1); res.StatusCode != http.StatusOK {
						t.Fatalf("GET %s: %d %s", path, res.StatusCode, body)
					}
				}
			}
			m := metricValues(t, srv)
			if tc.budget < 0 {
				if len(m) != 0 {
					t.Errorf("no cache, yet metrics %v", m)
				}
				return
			}
			if m["kbserver_answer_cache_bytes"] > float64(tc.budget) || m["kbserver_answer_cache_budget_bytes"] != float64(tc.budget) {
				t.Errorf("bytes %v over the budget %v (%v)", m["kbserver_answer_cache_bytes"], tc.budget, m)
			}
			if m["kbserver_answer_cache_evictions_total"] == 0 || m["kbserver_answer_cache_entries"] >= float64(len(paths)) {
				t.Errorf("all %d answers kept within a budget for fewer: %v", len(paths), m)
			}
		})
	}
}

// quiet is the log of the tests' extra servers.
var quiet = slog.New(slog.DiscardHandler)

// cacheCounter reads kbserver_answer_cache_requests_total{result} from the
// fixture server's /metrics.
func cacheCounter(t *testing.T, f *fixture, result string) float64 {
	t.Helper()
	return metricValues(t, f.srv)[`kbserver_answer_cache_requests_total{result="`+result+`"}`]
}

// metricValues reads the kbserver_answer_cache_ series of a server's
// /metrics, by name with labels.
func metricValues(t *testing.T, srv *httptest.Server) map[string]float64 {
	t.Helper()
	res, body := apitest.Do(t, srv.Client(), http.MethodGet, srv.URL+"/metrics", nil)
	if res.StatusCode != http.StatusOK {
		t.Fatalf("GET /metrics: %d", res.StatusCode)
	}
	m := map[string]float64{}
	sc := bufio.NewScanner(bytes.NewReader(body))
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "kbserver_answer_cache_") {
			continue
		}
		name, value, _ := strings.Cut(line, " ")
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			t.Fatalf("metric line %q: %v", line, err)
		}
		m[name] = v
	}
	return m
}

// TestAnswerCacheReadsVersionItself: behind an API-key check that brings
// no version (a store whose key lookup reads none), the cache reads the
// customer's version from the store, and a write still shows at once.
func TestAnswerCacheReadsVersionItself(t *testing.T) {
	f := newFixture(t)
	pass := func(next web.HandlerFunc) web.HandlerFunc { return next } // no key check, no version
	answers := answercache.New(1 << 20)
	mux := web.MountSplit(web.V2Prefix, quiet, holdingsapi.Routes(f.store, storetest.SearchOf(t.Context(), f.store), pass, answers))
	srv := httptest.NewServer(web.Serve(mux, quiet, 1<<20))
	t.Cleanup(srv.Close)
	path := srv.URL + p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.alphaJournals, f.testing)
	get := func() string {
		t.Helper()
		res, body := apitest.Do(t, srv.Client(), http.MethodGet, path, nil)
		if res.StatusCode != http.StatusOK {
			t.Fatalf("GET: %d %s", res.StatusCode, body)
		}
		return string(body)
	}
	before := get()
	if again := get(); again != before {
		t.Fatalf("second answer differs:\n%s\n%s", before, again)
	}
	if st := answers.Stats(); st.Hits != 1 {
		t.Fatalf("cache stats after two GETs: %+v, want the second served from the cache", st)
	}
	if err := f.store.SetPackageState(t.Context(), "cust1", f.alphaJournals, kb.PackageState{Selected: false}); err != nil {
		t.Fatal(err)
	}
	if after := get(); after == before || !strings.Contains(after, `"isSelected":false`) {
		t.Errorf("answer after deselecting the package: %s", after)
	}
}
