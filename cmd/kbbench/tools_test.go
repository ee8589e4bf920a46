package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/store"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// The test binary doubles as a server for TestStartup: with
// KBBENCH_TEST_SERVE=addr it waits serveDelay (a slow start-up), opens the
// store KBBENCH_TEST_DB (a --db value of either kind) and serves the API on addr until SIGTERM.
const serveDelay = 300 * time.Millisecond

func TestMain(m *testing.M) {
	if addr := os.Getenv("KBBENCH_TEST_SERVE"); addr != "" {
		if err := serveForTest(addr, os.Getenv("KBBENCH_TEST_DB")); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func serveForTest(addr, db string) error {
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	defer stop()
	time.Sleep(serveDelay)
	st, err := store.Open(ctx, db)
	if err != nil {
		return err
	}
	defer st.Close()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: httpapi.NewServer(storetest.SearchOf(context.Background(), st), httpapi.Deps{Store: storetest.Raw(st), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})}
	go srv.Serve(ln)
	<-ctx.Done()
	return srv.Close()
}

// freeAddr returns a local address nothing listened on a moment ago: the
// server the test starts listens on it itself, so it cannot be held
// meanwhile; see startupAttempts.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// startupAttempts is how many free addresses a startup case tries: the
// address is free when chosen, but something else may listen on it before
// the server does (which then exits saying so in its log).
const startupAttempts = 3

func TestStartup(t *testing.T) {
	s := newTestServer(t)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("KBBENCH_TEST_DB", s.db)
	for _, c := range []struct {
		name    string
		header  string
		command []string
		timeout time.Duration // startup's --timeout: ample where the server must answer
		wantErr string        // "" for success
	}{
		{"starts", "x-api-key: " + s.key, []string{self, "-test.run=^$"}, 2 * time.Minute, ""},
		{"refused key", "x-api-key: kb_wrong", []string{self, "-test.run=^$"}, 3 * time.Second, "no 2xx answer"},
		{"exits", "x-api-key: " + s.key, []string{"false"}, 2 * time.Minute, "exited before answering"},
		{"no command", "x-api-key: " + s.key, nil, 2 * time.Minute, "no command"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var addr, stdout, stderr string
			var err error
			for attempt := 1; ; attempt++ {
				addr = freeAddr(t)
				t.Setenv("KBBENCH_TEST_SERVE", addr)
				log := filepath.Join(t.TempDir(), "server.log")
				args := append([]string{"startup", "--url", "http://" + addr + "/rm/rmaccounts/demo/", "--header", c.header,
					"--timeout", c.timeout.String(), "--log", log, "--"}, c.command...)
				stdout, stderr, err = runBench(args...)
				if b, _ := os.ReadFile(log); attempt < startupAttempts && strings.Contains(string(b), "address already in use") {
					t.Logf("%s was taken before the server listened on it; trying another address", addr)
					continue
				}
				break
			}
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("err = %v, want %q (stdout %s)", err, c.wantErr, stdout)
				}
				return
			}
			if err != nil {
				t.Fatalf("err = %v\n%s", err, stderr)
			}
			var r startupResult
			if err := json.Unmarshal([]byte(stdout), &r); err != nil {
				t.Fatalf("output %q: %v", stdout, err)
			}
			if r.Status != 200 || r.MS < float64(serveDelay/time.Millisecond) || r.MS > float64(c.timeout/time.Millisecond) || r.Polls < 2 {
				t.Errorf("result %+v: want status 200, from %s to %s, several polls", r, serveDelay, c.timeout)
			}
			// The server was stopped: nothing listens any more.
			if c, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
				c.Close()
				t.Errorf("the server still listens on %s", addr)
			}
		})
	}
}

func TestKBInfo(t *testing.T) {
	if testdb.Kind() == "postgres" {
		t.Skip("kbinfo reads a SQLite file directly (its --db is a file path); it has no PostgreSQL counterpart")
	}
	s := newTestServer(t)
	ctx := context.Background()
	st := s.st
	db, err := openReadOnly(s.db)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	// The three largest packages: demo gets package-level state in the
	// first, title-level state in the second, none in the third.
	rows, err := db.Query(`SELECT id, vendor_id, title_count FROM packages WHERE customer_id IS NULL ORDER BY title_count DESC, id LIMIT 3`)
	if err != nil {
		t.Fatal(err)
	}
	var big []packageInfo
	for rows.Next() {
		var p packageInfo
		rows.Scan(&p.ID, &p.VendorID, &p.TitleCount)
		big = append(big, p)
	}
	rows.Close()
	for _, p := range big {
		if err := st.UpdatePackage(ctx, "demo", p.VendorID, p.ID, kb.PackageUpdate{Selected: false}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.SetPackageState(ctx, "demo", big[0].ID, kb.PackageState{Selected: true}); err != nil {
		t.Fatal(err)
	}
	var titleID int64
	if err := db.QueryRow(`SELECT title_id FROM resources WHERE package_id = ? LIMIT 1`, big[1].ID).Scan(&titleID); err != nil {
		t.Fatal(err)
	}
	if err := st.UpdateResource(ctx, "demo", big[1].VendorID, big[1].ID, titleID, kb.ResourceUpdate{Selected: true}); err != nil {
		t.Fatal(err)
	}

	for _, c := range []struct {
		custid     string
		wantSelect int64 // 0: none asked
		wantNotes  int
	}{
		{"demo", big[2].ID, 2},
		{"", 0, 0},
	} {
		args := []string{"kbinfo", "--db", s.db}
		if c.custid != "" {
			args = append(args, "--custid", c.custid)
		}
		stdout, stderr, err := runBench(args...)
		if err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		var info kbInfo
		if err := json.Unmarshal([]byte(stdout), &info); err != nil {
			t.Fatalf("output %q: %v", stdout, err)
		}
		var titles, resources int64
		db.QueryRow(`SELECT (SELECT count(*) FROM titles), (SELECT count(*) FROM resources)`).Scan(&titles, &resources)
		if info.Titles != titles || info.Resources != resources || info.Packages == 0 || info.Vendors == 0 || info.DBBytes <= 0 {
			t.Errorf("counts %+v, want %d titles, %d resources", info, titles, resources)
		}
		if info.Largest == nil || info.Largest.ID != big[0].ID || info.Largest.TitleCount != big[0].TitleCount || info.Largest.Name == "" {
			t.Errorf("largest %+v, want %+v", info.Largest, big[0])
		}
		switch {
		case c.wantSelect == 0 && info.Select != nil:
			t.Errorf("select_package %+v without --custid", info.Select)
		case c.wantSelect != 0 && (info.Select == nil || info.Select.ID != c.wantSelect):
			t.Errorf("select_package %+v, want package %d", info.Select, c.wantSelect)
		}
		if len(info.SelectNotes) != c.wantNotes {
			t.Errorf("select_notes %q, want %d", info.SelectNotes, c.wantNotes)
		}
		if info.Title == nil || info.Title.Resources < 1 {
			t.Errorf("title %+v", info.Title)
		}
		if len(info.Customers) != 1 || info.Customers[0].ID != "demo" || info.Customers[0].TitleExceptions != 1 {
			t.Errorf("customers %+v", info.Customers)
		}
	}
	if _, _, err := runBench("kbinfo", "--db", filepath.Join(t.TempDir(), "missing.db")); err == nil {
		t.Error("kbinfo of a missing file: no error")
	}
}

func TestSnapshotTool(t *testing.T) {
	s := newTestServer(t)
	for _, c := range []struct {
		key     string
		wantErr string
	}{
		{s.key, ""},
		{s.key, ""}, // a second build replaces the first
		{"kb_wrong", "refused the API key"},
	} {
		stdout, stderr, err := runBench("snapshot", "--url", s.url, "--custid", "demo", "--key", c.key, "--poll", "5ms")
		if c.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("key %s: err = %v, want %q", c.key, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v\n%s", err, stderr)
		}
		var r snapshotResult
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatalf("output %q: %v", stdout, err)
		}
		var st struct {
			Status     string `json:"status"`
			TotalCount int    `json:"totalCount"`
		}
		a := &apiClient{http: http.DefaultClient, o: options{url: s.url, custID: "demo", key: s.key}}
		if err := a.do(context.Background(), http.MethodGet, "holdings/status", nil, &st); err != nil {
			t.Fatal(err)
		}
		if r.Status != "Completed" || r.TotalCount == 0 || r.TotalCount != st.TotalCount || r.Seconds <= 0 || r.Polls < 1 {
			t.Errorf("result %+v, status %+v", r, st)
		}
	}
}

func TestToolUsage(t *testing.T) {
	for _, args := range [][]string{
		{"startup", "--", "true"},         // no --url
		{"startup", "--url", "http://x/"}, // no command
		{"startup", "--url", "http://x/", "--header", "nocolon", "--", "true"},
		{"kbinfo"},
		{"kbinfo", "--db", "x", "extra"},
		{"snapshot", "--custid", "demo"},
		{"snapshot", "--key", "k"},
		{"summary"},
		{"summary", "--bogus"},
	} {
		_, _, err := runBench(args...)
		var ue *usageError
		if !errors.As(err, &ue) {
			t.Errorf("%q: err = %v, want a usage error", args, err)
		}
	}
	for _, tool := range []string{"startup", "kbinfo", "snapshot", "summary"} {
		if _, _, err := runBench(tool, "--help"); err != nil {
			t.Errorf("%s --help: %v", tool, err)
		}
	}
}

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{
		{nil, 0},
		{[]float64{3}, 3},
		{[]float64{3, 1}, 2},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
	} {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %g, want %g", c.in, got, c.want)
		}
	}
}

func TestSummary(t *testing.T) {
	op := func(name string, p99 float64, errs int) opStats {
		return opStats{Name: name, Requests: 100, Errors: errs, Throughput: 10, P50: p99 / 4, P95: p99 / 2, P99: p99}
	}
	run := func(anyTitle, anyPub, contains float64, pubErrs int) report {
		return report{
			Flags: map[string]string{"clients": "4", "duration": "30s", "warmup": "3s"},
			Operations: []opStats{op("titles/any/titlename", anyTitle, 0), op("titles/any/publisher", anyPub, pubErrs),
				op("titles/contains/titlename", contains, 0), op("title/get", 1, 0)},
			Totals: op("total", 50, pubErrs),
			Store:  &storeReport{Operations: []opStats{op("titles/any/titlename", 4, 0)}, Totals: op("total", 8, 0)},
		}
	}
	for _, c := range []struct {
		name      string
		runs      []report
		wantMet   int
		wantAll   bool
		wantWorst string
		wantP99   float64
	}{
		// p99 medians: any 15 (titlename 10, 15, 20), contains 12: both met at 15 ms.
		{"met", []report{run(10, 5, 12, 0), run(20, 5, 11, 0), run(15, 5, 13, 0)}, 2, true, "any", 15},
		// any's publisher has errors: any is not met however fast.
		{"errors", []report{run(1, 1, 1, 0), run(1, 1, 1, 2)}, 1, false, "any", 1},
		// contains over the target in the median run.
		{"slow", []report{run(1, 1, 16, 0), run(1, 1, 30, 0), run(1, 1, 2, 0)}, 1, false, "contains", 16},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			args := []string{"summary", "--json", filepath.Join(dir, "sum.json")}
			for i, r := range c.runs {
				b, err := marshalReport(r)
				if err != nil {
					t.Fatal(err)
				}
				f := filepath.Join(dir, "run"+string(rune('1'+i))+".json")
				if err := os.WriteFile(f, b, 0o644); err != nil {
					t.Fatal(err)
				}
				args = append(args, f)
			}
			stdout, stderr, err := runBench(args...)
			if err != nil {
				t.Fatalf("%v\n%s", err, stderr)
			}
			b, err := os.ReadFile(filepath.Join(dir, "sum.json"))
			if err != nil {
				t.Fatal(err)
			}
			var s runsSummary
			if err := json.Unmarshal(b, &s); err != nil {
				t.Fatal(err)
			}
			if s.Runs != len(c.runs) || s.MetTypes != c.wantMet || s.AllMet != c.wantAll || s.WorstType != c.wantWorst ||
				s.WorstP99 != c.wantP99 || len(s.Types) != 2 || s.TargetMS != 15 {
				t.Errorf("summary %+v", s)
			}
			if s.HTTPP50 != 12.5 || s.StoreP50 != 2 || s.HTTPRPS != 10 || s.StoreRPS != 10 {
				t.Errorf("HTTP / store: p50 %g / %g ms, %g / %g req/s", s.HTTPP50, s.StoreP50, s.HTTPRPS, s.StoreRPS)
			}
			for _, want := range []string{"| titles/any/titlename |", "| title/get |", "| total |", "| any |", "| contains |",
				"| HTTP/store p50 |", "| total | 12.5 | 2.00 | 50.0 | 8.00 | 6.2× |", "HTTP 10.0 req/s, store 10.0 req/s"} {
				if !strings.Contains(stdout, want) {
					t.Errorf("no %q in\n%s", want, stdout)
				}
			}
		})
	}
}
