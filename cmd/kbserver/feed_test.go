package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// journalsFile is a small KBART file of n journals.
func journalsFile(n int) string {
	var b strings.Builder
	b.WriteString("publication_title\tprint_identifier\tonline_identifier\tdate_first_issue_online\tnum_first_vol_online\tnum_first_issue_online\tdate_last_issue_online\tnum_last_vol_online\tnum_last_issue_online\ttitle_url\tfirst_author\ttitle_id\tembargo_info\tcoverage_depth\tnotes\tpublisher_name\tpublication_type\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "Journal %d\t\t\t2001\t\t\t\t\t\thttps://example.com/j%d\t\tj%d\t\tfulltext\t\tPress\tserial\n", i, i, i)
	}
	return b.String()
}

// TestFeedCommands adds a feed, runs it (applied, then unchanged), runs a
// version that removes too much (held), approves it, and shows the
// history; bad options are usage errors; a header's value never prints.
func TestFeedCommands(t *testing.T) {
	var version atomic.Int32
	version.Store(1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Token") != "sesame" {
			http.Error(w, "no", http.StatusUnauthorized)
			return
		}
		v := version.Load()
		etag := fmt.Sprintf(`"v%d"`, v)
		if r.Header.Get("If-None-Match") == etag {
			w.WriteHeader(http.StatusNotModified)
			return
		}
		w.Header().Set("ETag", etag)
		n := 20
		if v == 2 {
			n = 10 // half the titles gone: held
		}
		fmt.Fprint(w, journalsFile(n))
	}))
	t.Cleanup(srv.Close)
	db := tempDB(t)
	out := kbs(t, "feed", "add", "--db", db, "--vendor", "Press", "--package", "Journals", "--url", srv.URL+"/kbart.txt?token=abc",
		"--header", "X-Token: sesame", "--every", "weekly", "--json").mustSucceed(t, "feed add")
	var f struct {
		ID      int64    `json:"id"`
		URL     string   `json:"url"`
		Every   string   `json:"every"`
		Headers []string `json:"headers"`
	}
	if err := json.Unmarshal([]byte(out.stdout), &f); err != nil || f.ID == 0 {
		t.Fatalf("feed add --json: %v\n%s", err, out.stdout)
	}
	if strings.Contains(out.stdout, "sesame") || strings.Contains(out.stdout, "token=abc") || f.Every != "168h0m0s" {
		t.Errorf("feed add printed %s", out.stdout)
	}
	id := fmt.Sprint(f.ID)
	run := func(args ...string) (outcome string, added, removed int) {
		t.Helper()
		r := kbs(t, append(append([]string{"feed"}, args...), "--db", db, "--json", id)...).mustSucceed(t, "feed "+args[0])
		var res struct {
			Outcome        string
			Added, Removed int
		}
		if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
			t.Fatalf("%v\n%s", err, r.stdout)
		}
		return res.Outcome, res.Added, res.Removed
	}
	if o, a, _ := run("run"); o != "applied" || a != 20 {
		t.Errorf("first run: %s, %d added; want applied, 20", o, a)
	}
	if o, _, _ := run("run"); o != "unchanged" {
		t.Errorf("second run: %s, want unchanged", o)
	}
	version.Store(2)
	if o, _, _ := run("run"); o != "held" {
		t.Errorf("a run removing half: %s, want held", o)
	}
	if o, _, r := run("approve"); o != "applied" || r != 10 {
		t.Errorf("approve: %s, %d removed; want applied, 10", o, r)
	}
	if r := kbs(t, "feed", "approve", "--db", db, id); r.code == 0 || !strings.Contains(r.stderr, "no held run") {
		t.Errorf("approve with nothing held: exit %d %s", r.code, r.stderr)
	}
	show := kbs(t, "feed", "show", "--db", db, id).mustSucceed(t, "feed show")
	for _, want := range []string{"applied", "held", "unchanged", "token=REDACTED"} {
		if !strings.Contains(show.stdout, want) {
			t.Errorf("feed show lacks %q:\n%s", want, show.stdout)
		}
	}
	if strings.Contains(show.stdout, "abc") || strings.Contains(show.stdout, "sesame") {
		t.Errorf("feed show prints a secret:\n%s", show.stdout)
	}
	list := kbs(t, "feed", "list", "--db", db).mustSucceed(t, "feed list")
	if !strings.Contains(list.stdout, "Journals") {
		t.Errorf("feed list:\n%s", list.stdout)
	}
	kbs(t, "feed", "remove", "--db", db, id).mustSucceed(t, "feed remove")
	if r := kbs(t, "feed", "show", "--db", db, id); r.code == 0 {
		t.Errorf("a removed feed shows")
	}
	for _, args := range [][]string{
		{"--vendor", "V", "--package", "P"},
		{"--vendor", "V", "--package", "P", "--url", "https://x", "--every", "soon"},
		{"--vendor", "V", "--package", "P", "--url", "https://x", "--max-removal", "120%"},
		{"--vendor", "V", "--package", "P", "--url", "https://x", "--header", "Host: x"},
	} {
		if r := kbs(t, append([]string{"feed", "add", "--db", db}, args...)...); r.code != 2 {
			t.Errorf("feed add %v: exit %d, want 2 (usage)\n%s", args, r.code, r.stderr)
		}
	}
}

// TestFeedAddFrom: a list of feeds is checked whole before any is added.
func TestFeedAddFrom(t *testing.T) {
	db := tempDB(t)
	dir := t.TempDir()
	good := filepath.Join(dir, "good.tsv")
	os.WriteFile(good, []byte("# vendor\tpackage\taddress\n"+
		"Press\tOne\tfile:///srv/one.txt\n"+
		"Press\tTwo\thttps://example.com/two.txt\tdaily\t5%\n"), 0o644)
	bad := filepath.Join(dir, "bad.tsv")
	os.WriteFile(bad, []byte("Press\tThree\tfile:///srv/three.txt\nPress\tFour\n"), 0o644)
	if r := kbs(t, "feed", "add", "--db", db, "--from", bad); r.code == 0 || !strings.Contains(r.stderr, "line 2") {
		t.Errorf("a bad list: exit %d %s", r.code, r.stderr)
	}
	kbs(t, "feed", "add", "--db", db, "--from", good).mustSucceed(t, "feed add --from")
	list := kbs(t, "feed", "list", "--db", db, "--json").mustSucceed(t, "feed list")
	var feeds []struct{ Package string }
	if err := json.Unmarshal([]byte(list.stdout), &feeds); err != nil || len(feeds) != 2 {
		t.Errorf("after a bad and a good list: %v %s; want the good list's two feeds only", err, list.stdout)
	}
}

// TestServeRunsDueFeedOnce: two servers over one database, each looking
// for due feeds ten times a second, run a due feed once: one fetch, one
// run in its history.
func TestServeRunsDueFeedOnce(t *testing.T) {
	var fetches atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fetches.Add(1)
		fmt.Fprint(w, journalsFile(5))
	}))
	t.Cleanup(srv.Close)
	db := tempDB(t)
	kbs(t, "feed", "add", "--db", db, "--vendor", "Press", "--package", "Journals", "--url", srv.URL+"/kbart.txt").mustSucceed(t, "feed add")
	servers := []*server{
		startServe(t, "serve", "--addr", "127.0.0.1:0", "--db", db, "--feeds-every", "100ms"),
		startServe(t, "serve", "--addr", "127.0.0.1:0", "--db", db, "--feeds-every", "100ms"),
	}
	for _, s := range servers {
		s.listeningAddr(t)
	}
	runs := func() int {
		var f struct{ Runs []struct{ Outcome string } }
		out := kbs(t, "feed", "show", "--db", db, "--json", "1").mustSucceed(t, "feed show")
		if err := json.Unmarshal([]byte(out.stdout), &f); err != nil {
			t.Fatal(err)
		}
		return len(f.Runs)
	}
	deadline := time.Now().Add(startWait)
	for runs() == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no run within %s", startWait)
		}
		time.Sleep(50 * time.Millisecond)
	}
	for _, s := range servers {
		if err := s.stop(t); err != nil {
			t.Fatal(err)
		}
	}
	if n, f := runs(), fetches.Load(); n != 1 || f != 1 {
		t.Errorf("%d runs and %d fetches of a due feed by two servers, want 1 and 1", n, f)
	}
}

// TestFeedHoldingsCommands: a customer's holdings feed added from the
// command line selects the file's titles of a package for the customer;
// a file naming fewer is held, then approved; bad combinations of flags
// are usage errors.
func TestFeedHoldingsCommands(t *testing.T) {
	db := tempDB(t)
	dir := t.TempDir()
	pkgFile := filepath.Join(dir, "package.txt")
	inst := filepath.Join(dir, "inst.txt")
	if err := os.WriteFile(pkgFile, []byte(journalsFile(20)), 0o644); err != nil {
		t.Fatal(err)
	}
	kbs(t, "import", "kbart", "--db", db, "--vendor", "Press", "--package", "Journals", pkgFile).mustSucceed(t, "import kbart")
	kbs(t, "customer", "add", "lib", "--db", db).mustSucceed(t, "customer add")
	write := func(n int) {
		t.Helper()
		if err := os.WriteFile(inst, []byte(journalsFile(n)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{
		{"--holdings", "--vendor", "Press", "--package", "Journals", "--url", "file://" + inst},
		{"--customer", "lib", "--vendor", "Press", "--package", "Journals", "--url", "file://" + inst},
	} {
		if r := kbs(t, append([]string{"feed", "add", "--db", db}, args...)...); r.code != 2 {
			t.Errorf("feed add %v: exit %d, want 2 (usage)\n%s", args, r.code, r.stderr)
		}
	}
	if r := kbs(t, "feed", "add", "--db", db, "--holdings", "--customer", "nobody", "--vendor", "Press", "--package", "Journals",
		"--url", "file://"+inst); r.code == 0 || !strings.Contains(r.stderr, "Customer not found") {
		t.Errorf("an unknown customer: exit %d %s", r.code, r.stderr)
	}
	out := kbs(t, "feed", "add", "--db", db, "--holdings", "--customer", "lib", "--vendor", "Press", "--package", "Journals",
		"--url", "file://"+inst, "--json").mustSucceed(t, "feed add --holdings")
	var f struct {
		ID       int64
		Holdings bool
		Customer string
	}
	if err := json.Unmarshal([]byte(out.stdout), &f); err != nil || !f.Holdings || f.Customer != "lib" {
		t.Fatalf("feed add --holdings --json: %v\n%s", err, out.stdout)
	}
	id := fmt.Sprint(f.ID)
	run := func(cmd string) (outcome string, added, removed int) {
		t.Helper()
		r := kbs(t, "feed", cmd, "--db", db, "--json", id).mustSucceed(t, "feed "+cmd)
		var res struct {
			Outcome        string
			Added, Removed int
		}
		if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
			t.Fatalf("%v\n%s", err, r.stdout)
		}
		return res.Outcome, res.Added, res.Removed
	}
	write(10)
	if o, a, r := run("run"); o != "applied" || a != 10 || r != 0 {
		t.Errorf("first run: %s +%d -%d; want applied, 10 selected", o, a, r)
	}
	write(12)
	if o, a, r := run("run"); o != "applied" || a != 2 || r != 0 {
		t.Errorf("second run: %s +%d -%d; want applied, 2 selected", o, a, r)
	}
	write(6)
	if o, _, r := run("run"); o != "held" || r != 6 {
		t.Errorf("a run deselecting half: %s -%d; want held, 6", o, r)
	}
	if o, _, r := run("approve"); o != "applied" || r != 6 {
		t.Errorf("approve: %s -%d; want applied, 6 deselected", o, r)
	}
	show := kbs(t, "feed", "show", "--db", db, id).mustSucceed(t, "feed show")
	if !strings.Contains(show.stdout, "holdings of customer lib") || !strings.Contains(show.stdout, "deselecting more than 20%") {
		t.Errorf("feed show:\n%s", show.stdout)
	}
}

// TestFeedAddFromRun: feed add --from LIST --run sets up and loads the
// packages of a folder of KBART files with one command; a file that
// cannot be read fails its own run only.
func TestFeedAddFromRun(t *testing.T) {
	db := tempDB(t)
	dir := t.TempDir()
	var list strings.Builder
	for i, n := range []int{5, 8} {
		path := filepath.Join(dir, fmt.Sprintf("p%d.txt", i))
		if err := os.WriteFile(path, []byte(journalsFile(n)), 0o644); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&list, "Consortium\tPackage %d\tfile://%s\tweekly\n", i, path)
	}
	fmt.Fprintf(&list, "Consortium\tMissing\tfile://%s\n", filepath.Join(dir, "missing.txt"))
	listFile := filepath.Join(dir, "feeds.tsv")
	os.WriteFile(listFile, []byte(list.String()), 0o644)
	out := kbs(t, "feed", "add", "--db", db, "--from", listFile, "--run", "--json").mustSucceed(t, "feed add --from --run")
	var feeds []struct {
		Package string
		Run     struct {
			Outcome string
			Added   int
		}
	}
	if err := json.Unmarshal([]byte(out.stdout), &feeds); err != nil || len(feeds) != 3 {
		t.Fatalf("%v\n%s", err, out.stdout)
	}
	for i, want := range []struct {
		outcome string
		added   int
	}{{"applied", 5}, {"applied", 8}, {"failed", 0}} {
		if feeds[i].Run.Outcome != want.outcome || feeds[i].Run.Added != want.added {
			t.Errorf("%s: %+v, want %s with %d titles", feeds[i].Package, feeds[i].Run, want.outcome, want.added)
		}
	}
	kbs(t, "customer", "add", "lib", "--db", db).mustSucceed(t, "customer add")
	pkgs := kbs(t, "package", "list", "--db", db, "lib").mustSucceed(t, "package list")
	if !strings.Contains(pkgs.stdout, "Package 0") || !strings.Contains(pkgs.stdout, "Package 1") {
		t.Errorf("the packages were not loaded:\n%s", pkgs.stdout)
	}
}
