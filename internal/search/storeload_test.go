package search

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/kbserver/kbserver/internal/kbsql"
)

// loadIndex builds an index from the titles, identifiers, resources and
// packages of a store's database, read with queries of its own
// (the store's feed of the index is still to be written).
func loadIndex(ctx context.Context, db *sql.DB) (*Index, error) {
	titles, pkgs, err := readKB(ctx, db)
	if err != nil {
		return nil, err
	}
	return buildIndex(titles, pkgs), nil
}

// buildIndex builds an index of titles and packages.
func buildIndex(titles []Title, pkgs []Package) *Index {
	b := NewBuilder()
	for _, p := range pkgs {
		b.AddPackage(p)
	}
	for _, t := range titles {
		b.AddTitle(t)
	}
	return b.Build()
}

// readKB reads the titles and packages of a store's database.
func readKB(ctx context.Context, db *sql.DB) ([]Title, []Package, error) {
	var titles []Title
	var packages []Package
	rows, err := db.QueryContext(ctx, `SELECT id, COALESCE(customer_id, '') FROM packages`)
	if err != nil {
		return nil, nil, fmt.Errorf("read packages: %w", err)
	}
	for rows.Next() {
		var p Package
		if err := rows.Scan(&p.ID, &p.CustomerID); err != nil {
			return nil, nil, err
		}
		packages = append(packages, p)
	}
	if err := rows.Close(); err != nil {
		return nil, nil, err
	}
	idents := map[int64][]string{}
	if err := eachRow(ctx, db, `SELECT title_id, norm FROM title_identifiers`, func(r *sql.Rows) error {
		var id int64
		var n string
		if err := r.Scan(&id, &n); err != nil {
			return err
		}
		idents[id] = append(idents[id], n)
		return nil
	}); err != nil {
		return nil, nil, fmt.Errorf("read identifiers: %w", err)
	}
	pkgs := map[int64][]int64{}
	if err := eachRow(ctx, db, `SELECT title_id, package_id FROM resources`, func(r *sql.Rows) error {
		var t, p int64
		if err := r.Scan(&t, &p); err != nil {
			return err
		}
		pkgs[t] = append(pkgs[t], p)
		return nil
	}); err != nil {
		return nil, nil, fmt.Errorf("read resources: %w", err)
	}
	err = eachRow(ctx, db, `SELECT id, name, publisher, pub_type, COALESCE(customer_id, ''), subjects FROM titles`, func(r *sql.Rows) error {
		var t Title
		var subjects string
		if err := r.Scan(&t.ID, &t.Name, &t.Publisher, &t.Type, &t.CustomerID, &subjects); err != nil {
			return err
		}
		if subjects != "" {
			var pairs [][]any
			if err := json.Unmarshal([]byte(subjects), &pairs); err != nil {
				return fmt.Errorf("title %d subjects: %w", t.ID, err)
			}
			for _, p := range pairs {
				if len(p) > 1 {
					if s, ok := p[1].(string); ok {
						t.Subjects = append(t.Subjects, s)
					}
				}
			}
		}
		t.Identifiers, t.Packages = idents[t.ID], pkgs[t.ID]
		titles = append(titles, t)
		return nil
	})
	if err != nil {
		return nil, nil, fmt.Errorf("read titles: %w", err)
	}
	return titles, packages, nil
}

// eachRow calls fn with every row of query.
func eachRow(ctx context.Context, db *sql.DB, query string, fn func(*sql.Rows) error, args ...any) error {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		if err := fn(rows); err != nil {
			return err
		}
	}
	return rows.Err()
}

// selectedSet returns the ordinals of the titles the customer has a
// resource selected in (in package packageID only, when not 0), read with
// the store's own selection conditions.
func selectedSet(ctx context.Context, db *sql.DB, x *Index, custID string, packageID int64) (*roaring.Bitmap, error) {
	query, args := kbsql.SQLSelectedTitleIDs, []any{custID}
	if packageID != 0 {
		query = `SELECT r.title_id FROM resources r WHERE r.package_id = $2 AND ` + kbsql.SQLResourceSelected
		args = append(args, packageID)
	}
	out := roaring.New()
	err := eachRow(ctx, db, query, func(r *sql.Rows) error {
		var id int64
		if err := r.Scan(&id); err != nil {
			return err
		}
		if o, ok := x.Ordinal(id); ok {
			out.Add(o)
		}
		return nil
	}, args...)
	return out, err
}
