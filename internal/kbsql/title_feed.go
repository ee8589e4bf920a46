package kbsql

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/kbserver/kbserver/internal/kb"
)

// TitlesVersion returns the title index's version counter; see
// kb.TitleFeed.
func (s *Store) TitlesVersion(ctx context.Context) (int64, error) {
	var n int64
	err := s.e.Read().QueryRow(ctx, `SELECT n FROM versions WHERE name = $1`, TitlesVersion).Scan(&n)
	if err != nil && !NoRows(err) {
		return 0, fmt.Errorf("titles version: %w", err)
	}
	return n, nil
}

// FeedTitles calls pkg with every package, order with every title id in
// name order, and title with every title (in id order, with its
// identifiers and packages), reading titles, identifiers and resources as
// three streams in title id order merged here, so that no map of a table
// is held. The version is read first: the
// rows are at least as new as it (a write committed during the read makes
// the index look stale at once, and it is rebuilt again).
func (s *Store) FeedTitles(ctx context.Context, pkg func(kb.IndexedPackage), order func(id int64), title func(kb.IndexedTitle)) (int64, error) {
	version, err := s.TitlesVersion(ctx)
	if err != nil {
		return 0, err
	}
	read := s.e.Read()
	if err := feedPackages(ctx, read, false, pkg); err != nil {
		return 0, err
	}
	// The name order comes from the (sort_name, id) index of titles, in
	// byte order on both engines (PostgreSQL's column collates as "C").
	err = EachRow(ctx, read, `SELECT id FROM titles ORDER BY sort_name, id`, nil, func(r Rows) error {
		var id int64
		if err := r.Scan(&id); err != nil {
			return err
		}
		order(id)
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("feed title order: %w", err)
	}
	// The three streams are read at once, each in a goroutine of its own
	// (prefetch), and merged here by title id.
	idents, err := newIDStream[string](ctx, read, `SELECT title_id, norm FROM title_identifiers ORDER BY title_id`)
	if err != nil {
		return 0, fmt.Errorf("feed identifiers: %w", err)
	}
	defer idents.close()
	packages, err := newIDStream[int64](ctx, read, `SELECT title_id, package_id FROM resources ORDER BY title_id`)
	if err != nil {
		return 0, fmt.Errorf("feed resources: %w", err)
	}
	defer packages.close()
	titles, err := newPrefetch(ctx, read, `SELECT `+indexedTitleColumns+` FROM titles ORDER BY id`, scanIndexedTitle)
	if err != nil {
		return 0, fmt.Errorf("feed titles: %w", err)
	}
	defer titles.close()
	for {
		t, ok := titles.next()
		if !ok {
			break
		}
		t.Identifiers = idents.take(t.ID, nil)
		t.Packages = packages.take(t.ID, nil)
		if err := cmp.Or(idents.err(), packages.err()); err != nil {
			return 0, fmt.Errorf("feed titles: %w", err)
		}
		title(t)
	}
	if err := titles.err(); err != nil {
		return 0, fmt.Errorf("feed titles: %w", err)
	}
	return version, nil
}

// indexedTitleColumns are the columns of titles that scanIndexedTitle
// reads.
const indexedTitleColumns = `id, name, sort_name, publisher, pub_type, peer_reviewed, COALESCE(customer_id, ''), COALESCE(subjects, '')`

// scanIndexedTitle reads a title's indexedTitleColumns, without its
// identifiers and packages.
func scanIndexedTitle(r Rows) (kb.IndexedTitle, error) {
	var t kb.IndexedTitle
	var subjects string
	if err := r.Scan(&t.ID, &t.Name, &t.SortName, &t.Publisher, &t.Type, &t.PeerReviewed, &t.CustomerID, &subjects); err != nil {
		return t, err
	}
	var err error
	t.Subjects, err = DecodeSubjects(t.ID, subjects)
	return t, err
}

// feedPackages calls pkg with every package, or only with every custom
// package (all an index keeps of packages is the owners of custom ones).
func feedPackages(ctx context.Context, q Querier, customOnly bool, pkg func(kb.IndexedPackage)) error {
	query := `SELECT id, COALESCE(customer_id, '') FROM packages`
	if customOnly {
		query += ` WHERE customer_id IS NOT NULL`
	}
	err := EachRow(ctx, q, query, nil, func(r Rows) error {
		var p kb.IndexedPackage
		if err := r.Scan(&p.ID, &p.CustomerID); err != nil {
			return err
		}
		pkg(p)
		return nil
	})
	if err != nil {
		return fmt.Errorf("feed packages: %w", err)
	}
	return nil
}

// FeedChanges reads which titles the moves of the indexed data's version
// after since changed (title_changes) and, when the records tell it and
// name at most limit titles, calls pkg with every custom package and
// title with each of those titles that still exists, as FeedTitles would;
// changed holds every title named, deleted ones included. ok is false
// when the records cannot tell (an import of more titles than it lists,
// or records pruned or missing): the index must be rebuilt. The version
// returned is the one the rows are at least as new as.
func (s *Store) FeedChanges(ctx context.Context, since int64, limit int, pkg func(kb.IndexedPackage), title func(kb.IndexedTitle)) (version int64, changed []int64, ok bool, err error) {
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
	changed, err = QueryAll(ctx, read, `SELECT DISTINCT title_id FROM title_changes WHERE version > $1 AND version <= $2 ORDER BY title_id`,
		[]any{since, version}, ScanInt64)
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
		err := EachRow(ctx, read, `SELECT `+indexedTitleColumns+` FROM titles WHERE `+in, part, func(r Rows) error {
			t, err := scanIndexedTitle(r)
			titles[t.ID] = &t
			return err
		})
		if err != nil {
			return 0, nil, false, fmt.Errorf("feed changed titles: %w", err)
		}
		in = s.d.InIDs("title_id", "$1")
		idents := appendTo(titles, func(t *kb.IndexedTitle) *[]string { return &t.Identifiers })
		if err := EachRow(ctx, read, `SELECT title_id, norm FROM title_identifiers WHERE `+in, part, idents); err != nil {
			return 0, nil, false, fmt.Errorf("feed changed identifiers: %w", err)
		}
		packages := appendTo(titles, func(t *kb.IndexedTitle) *[]int64 { return &t.Packages })
		if err := EachRow(ctx, read, `SELECT title_id, package_id FROM resources WHERE `+in, part, packages); err != nil {
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
func appendTo[T any](titles map[int64]*kb.IndexedTitle, list func(*kb.IndexedTitle) *[]T) func(Rows) error {
	return func(r Rows) error {
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

// idStream reads (title id, value) rows in title id order, one title at a
// time, prefetched.
type idStream[T any] struct{ *prefetch[idValue[T]] }

// idValue is a row of an idStream.
type idValue[T any] struct {
	id    int64
	value T
}

// newIDStream runs query, whose rows are (title id, value) in title id
// order.
func newIDStream[T any](ctx context.Context, q Querier, query string) (idStream[T], error) {
	p, err := newPrefetch(ctx, q, query, func(r Rows) (idValue[T], error) {
		var v idValue[T]
		err := r.Scan(&v.id, &v.value)
		return v, err
	})
	return idStream[T]{p}, err
}

// take appends the values of title id's rows to out, skipping rows of
// smaller ids (a title deleted between the reads).
func (st idStream[T]) take(id int64, out []T) []T {
	for {
		v, ok := st.peek()
		if !ok || v.id > id {
			return out
		}
		if v.id == id {
			out = append(out, v.value)
		}
		st.next()
	}
}

// SelectionOf returns the customer's selected and hidden packages, its
// title-level choices (the rows of customer_resources that say selected
// or not; a row without a choice only customises) and the resources it
// hid.
func (s *Store) SelectionOf(ctx context.Context, custID string) (kb.SelectionState, error) {
	var sel kb.SelectionState
	read := s.e.Read()
	err := EachRow(ctx, read, `SELECT package_id, selected, hidden FROM customer_packages WHERE customer_id = $1 AND (selected = TRUE OR hidden = TRUE)
		ORDER BY package_id`,
		[]any{custID}, func(r Rows) error {
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
	err = EachRow(ctx, read, `SELECT package_id, title_id, selected, hidden FROM customer_resources WHERE customer_id = $1 AND (selected IS NOT NULL OR hidden = TRUE)
		ORDER BY package_id, title_id`,
		[]any{custID}, func(r Rows) error {
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
func (s *Store) IndexFingerprint(ctx context.Context) (string, error) {
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
func (s *Store) StoreIdentity(ctx context.Context) (string, error) {
	var n int64
	if err := s.e.Read().QueryRow(ctx, `SELECT n FROM versions WHERE name = 'store'`).Scan(&n); err != nil {
		return "", fmt.Errorf("read the store's identity: %w", err)
	}
	return strconv.FormatInt(n, 36), nil
}

// FeedNames calls fn with every title's id and name, in id order.
func (s *Store) FeedNames(ctx context.Context, fn func(id int64, name string)) error {
	if err := EachRow(ctx, s.e.Read(), `SELECT id, name FROM titles ORDER BY id`, nil, ScanNames(fn)); err != nil {
		return fmt.Errorf("feed title names: %w", err)
	}
	return nil
}

// NamesOf calls fn with the id and name of each of the titles ids that
// exists, in no order.
func (s *Store) NamesOf(ctx context.Context, ids []int64, fn func(id int64, name string)) error {
	for part := range slices.Chunk(ids, changesRead) {
		if err := EachRow(ctx, s.e.Read(), `SELECT id, name FROM titles WHERE `+s.d.InIDs("id", "$1"), []any{part}, ScanNames(fn)); err != nil {
			return fmt.Errorf("title names: %w", err)
		}
	}
	return nil
}
