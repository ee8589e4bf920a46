// Package kbfeed is the store's side of the search index: the title feed
// (kb.TitleFeed, less the vendors' and packages' names, which kbsql reads
// for the command line too), written once over the engine seam of
// internal/kbsql (kbsql.Engine) that internal/sqlite and internal/postgres
// implement. An engine's store embeds a Feed beside its *kbsql.Store.
package kbfeed

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// Feed reads what the search index is built from over an engine. It keeps
// no state of its own.
type Feed struct {
	e kbsql.Engine
	d kbsql.Dialect
}

// New returns the feed over an engine.
func New(e kbsql.Engine) *Feed { return &Feed{e: e, d: e.Dialect()} }

// TitlesVersion returns the title index's version counter; see
// kb.TitleFeed.
func (s *Feed) TitlesVersion(ctx context.Context) (int64, error) {
	var n int64
	err := s.e.Read().QueryRow(ctx, `SELECT n FROM versions WHERE name = $1`, kbsql.TitlesVersion).Scan(&n)
	if err != nil && !kbsql.NoRows(err) {
		return 0, fmt.Errorf("titles version: %w", err)
	}
	return n, nil
}

// SelectionOf returns the customer's selected and hidden packages, its
// title-level choices (the rows of customer_resources that say selected
// or not; a row without a choice only customises) and the resources it
// hid.
func (s *Feed) SelectionOf(ctx context.Context, custID string) (kb.SelectionState, error) {
	var sel kb.SelectionState
	read := s.e.Read()
	err := kbsql.EachRow(ctx, read, `SELECT package_id, selected, hidden FROM customer_packages WHERE customer_id = $1 AND (selected = TRUE OR hidden = TRUE)
		ORDER BY package_id`,
		[]any{custID}, func(r kbsql.Rows) error {
			var id int64
			var selected, hidden bool
			if err := r.Scan(&id, &selected, &hidden); err != nil {
				return err
			}
			if selected {
				sel.Packages = append(sel.Packages, id)
			}
			if hidden {
				sel.HiddenPackages = append(sel.HiddenPackages, id)
			}
			return nil
		})
	if err != nil {
		return sel, fmt.Errorf("selection of %s: %w", custID, err)
	}
	err = kbsql.EachRow(ctx, read, `SELECT package_id, title_id, selected, hidden FROM customer_resources WHERE customer_id = $1 AND (selected IS NOT NULL OR hidden = TRUE)
		ORDER BY package_id, title_id`,
		[]any{custID}, func(r kbsql.Rows) error {
			var k kb.ResourceKey
			var selected *bool
			var hidden bool
			if err := r.Scan(&k.PackageID, &k.TitleID, &selected, &hidden); err != nil {
				return err
			}
			if selected != nil {
				sel.Titles = append(sel.Titles, kb.TitleChoice{PackageID: k.PackageID, TitleID: k.TitleID, Selected: *selected})
			}
			if hidden {
				sel.HiddenTitles = append(sel.HiddenTitles, k)
			}
			return nil
		})
	if err != nil {
		return sel, fmt.Errorf("selection of %s: %w", custID, err)
	}
	return sel, nil
}

// IndexFingerprint returns the numbers and largest ids of the titles and
// packages (a count of every row of both tables).
func (s *Feed) IndexFingerprint(ctx context.Context) (string, error) {
	var t, tmax, p, pmax int64
	err := s.e.Read().QueryRow(ctx, `SELECT (SELECT count(*) FROM titles), (SELECT COALESCE(max(id), 0) FROM titles),
		(SELECT count(*) FROM packages), (SELECT COALESCE(max(id), 0) FROM packages)`).Scan(&t, &tmax, &p, &pmax)
	if err != nil {
		return "", fmt.Errorf("read the index fingerprint: %w", err)
	}
	return fmt.Sprintf("titles %d to id %d, packages %d to id %d", t, tmax, p, pmax), nil
}

// StoreIdentity returns the random identity the database was given when
// it was made (migration 019).
func (s *Feed) StoreIdentity(ctx context.Context) (string, error) {
	var n int64
	if err := s.e.Read().QueryRow(ctx, `SELECT n FROM versions WHERE name = 'store'`).Scan(&n); err != nil {
		return "", fmt.Errorf("read the store's identity: %w", err)
	}
	return strconv.FormatInt(n, 36), nil
}

// FeedNames calls fn with every title's id and name, in id order.
func (s *Feed) FeedNames(ctx context.Context, fn func(id int64, name string)) error {
	if err := kbsql.EachRow(ctx, s.e.Read(), `SELECT id, name FROM titles ORDER BY id`, nil, kbsql.ScanNames(fn)); err != nil {
		return fmt.Errorf("feed title names: %w", err)
	}
	return nil
}

// NamesOf calls fn with the id and name of each of the titles ids that
// exists, in no order.
func (s *Feed) NamesOf(ctx context.Context, ids []int64, fn func(id int64, name string)) error {
	for part := range slices.Chunk(ids, changesRead) {
		if err := kbsql.EachRow(ctx, s.e.Read(), `SELECT id, name FROM titles WHERE `+s.d.InIDs("id", "$1"), []any{part}, kbsql.ScanNames(fn)); err != nil {
			return fmt.Errorf("title names: %w", err)
		}
	}
	return nil
}
