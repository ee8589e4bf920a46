package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// testKeyEnvironments checks that a key keeps the environment it was
// added for, and that an environment that is not one is refused.
func testKeyEnvironments(t *testing.T, s Store) {
	ctx := context.Background()
	if _, err := s.AddCustomer(ctx, "lib", ""); err != nil {
		t.Fatal(err)
	}
	for _, env := range kb.Environments {
		key := "key-of-" + string(env)
		if err := s.AddAPIKey(ctx, "lib", kb.HashAPIKey(key), env); err != nil {
			t.Fatalf("AddAPIKey(%s): %v", env, err)
		}
		got, err := s.LookupAPIKey(ctx, kb.HashAPIKey(key))
		if err != nil || got.CustomerID != "lib" || got.Environment != env {
			t.Errorf("LookupAPIKey of a %s key = %+v, %v; want customer lib, environment %s", env, got, err, env)
		}
	}
	for _, bad := range []kb.Environment{"", "staging", "Production", "sandbox "} {
		key := "key-of-bad-" + string(bad)
		wantCode(t, s.AddAPIKey(ctx, "lib", kb.HashAPIKey(key), bad), kb.CodeInvalid)
		_, err := s.LookupAPIKey(ctx, kb.HashAPIKey(key))
		wantCode(t, err, kb.CodeUnauthenticated)
	}
}

// testReady checks that a new store is ready.
func testReady(t *testing.T, s Store) {
	if err := s.Ready(context.Background()); err != nil {
		t.Errorf("Ready on a new store: %v", err)
	}
}

// testStats checks the statistics: the pool's numbers, the imports the
// store recorded (not a failed one), and a snapshot build.
func testStats(t *testing.T, s Store) {
	ctx := context.Background()
	st, err := s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p := st.Pool
	if p.MaxOpen < 1 || p.Open < 0 || p.Open > p.MaxOpen || p.InUse < 0 || p.Idle < 0 || p.InUse+p.Idle > p.Open ||
		p.WaitCount < 0 || p.WaitDuration < 0 {
		t.Errorf("pool stats = %+v, want 1 <= MaxOpen, 0 <= InUse + Idle <= Open <= MaxOpen", p)
	}
	if st.Imports != 0 || st.ImportRows != 0 || !st.LastImport.IsZero() || st.SnapshotBuildsCompleted != 0 || st.SnapshotBuildsFailed != 0 {
		t.Errorf("stats of a new store = %+v, want no imports and no builds", st)
	}

	before := time.Now()
	rows := []Row{
		{Title: "Journal of Counting", Online: "2049-3630", Type: "serial", URL: "https://x.example/jc"},
		{Title: "Journal of Counting", Online: "2049-3630", Type: "serial", URL: "https://x.example/jc", First: "2001"},
		{Title: "Book of Numbers", Type: "monograph", URL: "https://x.example/bn"},
	}
	Import(t, s, "Counter", "Counted", kb.ContentEJournal, rows)
	n := 0
	_, err = s.ImportPackage(ctx, kb.PackageSpec{VendorName: "Counter", PackageName: "Broken"}, func() (kb.ImportRow, error) {
		if n++; n > 2 {
			return kb.ImportRow{}, errStop
		}
		return Row{Title: "Half Written", Online: "2434-561X", Type: "serial"}.KBART(n), nil
	})
	if err == nil {
		t.Fatal("import with a failing source succeeded")
	}
	st, err = s.Stats(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if st.Imports != 1 || st.ImportRows != int64(len(rows)) {
		t.Errorf("after one import of %d rows and a failed one: Imports %d, ImportRows %d; want 1 and %d",
			len(rows), st.Imports, st.ImportRows, len(rows))
	}
	// The database's clock stamps the import: allow for its skew, not for
	// a time zone taken for UTC.
	if d := st.LastImport.Sub(before); d < -time.Minute || d > time.Minute {
		t.Errorf("LastImport = %v, want about %v", st.LastImport, before)
	}
	// A second import adds to the totals.
	Import(t, s, "Counter", "Counted again", kb.ContentEJournal, rows[:2])
	if st, err = s.Stats(ctx); err != nil {
		t.Fatal(err)
	}
	if st.Imports != 2 || st.ImportRows != int64(len(rows)+2) {
		t.Errorf("after a second import of 2 rows: Imports %d, ImportRows %d; want 2 and %d", st.Imports, st.ImportRows, len(rows)+2)
	}

	if _, err := s.AddCustomer(ctx, "c1", ""); err != nil {
		t.Fatal(err)
	}
	buildSnapshot(t, s, "c1")
	// The build counts once its transaction has committed, which
	// WaitSnapshot may see first: poll for it, for a bounded time.
	deadline := time.Now().Add(30 * time.Second)
	for st.SnapshotBuildsCompleted == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
		if st, err = s.Stats(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if st.SnapshotBuildsCompleted != 1 || st.SnapshotBuildsFailed != 0 || st.SnapshotBuildSeconds <= 0 {
		t.Errorf("after one snapshot build: completed %d, failed %d, seconds %v; want 1, 0, > 0",
			st.SnapshotBuildsCompleted, st.SnapshotBuildsFailed, st.SnapshotBuildSeconds)
	}
}
