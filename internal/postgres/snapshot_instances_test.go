package postgres_test

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/postgres"
	"github.com/kbserver/kbserver/internal/testdb"
)

// seedSnapshot fills the knowledge base with one package of n titles, one
// KBART row each and two for every tenth, and customer c1, who selects the
// package whole, hides its title 7 and gives title 8 a custom coverage of
// three ranges and its own proxy. It returns the number of holding rows c1's snapshot has.
func seedSnapshot(t *testing.T, st *postgres.Store, n int) int {
	t.Helper()
	ctx := t.Context()
	for _, q := range []string{
		`INSERT INTO vendors(id, name, sort_name) VALUES (1, 'V', 'v'), (2, 'C1', 'c1')`,
		`INSERT INTO packages(id, vendor_id, name, sort_name, content_type, package_type) VALUES (1, 1, 'P', 'p', 1, 1)`,
		`INSERT INTO titles(id, name, sort_name, pub_type) SELECT g, 'Title ' || g, 'title ' || g, 1 FROM generate_series(1, $1::int) g`,
		`INSERT INTO resources(package_id, title_id, sort_name, url, kbart, pub_type)
			SELECT 1, g, 'title ' || g, '', row || CASE WHEN g % 10 = 0 THEN E'\n' || row ELSE '' END, 1
			FROM (SELECT g, 'Title ' || g || repeat(E'\t', 9) || 'https://x.example/' || g || repeat(E'\t', 15) AS row
				FROM generate_series(1, $1::int) g) t`,
		`INSERT INTO customers(id, name, vendor_id) VALUES ('c1', 'One', 2)`,
		`INSERT INTO customer_packages(customer_id, package_id, selected) VALUES ('c1', 1, true)`,
		`INSERT INTO customer_resources(customer_id, package_id, title_id, hidden) VALUES ('c1', 1, 7, true)`,
		`INSERT INTO proxies(customer_id, id, name, url_mask) VALUES ('c1', 'EZ', 'EZ', 'https://ez.example/?u={targetURL}')`,
		`INSERT INTO customer_resources(customer_id, package_id, title_id, selected, custom_coverage, proxy_id)
			VALUES ('c1', 1, 8, true, '[["2001","2002"],["2003",""],["1990","1991"]]', 'EZ')`,
	} {
		var args []any
		if strings.Contains(q, "$1") {
			args = append(args, n)
		}
		if _, err := st.Pool().Exec(ctx, q, args...); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
	return n + n/10 - 1 + 2
}

// allHoldings reads a store's whole snapshot of c1, then again a page at a
// time, and checks that both agree.
func allHoldings(t *testing.T, st *postgres.Store) []kb.Holding {
	t.Helper()
	var all []kb.Holding
	if err := st.Holdings(t.Context(), "c1", 1, 0, func(h *kb.Holding) error { all = append(all, *h); return nil }); err != nil {
		t.Fatal(err)
	}
	var paged []kb.Holding
	for off := 1; off <= len(all); off += 97 {
		if err := st.Holdings(t.Context(), "c1", off, 97, func(h *kb.Holding) error { paged = append(paged, *h); return nil }); err != nil {
			t.Fatal(err)
		}
	}
	if !slices.EqualFunc(all, paged, func(a, b kb.Holding) bool { return a.Values == b.Values }) {
		t.Fatalf("pages of 97 rows differ from the whole snapshot (%d, %d rows)", len(paged), len(all))
	}
	return all
}

// TestSnapshotInstances runs two stores over one database, as two servers
// do: a POST on one builds once, both serve the same snapshot, and a build
// whose claimant dies is resumed by the other.
func TestSnapshotInstances(t *testing.T) {
	u := testdb.NewPostgres(t)
	ctx := t.Context()
	a, err := postgres.Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := postgres.Open(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	total := seedSnapshot(t, a, 2000)

	var mu sync.Mutex
	builds := map[*postgres.Store]int{}
	defer postgres.OnBuild(func(s *postgres.Store, custID string, build int64) {
		mu.Lock()
		defer mu.Unlock()
		if s == a || s == b {
			builds[s]++
		}
	})()
	countBuilds := func() (na, nb int) {
		mu.Lock()
		defer mu.Unlock()
		return builds[a], builds[b]
	}

	for _, st := range []*postgres.Store{a, b} {
		if err := st.ResumeSnapshots(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.StartSnapshot(ctx, "c1", false); err != nil {
		t.Fatal(err)
	}
	// B starting while A builds: it must not build the same snapshot.
	if err := b.ResumeSnapshots(ctx); err != nil {
		t.Fatal(err)
	}
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	stB, err := b.WaitSnapshot(wctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	stA, err := a.SnapshotStatus(ctx, "c1")
	if err != nil {
		t.Fatal(err)
	}
	if stA != stB || stA.Status != kb.SnapshotCompleted || stA.Total != total {
		t.Fatalf("status on A %+v, on B %+v; want both Completed with %d rows", stA, stB, total)
	}
	hA, hB := allHoldings(t, a), allHoldings(t, b)
	if len(hA) != total || !slices.EqualFunc(hA, hB, func(x, y kb.Holding) bool { return x.Values == y.Values }) {
		t.Fatalf("A serves %d rows, B %d; want the same %d", len(hA), len(hB), total)
	}
	if h := hA[6]; h.Values[0] != "Title 8" || h.Values[3] != "2001" || h.Values[6] != "2002" || h.Values[26] != "1" ||
		h.Values[9] != "https://ez.example/?u=https://x.example/8" {
		t.Errorf("row 7 = %q, want title 8's first custom range", h.Values)
	}
	// Which server builds is a race (B's resume may claim the build before
	// A's own goroutine does); that one builds is not.
	firstA, firstB := countBuilds()
	if firstA+firstB != 1 {
		t.Fatalf("builds: %d on A, %d on B; want one in all", firstA, firstB)
	}

	// A third party holds the claim (a server busy building): A's POST
	// waits, B's resume leaves it, both report it in progress.
	claimant, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer claimant.Close(context.Background())
	var pid int
	if err := claimant.QueryRow(ctx, `SELECT pg_backend_pid(), pg_advisory_lock(`+postgres.SnapshotLockSQL+`)::text`, "c1").Scan(&pid, new(string)); err != nil {
		t.Fatal(err)
	}
	if err := a.StartSnapshot(ctx, "c1", false); err != nil {
		t.Fatal(err)
	}
	if err := b.StartSnapshot(ctx, "c1", false); kb.ErrorCode(err) != kb.CodeConflict {
		t.Fatalf("a POST on B while A's build is pending: %v, want a conflict", err)
	}
	if err := b.ResumeSnapshots(ctx); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond)
	for _, st := range []*postgres.Store{a, b} {
		if s, err := st.SnapshotStatus(ctx, "c1"); err != nil || s.Status != kb.SnapshotInProgress {
			t.Fatalf("status while the claim is held = %+v, %v", s, err)
		}
	}
	if na, nb := countBuilds(); na+nb != 1 {
		t.Fatalf("builds while another holds the claim: %d on A, %d on B", na, nb)
	}
	// A stops; the claimant dies: B resumes the build, once.
	a.Close()
	claimant.Close(ctx)
	for gone := time.Now().Add(30 * time.Second); ; {
		// The server ends the session (and its locks) soon after the
		// connection closes.
		if time.Now().After(gone) {
			t.Fatalf("the claimant's session %d is still alive 30 s after its connection closed", pid)
		}
		var alive bool
		if err := b.Pool().QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE pid = $1)`, pid).Scan(&alive); err != nil {
			t.Fatal(err)
		}
		if !alive {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := b.ResumeSnapshots(ctx); err != nil {
		t.Fatal(err)
	}
	wctx2, cancel2 := context.WithTimeout(ctx, 30*time.Second)
	defer cancel2()
	if stB, err = b.WaitSnapshot(wctx2, "c1"); err != nil || stB.Status != kb.SnapshotCompleted || stB.Total != total {
		t.Fatalf("status after the claimant died = %+v, %v", stB, err)
	}
	if na, nb := countBuilds(); na != firstA || nb != firstB+1 {
		t.Fatalf("builds: %d on A, %d on B; want %d on A, %d on B (one more, B's resume)", na, nb, firstA, firstB+1)
	}
	if got := allHoldings(t, b); !slices.EqualFunc(got, hA, func(x, y kb.Holding) bool { return x.Values == y.Values }) {
		t.Fatalf("the resumed build serves %d rows, unlike the first", len(got))
	}
}
