package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/finder"
	"github.com/kbserver/kbserver/internal/gen"
	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/search"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// testServer is a kbserver over a small generated knowledge base with the
// customer "demo", an API key, some selected packages and a guest profile,
// in a store of the test run's kind (internal/testdb), its title searches
// answered by a title index as in kbserver. db is the store's --db value;
// st is the server's store, for setting up and checking.
type testServer struct {
	url, key, db string
	st           kb.Store
}

func newTestServer(t *testing.T) testServer {
	t.Helper()
	ctx := context.Background()
	db := testdb.NewDSN(t)
	st := testdb.OpenDSN(t, db)
	sum, err := gen.Generate(ctx, st, gen.Options{Titles: 2000, Seed: 1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.AddCustomer(ctx, "demo", "Demo Library"); err != nil {
		t.Fatal(err)
	}
	for i, id := range sum.PackageIDs {
		if i%3 == 0 {
			if err := st.SetPackageState(ctx, "demo", id, kb.PackageState{Selected: true}); err != nil {
				t.Fatal(err)
			}
		}
	}
	key := kb.NewAPIKey()
	if err := st.AddAPIKey(ctx, "demo", kb.HashAPIKey(key), kb.Production); err != nil {
		t.Fatal(err)
	}
	profile := kb.ProfileID{CustomerID: "demo", GroupID: "main", ProfileID: "az"}
	if err := st.SaveProfile(ctx, kb.Profile{ID: profile, Guest: true}); err != nil {
		t.Fatal(err)
	}
	finder := finder.New(t.Context(), st, search.Options{Inline: true})
	t.Cleanup(finder.Index().Wait) // after the context's end, before the store closes
	srv := httptest.NewServer(httpapi.NewServer(finder, httpapi.Deps{Store: storetest.Raw(st), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}))
	t.Cleanup(srv.Close)
	return testServer{url: srv.URL, key: key, db: db, st: st}
}

func runBench(args ...string) (stdout, stderr string, err error) {
	var out, errb bytes.Buffer
	getenv := func(string) string { return "" }
	err = run(context.Background(), args, getenv, strings.NewReader(""), &out, &errb)
	return out.String(), errb.String(), err
}

func TestRun(t *testing.T) {
	s := newTestServer(t)
	jsonFile := filepath.Join(t.TempDir(), "out.json")
	stdout, stderr, err := runBench("--url", s.url, "--key", s.key, "--profile", "demo.main.az",
		"--clients", "2", "--duration", "2s", "--warmup", "0", "--json", jsonFile, "--store-db", s.db)
	t.Logf("stdout:\n%s\nstderr:\n%s", stdout, stderr)
	if err != nil {
		t.Fatalf("run: %v", err)
	}

	// The table: a row per operation, in each of its sections.
	rows := map[string]int{}
	for _, line := range strings.Split(stdout, "\n") {
		if f := strings.Fields(line); len(f) > 0 {
			rows[f[0]]++
		}
	}
	names := operationNames()
	for _, n := range names {
		want := 1
		if strings.HasPrefix(n, "titles/") {
			want = 3 // HTTP, store and ratio tables
		}
		if rows[n] != want {
			t.Errorf("table has %d rows of %s, want %d", rows[n], n, want)
		}
	}

	b, err := os.ReadFile(jsonFile)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Start      string            `json:"start"`
		GoVersion  string            `json:"go_version"`
		Flags      map[string]string `json:"flags"`
		Operations []opStats         `json:"operations"`
		Totals     opStats           `json:"totals"`
		Store      *struct {
			Operations []opStats `json:"operations"`
			Totals     opStats   `json:"totals"`
			Ratios     []ratio   `json:"ratios"`
		} `json:"store"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("JSON results: %v\n%s", err, b)
	}
	if r.Start == "" || !strings.HasPrefix(r.GoVersion, "go") {
		t.Errorf("start %q, go_version %q", r.Start, r.GoVersion)
	}
	if r.Flags["clients"] != "2" || r.Flags["mix"] != "all" || r.Flags["key"] != "(set)" {
		t.Errorf("flags = %v", r.Flags)
	}
	if len(r.Operations) != len(names) {
		t.Fatalf("%d operations in the JSON, want %d", len(r.Operations), len(names))
	}
	total := 0
	for i, op := range r.Operations {
		if op.Name != names[i] {
			t.Errorf("operation %d is %s, want %s", i, op.Name, names[i])
		}
		if op.Requests < 1 || op.Errors != 0 || op.Throughput <= 0 || op.P50 <= 0 || op.P99 < op.P95 || op.P95 < op.P50 {
			t.Errorf("operation %s: %+v", op.Name, op)
		}
		total += op.Requests
	}
	if r.Totals.Name != "total" || r.Totals.Requests != total || r.Totals.Errors != 0 {
		t.Errorf("totals = %+v, want %d requests", r.Totals, total)
	}
	if r.Store == nil || len(r.Store.Operations) != 28 || len(r.Store.Ratios) != 29 {
		t.Fatalf("store results: %+v", r.Store)
	}
	for _, op := range r.Store.Operations {
		if op.Requests < 1 || op.Errors != 0 {
			t.Errorf("store operation %s: %+v", op.Name, op)
		}
	}
	for _, x := range r.Store.Ratios {
		if x.P50Ratio <= 0 || x.ThroughputRatio <= 0 {
			t.Errorf("ratio %+v", x)
		}
	}
}

func TestRunMix(t *testing.T) {
	s := newTestServer(t)
	stdout, stderr, err := runBench("--url", s.url, "--key", s.key, "--mix", "titles/exactmatch,vendors/list,pf",
		"--clients", "1", "--duration", "200ms", "--warmup", "50ms")
	if err != nil {
		t.Fatalf("run: %v\n%s", err, stderr)
	}
	if !strings.Contains(stderr, "pf/publications skipped: no --profile given") {
		t.Errorf("stderr does not note the skipped publication search:\n%s", stderr)
	}
	for _, want := range []string{"titles/exactmatch/titlename", "titles/exactmatch/subject", "vendors/list", "total"} {
		if !strings.Contains(stdout, "\n"+want+" ") {
			t.Errorf("no row %s in\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "titles/contains") || strings.Contains(stdout, "pf/publications") {
		t.Errorf("rows of operations not in the mix:\n%s", stdout)
	}
}

// TestStoreDBSearchIndex checks that --store-db's title index is made ready
// before the searches, built from the store or read from the index file a
// server keeps beside a SQLite file, and that the store answers from it.
func TestStoreDBSearchIndex(t *testing.T) {
	s := newTestServer(t)
	ctx := t.Context()
	q := kb.TitleQuery{Search: "journal", Field: kb.FieldTitleName, Type: kb.SearchContains, Page: kb.Page{Count: 25, Number: 1}}
	want, err := storetest.SearchOf(ctx, s.st).Titles(ctx, "demo", q)
	if err != nil || want.Total == 0 {
		t.Fatalf("the server's store: %d titles, %v", want.Total, err)
	}
	check := func(t *testing.T, source string) {
		st := testdb.OpenDSN(t, s.db)
		var log bytes.Buffer
		finder, stop, err := searchService(ctx, st, s.db, &log)
		if err != nil {
			t.Fatal(err)
		}
		defer stop()
		if !strings.Contains(log.String(), `msg="title index built" source=`+source) {
			t.Errorf("the index is not built from the %s before the searches:\n%s", source, &log)
		}
		got, err := finder.Titles(ctx, "demo", q)
		if err != nil || got.Total != want.Total {
			t.Errorf("%d titles, %v; want %d", got.Total, err, want.Total)
		}
	}
	t.Run("store", func(t *testing.T) { check(t, "store") })
	if testdb.Kind() == "postgres" {
		return // no index file beside a PostgreSQL database
	}
	t.Run("file", func(t *testing.T) {
		// A server's index file beside the SQLite file.
		live := search.NewLive(ctx, s.st, search.Options{Inline: true, File: s.db + ".search-index"})
		if err := live.Build(ctx, 0); err != nil {
			t.Fatal(err)
		}
		live.Wait()
		check(t, "file")
	})
}

func TestRunServerErrors(t *testing.T) {
	s := newTestServer(t)
	_, _, err := runBench("--url", s.url, "--key", "kb_wrong", "--duration", "100ms")
	if err == nil || !strings.Contains(err.Error(), "refused the API key") {
		t.Errorf("wrong key: err = %v", err)
	}
	_, _, err = runBench("--url", "http://127.0.0.1:1", "--key", "k", "--duration", "100ms")
	if err == nil || !strings.Contains(err.Error(), "cannot reach kbserver") {
		t.Errorf("no server: err = %v", err)
	}
}

func TestRunUsage(t *testing.T) {
	for _, args := range [][]string{
		{"--bogus"},
		{"--key", "k", "--clients", "0"},
		{"--key", "k", "--duration", "-1s"},
		{"--key", "k", "--mix", "nope"},
		{"--key", "k", "--mix", ","},
		{"--key", "k", "--url", "localhost:8080"},
		{"--key", "k", "extra"},
		{"--key", "k", "--sql-db", "kb.db"},
		{}, // no key
	} {
		_, _, err := runBench(args...)
		var ue *usageError
		if !errors.As(err, &ue) {
			t.Errorf("%q: err = %v, want a usage error", args, err)
		}
		if code := reportError(io.Discard, err); code != 2 {
			t.Errorf("%q: exit status %d, want 2", args, code)
		}
	}
	stdout, _, err := runBench("--help")
	if err != nil || !strings.Contains(stdout, "usage: kbbench") || !strings.Contains(stdout, "-store-db") {
		t.Errorf("--help: err = %v, stdout:\n%s", err, stdout)
	}
}

func TestSelectOperations(t *testing.T) {
	for _, c := range []struct {
		mix  string
		want int
	}{
		{"all", 35},
		{"read", 34},
		{"titles", 28},
		{"titles/any", 4},
		{"titles/any/isxn", 1},
		{"titles/any/isxn, title/get ,titles", 29},
		{"erm", 1},
	} {
		got, err := selectOperations(c.mix)
		if err != nil || len(got) != c.want {
			t.Errorf("selectOperations(%q) = %d operations, %v; want %d", c.mix, len(got), err, c.want)
		}
	}
}

func TestPercentile(t *testing.T) {
	ten := []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}
	hundred := make([]float64, 100)
	for i := range hundred {
		hundred[i] = float64(i + 1)
	}
	for _, c := range []struct {
		samples []float64
		p, want float64
	}{
		{nil, 50, 0},
		{[]float64{7}, 50, 7},
		{[]float64{7}, 99, 7},
		{[]float64{1, 2}, 50, 1},
		{[]float64{1, 2}, 51, 2},
		{ten, 50, 5},
		{ten, 95, 10},
		{ten, 99, 10},
		{ten, 10, 1},
		{ten, 11, 2},
		{hundred, 50, 50},
		{hundred, 95, 95},
		{hundred, 99, 99},
		{hundred, 100, 100},
		{hundred, 0.1, 1},
	} {
		if got := percentile(c.samples, c.p); got != c.want {
			t.Errorf("percentile(%d samples, %g) = %g, want %g", len(c.samples), c.p, got, c.want)
		}
	}
}

func TestSearchTerm(t *testing.T) {
	rng := rngFor(1, 0, "x")
	src := []string{"Journal of Marine Biology"}
	for _, c := range []struct {
		t    kb.SearchType
		want func(string) bool
	}{
		{kb.SearchExactMatch, func(s string) bool { return s == src[0] }},
		{kb.SearchBeginsWith, func(s string) bool { return s == "Journal of" }},
		{kb.SearchContains, func(s string) bool { return !strings.Contains(s, " ") && strings.Contains(strings.ToLower(src[0]), s) }},
		{kb.SearchExactPhrase, func(s string) bool { return strings.Contains("journal marine biology", s) && strings.Contains(s, " ") }},
		{kb.SearchAdvanced, func(s string) bool { return strings.Contains(s, " OR ") }},
	} {
		if got := searchTerm(rng, c.t, kb.FieldTitleName, src); !c.want(got) {
			t.Errorf("searchTerm(%s) = %q", c.t, got)
		}
	}
	if got := searchTerm(rng, kb.SearchBeginsWith, kb.FieldISXN, []string{"0889-9878"}); got != "0889" {
		t.Errorf("isxn beginswith = %q", got)
	}
	if got := searchTerm(rng, kb.SearchBeginsWith, kb.FieldISXN, []string{"978-0-306-40615-7"}); got != "978-0-30" {
		t.Errorf("isbn beginswith = %q, want its first half", got)
	}
}
