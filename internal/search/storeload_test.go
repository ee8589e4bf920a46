package search

import (
	"context"
	"database/sql"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
	"github.com/kbserver/kbserver/internal/testdb"
)

// loadIndex builds an index from the store's feed, as Live does.
func loadIndex(ctx context.Context, s kb.TitleFeed) (*Index, error) {
	b := NewBuilder()
	if _, err := s.FeedTitles(ctx, b.AddPackage, b.Order, b.AddTitle); err != nil {
		return nil, err
	}
	return b.Build(), nil
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

// readKB reads the titles and packages of the store's feed.
func readKB(ctx context.Context, s kb.TitleFeed) ([]Title, []Package, error) {
	var titles []Title
	var packages []Package
	_, err := s.FeedTitles(ctx, func(p Package) { packages = append(packages, p) }, func(int64) {}, func(t Title) { titles = append(titles, t) })
	return titles, packages, err
}

// selectedSet returns the ordinals of the titles the customer has a
// resource selected in (in package packageID only, when not 0), read with
// the store's own SQL (kbsql.SQLSelectedTitleIDs): the reference that
// Index.Selected is compared with.
func selectedSet(ctx context.Context, db *sql.DB, x *Index, custID string, packageID int64) (*roaring.Bitmap, error) {
	ids, err := selectedIDs(ctx, db, custID, packageID)
	out := roaring.New()
	for id := range ids {
		if o, ok := x.Ordinal(id); ok {
			out.Add(o)
		}
	}
	return out, err
}

// selectedIDs returns, by the store's SQL, the titles of which customer
// custID has a resource selected, or those of package packageID (when
// not 0) whose resource it has selected.
func selectedIDs(ctx context.Context, db *sql.DB, custID string, packageID int64) (map[int64]bool, error) {
	query, args := kbsql.SQLSelectedTitleIDs, []any{custID}
	if packageID != 0 {
		query = `SELECT r.title_id FROM resources r WHERE r.package_id = $2 AND ` + kbsql.SQLResourceSelected
		args = append(args, packageID)
	}
	out := map[int64]bool{}
	err := testdb.EachRow(ctx, db, query, func(r *sql.Rows) error {
		var id int64
		if err := r.Scan(&id); err != nil {
			return err
		}
		out[id] = true
		return nil
	}, args...)
	return out, err
}
