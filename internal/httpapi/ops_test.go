package httpapi_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/httpapi/apitest"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// opsStore returns a store with one imported package, the customer lib
// with a production key "prod-key" and a sandbox key "sandbox-key", and
// the guest publication search profile lib.main.az.
func opsStore(t *testing.T) (kb.Store, kb.ImportResult) {
	t.Helper()
	ctx := t.Context()
	st := storetest.Searched(t.Context(), testdb.Open(t))
	var rows []storetest.Row
	for i := range 20 {
		rows = append(rows, storetest.Row{Title: fmt.Sprintf("Journal %02d", i), First: "2001-01-01",
			URL: fmt.Sprintf("https://x.example/%d", i), Publisher: "P", Type: "serial"})
	}
	res := storetest.Import(t, st, "Vendor", "Package", kb.ContentEJournal, rows)
	if _, err := st.AddCustomer(ctx, "lib", "A Library"); err != nil {
		t.Fatal(err)
	}
	for key, env := range map[string]kb.Environment{"prod-key": kb.Production, "sandbox-key": kb.Sandbox} {
		if err := st.AddAPIKey(ctx, "lib", kb.HashAPIKey(key), env); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.SaveProfile(ctx, kb.Profile{ID: kb.ProfileID{CustomerID: "lib", GroupID: "main", ProfileID: "az"}, Guest: true}); err != nil {
		t.Fatal(err)
	}
	return st, res
}

func TestHealthAndReadiness(t *testing.T) {
	dsn := testdb.NewDSN(t)
	st := storetest.Searched(t.Context(), testdb.OpenDSN(t, dsn))
	var logs strings.Builder
	logger := slog.New(slog.NewTextHandler(&logs, nil))
	srv := apitest.NewServer(t, httpapi.NewServer(storetest.SearchOf(t.Context(), st), httpapi.Deps{Store: storetest.Raw(st), Logger: logger}))
	for _, path := range []string{"/healthz", "/readyz"} {
		if resp, body := apitest.Do(t, http.DefaultClient, "GET", srv.URL+path, nil); resp.StatusCode != 200 || strings.TrimSpace(string(body)) != `{"status":"ok"}` {
			t.Errorf("GET %s: %d %s", path, resp.StatusCode, body)
		}
	}
	notReady := func(what, reason string) {
		t.Helper()
		resp, body := apitest.Do(t, http.DefaultClient, "GET", srv.URL+"/readyz", nil)
		want := `{"status":"unavailable","error":"The store is not ready; the server log says why."}`
		if resp.StatusCode != http.StatusServiceUnavailable || strings.TrimSpace(string(body)) != want {
			t.Errorf("GET /readyz %s: %d %s; want 503 %s", what, resp.StatusCode, body, want)
		}
		if !strings.Contains(logs.String(), reason) {
			t.Errorf("GET /readyz %s: the log lacks %q:\n%s", what, reason, logs.String())
		}
		if resp, _ := apitest.Do(t, http.DefaultClient, "GET", srv.URL+"/healthz", nil); resp.StatusCode != 200 {
			t.Errorf("GET /healthz %s: %d", what, resp.StatusCode)
		}
	}
	// The schema falls behind the build (a migration row goes, as if an
	// older kbserver had made the database): reachable, not ready.
	testdb.Exec(t, dsn, `DELETE FROM schema_migrations WHERE version = (SELECT MAX(version) FROM schema_migrations)`)
	notReady("with the newest migration missing", "this build needs")
	// The store goes away: the process still serves, but it is not ready.
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	notReady("after the store closed", "the store is closed")
}

// metricValue returns the value of the metric line that starts with
// name{labels} in a Prometheus text scrape, and whether there is one.
func metricValue(scrape, series string) (float64, bool) {
	for line := range strings.SplitSeq(scrape, "\n") {
		if rest, ok := strings.CutPrefix(line, series+" "); ok {
			v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
			return v, err == nil
		}
	}
	return 0, false
}

func TestMetricsScrape(t *testing.T) {
	st, res := opsStore(t)
	srv := apitest.NewServer(t, httpapi.NewServer(storetest.SearchOf(t.Context(), st), httpapi.Deps{Store: storetest.Raw(st)}))
	scrape := func() string {
		t.Helper()
		resp, body := apitest.Do(t, http.DefaultClient, "GET", srv.URL+"/metrics", nil)
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/plain") {
			t.Fatalf("GET /metrics: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
		}
		return string(body)
	}
	before := scrape()
	pkg := fmt.Sprintf("%s/rm/rmaccounts/lib/vendors/%d/packages/%d", srv.URL, res.VendorID, res.PackageID)
	if resp, body := apitest.Do(t, http.DefaultClient, "GET", pkg, nil, "x-api-key", "prod-key"); resp.StatusCode != 200 {
		t.Fatalf("GET package: %d %s", resp.StatusCode, body)
	}
	apitest.Do(t, http.DefaultClient, "GET", srv.URL+"/rm/rmaccounts/lib/vendors?count=10&offset=1", nil) // 401
	apitest.Do(t, http.DefaultClient, "GET", srv.URL+"/pf/pfaccount/lib.main.az/publications?search=journal", nil)
	apitest.Do(t, http.DefaultClient, "GET", srv.URL+"/no/such/route/12345", nil)
	after := scrape()

	for _, c := range []struct {
		series string
		want   float64
	}{
		{`kbserver_http_requests_total{code="200",route="GET /rm/rmaccounts/{custid}/vendors/{vendorid}/packages/{packageid}",service="holdings"}`, 1},
		{`kbserver_http_requests_total{code="401",route="GET /rm/rmaccounts/{custid}/vendors",service="holdings"}`, 1},
		{`kbserver_http_requests_total{code="200",route="GET /pf/pfaccount/{profile}/publications",service="publication-search"}`, 1},
		{`kbserver_http_requests_total{code="404",route="unmatched",service="none"}`, 1},
		{`kbserver_http_requests_total{code="200",route="GET /metrics",service="ops"}`, 1}, // the first scrape
		{`kbserver_http_request_duration_seconds_count{route="GET /rm/rmaccounts/{custid}/vendors/{vendorid}/packages/{packageid}",service="holdings"}`, 1},
		{`kbserver_http_requests_in_flight`, 1}, // this scrape
		{`kbserver_store_ready`, 1},
		{`kbserver_imports_total`, 1},
		{`kbserver_import_rows_total`, 20},
		{`kbserver_feed_runs_total{outcome="failed"}`, 0}, // shown before any run
	} {
		got, ok := metricValue(after, c.series)
		if !ok || got != c.want {
			t.Errorf("%s = %v (present %v), want %v", c.series, got, ok, c.want)
		}
	}
	if _, ok := metricValue(before, `kbserver_http_requests_total{code="401",route="GET /rm/rmaccounts/{custid}/vendors",service="holdings"}`); ok {
		t.Error("the first scrape already counted the 401 made after it")
	}
	for _, name := range []string{"kbserver_store_pool_max_connections", "kbserver_store_pool_open_connections",
		`kbserver_snapshot_builds_total{result="completed"}`, "kbserver_last_import_timestamp_seconds",
		"go_goroutines", "process_resident_memory_bytes"} {
		if _, ok := metricValue(after, name); !ok {
			t.Errorf("scrape lacks %s", name)
		}
	}
	if max, _ := metricValue(after, "kbserver_store_pool_max_connections"); max < 1 {
		t.Errorf("kbserver_store_pool_max_connections = %v", max)
	}
	if last, _ := metricValue(after, "kbserver_last_import_timestamp_seconds"); time.Since(time.Unix(int64(last), 0)) > time.Hour {
		t.Errorf("kbserver_last_import_timestamp_seconds = %v, not the import just made", last)
	}
	if strings.Contains(after, "prod-key") || regexp.MustCompile(`custid="`).MatchString(after) {
		t.Error("the scrape holds a key or a customer id label")
	}
}

// TestEnvironments runs a sandbox and a production server over one store:
// each admits its own environment's key only, and both serve the root
// settings with and without the trailing slash.
func TestEnvironments(t *testing.T) {
	st, _ := opsStore(t)
	servers := map[kb.Environment]string{}
	for _, env := range kb.Environments {
		servers[env] = apitest.NewServer(t, httpapi.NewServer(storetest.SearchOf(t.Context(), st), httpapi.Deps{Store: storetest.Raw(st), Environment: env})).URL
	}
	keys := map[kb.Environment]string{kb.Production: "prod-key", kb.Sandbox: "sandbox-key"}
	for _, env := range kb.Environments {
		base := servers[env] + "/rm/rmaccounts/lib"
		own := keys[env]
		for _, path := range []string{"/", ""} {
			if resp, body := apitest.Do(t, http.DefaultClient, "GET", base+path, nil, "x-api-key", own); resp.StatusCode != 200 {
				t.Errorf("%s: GET lib%s with its own key: %d %s", env, path, resp.StatusCode, body)
			}
			body := `{"proxy":{"id":"<n>"},"labels":[{"id":1,"displayLabel":"Room","displayOnFullTextFinder":true,"displayOnPublicationFinder":false}]}`
			if resp, got := apitest.Do(t, http.DefaultClient, "PUT", base+path, strings.NewReader(body), "x-api-key", own, "Content-Type", "application/json"); resp.StatusCode != 204 {
				t.Errorf("%s: PUT lib%s with its own key: %d %s", env, path, resp.StatusCode, got)
			}
		}
		for other, key := range keys {
			if other == env {
				continue
			}
			resp, body := apitest.Do(t, http.DefaultClient, "GET", base+"/vendors?count=10&offset=1", nil, "x-api-key", key)
			want := fmt.Sprintf(`[{"code":1003,"subcode":0,"message":"The API key belongs to the %s environment; this is the %s environment: use a %s key."}]`, other, env, env)
			if resp.StatusCode != 401 || strings.TrimSpace(string(body)) != want {
				t.Errorf("%s server, %s key: %d %s\nwant 401 %s", env, other, resp.StatusCode, body, want)
			}
			// The resource management service refuses it alike, in its header.
			resp, _ = apitest.Do(t, http.DefaultClient, "GET", base+"/contact", nil, "x-api-key", key)
			if resp.StatusCode != 401 || !strings.Contains(resp.Header.Get(web.ErrorMessageHeader), "belongs to the "+string(other)) {
				t.Errorf("%s server, %s key, contacts: %d %q", env, other, resp.StatusCode, resp.Header.Get(web.ErrorMessageHeader))
			}
		}
	}
}

// TestRateLimit checks the 429 after a key's or a profile's burst, and the
// recovery after the wait that Retry-After gives. On PostgreSQL the
// buckets are the store's (shared by instances); on SQLite the process's.
func TestRateLimit(t *testing.T) {
	st, _ := opsStore(t)
	// The search index is built before the bursts, and the rates are slow
	// (a token each 2 s), so that a burst's requests seldom earn it
	// another; checkLimited allows for those that do.
	const rate = 0.5
	finder := storetest.SearchOf(t.Context(), st)
	if err := finder.Index().Build(t.Context(), 0); err != nil {
		t.Fatal(err)
	}
	srv := apitest.NewServer(t, httpapi.NewServer(finder, httpapi.Deps{
		Store:        storetest.Raw(st),
		KeyLimit:     web.Limit{Rate: rate, Burst: 3},
		ProfileLimit: web.Limit{Rate: rate, Burst: 2},
	}))
	vendors := srv.URL + "/rm/rmaccounts/lib/vendors?count=10&offset=1"
	pf := srv.URL + "/pf/pfaccount/lib.main.az/publications?search=journal"
	checkLimited := func(what, url string, burst int, check func(resp *http.Response, body string)) {
		t.Helper()
		// The bucket refills while the burst is sent, by rate tokens a
		// second: on a loaded machine a request of the burst may take
		// long enough for one more to pass. So the requests go on until
		// one is refused, and no more may have passed than the burst and
		// what the bucket gained since the first was sent.
		start := time.Now()
		var resp *http.Response
		var body []byte
		for passed := 0; ; passed++ {
			resp, body = apitest.Do(t, http.DefaultClient, "GET", url, nil, "x-api-key", "prod-key")
			if resp.StatusCode != 200 {
				if passed < burst {
					t.Fatalf("%s: request %d of the burst: %d %s", what, passed+1, resp.StatusCode, body)
				}
				break
			}
			if allowed := burst + int(rate*time.Since(start).Seconds()); passed+1 > allowed {
				t.Fatalf("%s: %d requests passed in %s; a bucket of %d refilled at %g/s lets %d", what, passed+1, time.Since(start), burst, rate, allowed)
			}
			if passed+1 == burst+20 {
				t.Fatalf("%s: %d requests passed, none refused: each took over %g s", what, passed+1, 1/rate)
			}
		}
		retry, err := strconv.Atoi(resp.Header.Get("Retry-After"))
		if resp.StatusCode != http.StatusTooManyRequests || err != nil || retry < 1 {
			t.Fatalf("%s: after the burst: %d, Retry-After %q; want 429 with a wait", what, resp.StatusCode, resp.Header.Get("Retry-After"))
		}
		check(resp, string(body))
		time.Sleep(time.Duration(retry) * time.Second)
		if resp, body := apitest.Do(t, http.DefaultClient, "GET", url, nil, "x-api-key", "prod-key"); resp.StatusCode != 200 {
			t.Errorf("%s: after waiting Retry-After (%d s): %d %s", what, retry, resp.StatusCode, body)
		}
	}
	checkLimited("API key", vendors, 3, func(resp *http.Response, body string) {
		if want := `[{"code":1013,"subcode":0,"message":"API limit has been exceeded"}]`; strings.TrimSpace(body) != want {
			t.Errorf("429 body %s, want %s", body, want)
		}
	})
	checkLimited("profile", pf, 2, func(resp *http.Response, body string) {
		if got := resp.Header.Get(web.ErrorMessageHeader); got != "API limit has been exceeded" || body != "" {
			t.Errorf("publication search 429: message %q, body %q", got, body)
		}
	})
	// The health endpoints are never limited.
	for range 10 {
		if resp, _ := apitest.Do(t, http.DefaultClient, "GET", srv.URL+"/healthz", nil); resp.StatusCode != 200 {
			t.Fatalf("/healthz: %d", resp.StatusCode)
		}
	}
}

// TestRateLimitSharedByInstances runs two servers over one PostgreSQL
// database: a key's burst used up through one is used up on the other.
func TestRateLimitSharedByInstances(t *testing.T) {
	if testdb.Kind() != "postgres" {
		t.Skip("rate limits are shared by instances over PostgreSQL; on SQLite each process keeps its own (see TestRateLimit)")
	}
	dsn := testdb.NewDSN(t)
	stA, stB := storetest.Searched(t.Context(), testdb.OpenDSN(t, dsn)), storetest.Searched(t.Context(), testdb.OpenDSN(t, dsn))
	ctx := context.Background()
	if _, err := stA.AddCustomer(ctx, "lib", "A Library"); err != nil {
		t.Fatal(err)
	}
	if err := stA.AddAPIKey(ctx, "lib", kb.HashAPIKey("prod-key"), kb.Production); err != nil {
		t.Fatal(err)
	}
	limit := web.Limit{Rate: 0.01, Burst: 4} // no refill within the test
	a := apitest.NewServer(t, httpapi.NewServer(storetest.SearchOf(t.Context(), stA), httpapi.Deps{Store: storetest.Raw(stA), KeyLimit: limit}))
	b := apitest.NewServer(t, httpapi.NewServer(storetest.SearchOf(t.Context(), stB), httpapi.Deps{Store: storetest.Raw(stB), KeyLimit: limit}))
	path := "/rm/rmaccounts/lib/proxies"
	for i, url := range []string{a.URL, b.URL, a.URL, b.URL} {
		if resp, body := apitest.Do(t, http.DefaultClient, "GET", url+path, nil, "x-api-key", "prod-key"); resp.StatusCode != 200 {
			t.Fatalf("request %d: %d %s", i+1, resp.StatusCode, body)
		}
	}
	for _, url := range []string{a.URL, b.URL} {
		if resp, _ := apitest.Do(t, http.DefaultClient, "GET", url+path, nil, "x-api-key", "prod-key"); resp.StatusCode != http.StatusTooManyRequests {
			t.Errorf("after 4 requests shared by both servers, %s answered %d; want 429", url, resp.StatusCode)
		}
	}
}
