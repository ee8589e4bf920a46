package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/testdb"
)

// TestVacuum: after rows are deleted their pages stay free in the file;
// vacuum gives them back (the file shrinks, no page is left free) while a
// server's store stays open over the file, and what was kept reads back
// from that store.
func TestVacuum(t *testing.T) {
	if testdb.Kind() != "sqlite" {
		t.Skip("vacuum is SQLite's (TestVacuumPostgres)")
	}
	db := filepath.Join(t.TempDir(), "kb.db")
	kbs(t, "--db", db, "customer", "add", "lib").mustSucceed(t, "customer add")
	st := openDB(t, db) // stays open, as a running server's store
	ctx := t.Context()
	body := []byte(`{"license":{"note":"` + strings.Repeat("x", 256<<10) + `"}}`)
	for i := range 40 {
		if err := st.CreateERMObject(ctx, kb.ERMObject{ID: fmt.Sprintf("l%02d", i), CustomerID: "lib", Kind: kb.KindLicense,
			Status: kb.StatusActive, Description: "License", Body: body}); err != nil {
			t.Fatal(err)
		}
	}
	for i := 1; i < 40; i++ {
		if err := st.DeleteERMObject(ctx, "lib", kb.KindLicense, fmt.Sprintf("l%02d", i)); err != nil {
			t.Fatal(err)
		}
	}
	free := func() (n int64) {
		t.Helper()
		if err := testdb.DB(t, db).QueryRowContext(ctx, `PRAGMA freelist_count`).Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	size := func() int64 {
		t.Helper()
		fi, err := os.Stat(db)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Size()
	}
	// The deleted licenses' pages are in the file once the log is
	// checkpointed into it.
	testdb.DB(t, db).ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`)
	freeBefore, sizeBefore := free(), size()
	if freeBefore*4096 < 9<<20 {
		t.Fatalf("%d free pages after deleting 39 licenses of 256 KiB; want about 10 MB of them", freeBefore)
	}
	r := kbs(t, "--db", db, "vacuum").mustSucceed(t, "vacuum")
	if !strings.Contains(r.stdout, "before") || !strings.Contains(r.stdout, fmt.Sprintf("%d free", freeBefore)) || !strings.Contains(r.stdout, " 0 free (0%") {
		t.Errorf("vacuum's report does not give the free pages before (%d) and after (0):\n%s", freeBefore, r.stdout)
	}
	if n := free(); n != 0 {
		t.Errorf("%d free pages after vacuum, want 0", n)
	}
	if after := size(); after > sizeBefore-9<<20 {
		t.Errorf("the file went from %d to %d bytes; want it about 10 MB smaller", sizeBefore, after)
	}
	if o, err := st.ERMObject(ctx, "lib", kb.KindLicense, "l00"); err != nil || len(o.Body) < 256<<10 {
		t.Errorf("the license kept, read by the open store after vacuum: %v", err)
	}
	if err := st.CreateERMObject(ctx, kb.ERMObject{ID: "after", CustomerID: "lib", Kind: kb.KindLicense, Status: kb.StatusActive,
		Description: "After", Body: []byte(`{}`)}); err != nil {
		t.Errorf("a write of the open store after vacuum: %v", err)
	}
}

// TestVacuumPostgres: on PostgreSQL vacuum refuses, naming what to run
// instead.
func TestVacuumPostgres(t *testing.T) {
	r := kbs(t, "--db", "postgres://kbserver@db.example.org/kb", "vacuum")
	if r.code != 2 || !strings.Contains(r.stderr, "VACUUM FULL") {
		t.Errorf("vacuum on PostgreSQL: exit %d, stderr %s; want 2 naming VACUUM FULL", r.code, r.stderr)
	}
}

// TestVacuumFullDisk: a vacuum without room for its copy says what it
// needs and changes nothing; once there is room it runs.
func TestVacuumFullDisk(t *testing.T) {
	if testdb.Kind() != "sqlite" {
		t.Skip("vacuum is SQLite's")
	}
	dir := testdb.SmallDisk(t, 32<<20, nil)
	db := filepath.Join(dir, "kb.db")
	kbs(t, "--db", db, "customer", "add", "lib").mustSucceed(t, "customer add")
	st := openDB(t, db)
	ctx := t.Context()
	body := []byte(`{"license":{"note":"` + strings.Repeat("x", 256<<10) + `"}}`)
	for i := range 20 {
		if err := st.CreateERMObject(ctx, kb.ERMObject{ID: fmt.Sprintf("l%02d", i), CustomerID: "lib", Kind: kb.KindLicense,
			Status: kb.StatusActive, Description: "License", Body: body}); err != nil {
			t.Fatal(err)
		}
	}
	for i := 1; i < 20; i++ {
		if err := st.DeleteERMObject(ctx, "lib", kb.KindLicense, fmt.Sprintf("l%02d", i)); err != nil {
			t.Fatal(err)
		}
	}
	conn := testdb.DB(t, db)
	if _, err := conn.ExecContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	var freeBefore int64
	if err := conn.QueryRowContext(ctx, `PRAGMA freelist_count`).Scan(&freeBefore); err != nil || freeBefore == 0 {
		t.Fatalf("free pages before: %d, %v", freeBefore, err)
	}
	free := testdb.FillDisk(t, dir)
	r := kbs(t, "--db", db, "vacuum")
	if r.code != 1 || !strings.Contains(r.stderr, "found no room: it needs about") || !strings.Contains(r.stderr, "nothing was changed") {
		t.Errorf("vacuum on a full disk: exit %d, stderr %s; want 1 naming the room it needs", r.code, r.stderr)
	}
	var n int64
	if err := conn.QueryRowContext(ctx, `PRAGMA freelist_count`).Scan(&n); err != nil || n != freeBefore {
		t.Errorf("free pages after the refused vacuum: %d, %v; want %d as before", n, err, freeBefore)
	}
	free()
	kbs(t, "--db", db, "vacuum").mustSucceed(t, "vacuum once there is room")
	if err := conn.QueryRowContext(ctx, `PRAGMA freelist_count`).Scan(&n); err != nil || n != 0 {
		t.Errorf("free pages after vacuum: %d, %v; want 0", n, err)
	}
	if _, err := st.ERMObject(ctx, "lib", kb.KindLicense, "l00"); err != nil {
		t.Errorf("the license kept: %v", err)
	}
}
