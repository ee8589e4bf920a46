package kbfeed

import (
	"context"
	"fmt"
	"slices"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// FeedChanges reads which titles the moves of the indexed data's version
// after since changed (title_changes) and, when the records tell it and
// name at most limit titles, calls pkg with every custom package and
// title with each of those titles that still exists, as FeedTitles would;
// changed holds every title named, deleted ones included. ok is false
// when the records cannot tell (an import of more titles than it lists,
// or records pruned or missing): the index must be rebuilt. The version
// returned is the one the rows are at least as new as.
func (s *Feed) FeedChanges(ctx context.Context, since int64, limit int, pkg func(kb.IndexedPackage), title func(kb.IndexedTitle)) (version int64, changed []int64, ok bool, err error) {
	version, err = s.TitlesVersion(ctx)
	if err != nil || version <= since {
		return version, nil, err == nil, err
	}
	read := s.e.Read()
	// Whether the records can tell, before reading them: every move
	// recorded, none of them "everything" (title 0), few enough titles.
	var moves, first, named int64
	if err := read.QueryRow(ctx, `SELECT count(DISTINCT version), COALESCE(min(title_id), 0), count(DISTINCT title_id)
		FROM title_changes WHERE version > $1 AND version <= $2`, since, version).Scan(&moves, &first, &named); err != nil {
		return 0, nil, false, fmt.Errorf("read title changes: %w", err)
	}
	if moves != version-since || first == 0 || named > int64(limit) {
		return version, nil, false, nil
	}
	changed, err = kbsql.QueryAll(ctx, read, `SELECT DISTINCT title_id FROM title_changes WHERE version > $1 AND version <= $2 ORDER BY title_id`,
		[]any{since, version}, kbsql.ScanInt64)
	if err != nil {
		return 0, nil, false, fmt.Errorf("read title changes: %w", err)
	}
	if err := feedPackages(ctx, read, true, pkg); err != nil {
		return 0, nil, false, err
	}
	titles := map[int64]*kb.IndexedTitle{}
	for ids := range slices.Chunk(changed, changesRead) {
		part := []any{ids}
		in := s.d.InIDs("id", "$1")
		err := kbsql.EachRow(ctx, read, `SELECT `+indexedTitleColumns+` FROM titles WHERE `+in, part, func(r kbsql.Rows) error {
			t, err := scanIndexedTitle(r)
			titles[t.ID] = &t
			return err
		})
		if err != nil {
			return 0, nil, false, fmt.Errorf("feed changed titles: %w", err)
		}
		in = s.d.InIDs("title_id", "$1")
		idents := appendTo(titles, func(t *kb.IndexedTitle) *[]string { return &t.Identifiers })
		if err := kbsql.EachRow(ctx, read, `SELECT title_id, norm FROM title_identifiers WHERE `+in, part, idents); err != nil {
			return 0, nil, false, fmt.Errorf("feed changed identifiers: %w", err)
		}
		packages := appendTo(titles, func(t *kb.IndexedTitle) *[]int64 { return &t.Packages })
		if err := kbsql.EachRow(ctx, read, `SELECT title_id, package_id FROM resources WHERE `+in, part, packages); err != nil {
			return 0, nil, false, fmt.Errorf("feed changed resources: %w", err)
		}
	}
	for _, id := range changed {
		if t := titles[id]; t != nil {
			title(*t)
		}
	}
	return version, changed, true, nil
}

// appendTo returns a reader of (title id, value) rows that appends each
// value to the list of its title in titles.
func appendTo[T any](titles map[int64]*kb.IndexedTitle, list func(*kb.IndexedTitle) *[]T) func(kbsql.Rows) error {
	return func(r kbsql.Rows) error {
		var id int64
		var v T
		if err := r.Scan(&id, &v); err != nil {
			return err
		}
		if t := titles[id]; t != nil {
			l := list(t)
			*l = append(*l, v)
		}
		return nil
	}
}

// changesRead is the number of changed titles FeedChanges reads a query.
const changesRead = 500
