package kbfeed

import (
	"cmp"
	"context"
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// FeedTitles calls pkg with every package, order with every title id in
// name order, and title with every title (in id order, with its
// identifiers and packages), reading titles, identifiers and resources as
// three streams in title id order merged here, so that no map of a table
// is held. The version is read first: the
// rows are at least as new as it (a write committed during the read makes
// the index look stale at once, and it is rebuilt again).
func (s *Feed) FeedTitles(ctx context.Context, pkg func(kb.IndexedPackage), order func(id int64), title func(kb.IndexedTitle)) (int64, error) {
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
	err = kbsql.EachRow(ctx, read, `SELECT id FROM titles ORDER BY sort_name, id`, nil, func(r kbsql.Rows) error {
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
func scanIndexedTitle(r kbsql.Rows) (kb.IndexedTitle, error) {
	var t kb.IndexedTitle
	var subjects string
	if err := r.Scan(&t.ID, &t.Name, &t.SortName, &t.Publisher, &t.Type, &t.PeerReviewed, &t.CustomerID, &subjects); err != nil {
		return t, err
	}
	var err error
	t.Subjects, err = kbsql.DecodeSubjects(t.ID, subjects)
	return t, err
}

// feedPackages calls pkg with every package, or only with every custom
// package (all an index keeps of packages is the owners of custom ones).
func feedPackages(ctx context.Context, q kbsql.Querier, customOnly bool, pkg func(kb.IndexedPackage)) error {
	query := `SELECT id, COALESCE(customer_id, '') FROM packages`
	if customOnly {
		query += ` WHERE customer_id IS NOT NULL`
	}
	err := kbsql.EachRow(ctx, q, query, nil, func(r kbsql.Rows) error {
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
func newIDStream[T any](ctx context.Context, q kbsql.Querier, query string) (idStream[T], error) {
	p, err := newPrefetch(ctx, q, query, func(r kbsql.Rows) (idValue[T], error) {
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
