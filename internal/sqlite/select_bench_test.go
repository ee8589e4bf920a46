package sqlite

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

// fillPackage creates a vendor with a package of n generated titles with
// set-based SQL (a KBART import of a million rows takes minutes; this takes
// seconds) and a customer "c".
func fillPackage(tb testing.TB, s *Store, n int) (vendorID, packageID int64) {
	tb.Helper()
	ctx := context.Background()
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		r, err := tx.ExecContext(ctx, `INSERT INTO vendors(name, sort_name) VALUES ('Bench', 'bench')`)
		if err != nil {
			return err
		}
		vendorID, _ = r.LastInsertId()
		r, err = tx.ExecContext(ctx, `INSERT INTO packages(vendor_id, name, sort_name, content_type, package_type, title_count)
			VALUES (?, 'Big', 'big', 4, 0, ?)`, vendorID, n)
		if err != nil {
			return err
		}
		packageID, _ = r.LastInsertId()
		if _, err := tx.ExecContext(ctx, `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?)
			INSERT INTO titles(id, name, sort_name, pub_type) SELECT i, 'Title ' || i, 'title ' || i, 1 FROM seq`, n); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO resources(package_id, title_id, sort_name) SELECT ?, id, sort_name FROM titles`, packageID)
		return err
	})
	if err != nil {
		tb.Fatal(err)
	}
	if _, err := s.AddCustomer(ctx, "c", ""); err != nil {
		tb.Fatal(err)
	}
	return vendorID, packageID
}

// BenchmarkPackageSelection times selecting, hiding and deselecting a
// package of 10 and of 1,000,000 titles, each with 10 title-level
// exceptions, followed by a read of the package's selectedCount: the cost
// must not grow with the package's size.
func BenchmarkPackageSelection(b *testing.B) {
	ops := []struct {
		name   string
		before kb.PackageUpdate // state the op starts from
		op     kb.PackageUpdate
	}{
		{"select", kb.PackageUpdate{Selected: false}, kb.PackageUpdate{Selected: true}},
		{"hide", kb.PackageUpdate{Selected: true}, kb.PackageUpdate{Selected: true, Hidden: true}},
		{"deselect", kb.PackageUpdate{Selected: true}, kb.PackageUpdate{Selected: false}},
	}
	for _, n := range []int{10, 1_000_000} {
		ctx := context.Background()
		s, err := Open(ctx, filepath.Join(b.TempDir(), "kb.db"))
		if err != nil {
			b.Fatal(err)
		}
		v, p := fillPackage(b, s, n)
		no := false
		for _, o := range ops {
			b.Run(fmt.Sprintf("%s/%d-titles", o.name, n), func(b *testing.B) {
				for i := 0; i < b.N; i++ {
					b.StopTimer()
					if err := s.UpdatePackage(ctx, "c", v, p, o.before); err != nil {
						b.Fatal(err)
					}
					for t := int64(1); t <= 10 && o.before.Selected; t++ {
						if err := s.SetResourceState(ctx, "c", p, t, kb.ResourceState{Selected: &no}); err != nil {
							b.Fatal(err)
						}
					}
					b.StartTimer()
					if err := s.UpdatePackage(ctx, "c", v, p, o.op); err != nil {
						b.Fatal(err)
					}
					pk, err := s.Package(ctx, "c", v, p)
					if err != nil {
						b.Fatal(err)
					}
					if pk.IsSelected != o.op.Selected || pk.Visibility.Hidden != o.op.Hidden {
						b.Fatalf("after %s: %+v", o.name, pk)
					}
				}
			})
		}
		s.Close()
	}
}
