package postgres

import (
	"context"
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
)

// sqlTitlesInOrder reads the titles whose ids are in the array $2, in that
// order, that the customer ($1) may see.
const sqlTitlesInOrder = `SELECT ` + sqlTitleColumns + `
	FROM unnest($2::bigint[]) WITH ORDINALITY j(id, ord) JOIN titles t ON t.id = j.id
	WHERE ` + sqlTitleVisible + ` ORDER BY j.ord`

// CollectionTitles returns the titles with the ids, in that order, each
// with only its resources in the customer's collection, their vendor and
// package tokens and their notes. Titles without such a resource are left
// out.
func (s *Store) CollectionTitles(ctx context.Context, custID string, ids []int64) ([]kb.Title, error) {
	root, err := s.rootProxy(ctx, custID)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return []kb.Title{}, nil
	}
	rows, err := s.pool.Query(ctx, sqlTitlesInOrder, custID, ids)
	if err != nil {
		return nil, fmt.Errorf("collection titles: %w", err)
	}
	ts, err := scanTitles(rows)
	if err != nil {
		return nil, fmt.Errorf("collection titles: %w", err)
	}
	if err := s.completeTitles(ctx, custID, root, ts, 0); err != nil {
		return nil, err
	}
	return s.collectionOnly(ctx, custID, ts)
}

// Publication returns a title with only its resource in the package, when
// that resource is in the customer's collection.
func (s *Store) Publication(ctx context.Context, custID string, packageID, titleID int64) (kb.Title, error) {
	root, err := s.rootProxy(ctx, custID)
	if err != nil {
		return kb.Title{}, err
	}
	notFound := kb.Errorf(kb.CodeNotFound, "Title %d is not in package %d of this collection.", titleID, packageID)
	rows, err := s.pool.Query(ctx, sqlTitle, custID, titleID)
	if err != nil {
		return kb.Title{}, fmt.Errorf("title %d: %w", titleID, err)
	}
	ts, err := scanTitles(rows)
	if err != nil {
		return kb.Title{}, fmt.Errorf("title %d: %w", titleID, err)
	}
	if len(ts) == 0 {
		return kb.Title{}, notFound
	}
	if err := s.completeTitles(ctx, custID, root, ts, packageID); err != nil {
		return kb.Title{}, err
	}
	if ts, err = s.collectionOnly(ctx, custID, ts); err != nil {
		return kb.Title{}, err
	}
	if len(ts) == 0 {
		return kb.Title{}, notFound
	}
	return ts[0], nil
}
