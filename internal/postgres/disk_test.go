package postgres_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/url"
	"os/user"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/postgres"
	"github.com/kbserver/kbserver/internal/testdb"
)

// fullTablespace returns the URL of a new schema of the test database
// whose tables are made in a tablespace on a small tmpfs, and the
// directory of that tmpfs. It needs root (to mount) and the database
// server on this machine, running as the user postgres; the test skips
// otherwise.
func fullTablespace(t *testing.T) (dsn, dir string) {
	t.Helper()
	base := testdb.PostgresURL(t)
	if u, err := url.Parse(base); err != nil || (u.Hostname() != "127.0.0.1" && u.Hostname() != "localhost") {
		t.Skip("a full disk is reproduced in a tablespace on this machine: the test database is elsewhere")
	}
	pg, err := user.Lookup("postgres")
	if err != nil {
		t.Skipf("no user postgres to own the tablespace: %v", err)
	}
	dir = testdb.SmallDisk(t, 16<<20, pg)
	b := make([]byte, 6)
	rand.Read(b)
	space := "kb_full_" + hex.EncodeToString(b)
	exec := func(q string) error {
		conn, err := pgx.Connect(context.Background(), base)
		if err != nil {
			return err
		}
		defer conn.Close(context.Background())
		_, err = conn.Exec(context.Background(), q)
		return err
	}
	if err := exec(`CREATE TABLESPACE ` + space + ` LOCATION '` + dir + `'`); err != nil {
		t.Skipf("create a tablespace on the tmpfs (the database server must run on this machine): %v", err)
	}
	t.Cleanup(func() {
		if err := exec(`DROP TABLESPACE ` + space); err != nil {
			t.Errorf("drop tablespace %s: %v", space, err)
		}
	})
	u, err := url.Parse(testdb.NewPostgres(t))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Set("default_tablespace", space)
	u.RawQuery = q.Encode()
	return u.String(), dir
}

// bigLicense is a license whose body (256 KiB of digits, which
// PostgreSQL's compression barely shrinks) needs new pages.
func bigLicense(id string) kb.ERMObject {
	var b strings.Builder
	for i := 0; b.Len() < 256<<10; i++ {
		b.WriteString(strconv.FormatUint(uint64(i)*2654435761%1000000007, 36))
	}
	return kb.ERMObject{ID: id, CustomerID: "c1", Kind: kb.KindLicense, Status: kb.StatusActive, Description: "Big",
		Body: []byte(`{"license":{"note":"` + b.String() + `"}}`)}
}

// TestDiskFullWrite: with the store's tables on a full disk, a write that
// needs room is refused with kb.DiskFull (SQLSTATE 53100: CodeUnavailable,
// the full disk's message) and leaves nothing behind, and the store is
// not ready, saying why; once space is freed the store is ready again
// without a write of a request, and the write succeeds.
func TestDiskFullWrite(t *testing.T) {
	dsn, dir := fullTablespace(t)
	s, err := postgres.Open(t.Context(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	ctx := t.Context()
	if _, err := s.AddCustomer(ctx, "c1", "Customer 1"); err != nil {
		t.Fatal(err)
	}
	free := testdb.FillDisk(t, dir)
	err = s.CreateERMObject(ctx, bigLicense("l1"))
	if !errors.Is(err, kb.ErrDiskFull) || kb.ErrorCode(err) != kb.CodeUnavailable || kb.ErrorMessage(err) != kb.DiskFullMessage {
		t.Fatalf("a write on a full disk: %v (code %d); want kb.DiskFull", err, kb.ErrorCode(err))
	}
	if _, err := s.ERMObject(ctx, "c1", kb.KindLicense, "l1"); kb.ErrorCode(err) != kb.CodeNotFound {
		t.Errorf("the refused license reads back: %v", err)
	}
	// Not ready while the disk is full (its probe write fails too).
	if err := s.Ready(ctx); !errors.Is(err, kb.ErrDiskFull) || kb.ErrorMessage(err) != kb.DiskFullMessage {
		t.Errorf("Ready on a full disk: %v; want the full disk", err)
	}
	free()
	// With no other write, the readiness check's own probe sees the
	// space come back (at most once a second).
	deadline := time.Now().Add(30 * time.Second)
	for {
		err := s.Ready(ctx)
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Ready 30 s after space was freed: %v", err)
		}
		time.Sleep(100 * time.Millisecond) // polls a condition: the probe's next turn
	}
	if err := s.CreateERMObject(ctx, bigLicense("l1")); err != nil {
		t.Fatalf("the write once space is freed: %v", err)
	}
}
