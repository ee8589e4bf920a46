package kbsql

import (
	"context"
	"fmt"
)

// The names of vendors and packages, which the search service matches
// (kb.TitleFeed's NamesVersion and FeedEntityNames) and which the command
// line's searches read themselves (package_search.go).

// ScanNames returns a row reader that calls fn with each (id, name) row.
func ScanNames(fn func(id int64, name string)) func(Rows) error {
	return func(r Rows) error {
		var id int64
		var name string
		if err := r.Scan(&id, &name); err != nil {
			return err
		}
		fn(id, name)
		return nil
	}
}

// NamesVersion implements kb.TitleFeed.
func (s *Store) NamesVersion(ctx context.Context) (int64, error) {
	var n int64
	err := s.e.Read().QueryRow(ctx, `SELECT n FROM versions WHERE name = $1`, NamesVersion).Scan(&n)
	if err != nil && !NoRows(err) {
		return 0, fmt.Errorf("names version: %w", err)
	}
	return n, nil
}

// FeedEntityNames implements kb.TitleFeed. The version is read first: the
// names are at least as new as it.
func (s *Store) FeedEntityNames(ctx context.Context, vendor func(id int64, folded string), pkg func(id, vendorID int64, folded string)) (int64, error) {
	v, err := s.NamesVersion(ctx)
	if err != nil {
		return 0, err
	}
	q := s.e.Read()
	if err := EachRow(ctx, q, `SELECT id, sort_name FROM vendors ORDER BY id`, nil, ScanNames(vendor)); err != nil {
		return 0, fmt.Errorf("feed vendor names: %w", err)
	}
	var id, vid int64
	var name string
	if err := EachRow(ctx, q, `SELECT id, vendor_id, sort_name FROM packages ORDER BY id`, nil, func(r Rows) error {
		if err := r.Scan(&id, &vid, &name); err != nil {
			return err
		}
		pkg(id, vid, name)
		return nil
	}); err != nil {
		return 0, fmt.Errorf("feed package names: %w", err)
	}
	return v, nil
}
