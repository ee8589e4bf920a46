package kbsql

import (
	"context"
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
)

// CollectionTitles returns the titles with the ids, in that order, each
// with only its resources in the customer's collection, their vendor and
// package tokens and their notes. Titles without such a resource are left
// out.
func (s *Store) CollectionTitles(ctx context.Context, custID string, ids []int64) ([]kb.Title, error) {
	at, err := s.CustomerVersions(ctx, custID)
	if err != nil {
		return nil, err
	}
	return s.CollectionTitlesAt(ctx, custID, at, ids)
}

// CollectionTitlesAt is CollectionTitles at the customer's versions at;
// see kb.SearchedStore.
func (s *Store) CollectionTitlesAt(ctx context.Context, custID string, at kb.CustomerAt, ids []int64) ([]kb.Title, error) {
	if len(ids) == 0 {
		return []kb.Title{}, nil
	}
	ts, err := s.TitlesAt(ctx, custID, at, ids, 0)
	if err != nil {
		return nil, fmt.Errorf("collection titles: %w", err)
	}
	return s.collectionOnly(ctx, custID, ts)
}

// Publication returns a title with only its resource in the package, when
// that resource is in the customer's collection.
func (s *Store) Publication(ctx context.Context, custID string, packageID, titleID int64) (kb.Title, error) {
	root, err := s.RootProxy(ctx, custID)
	if err != nil {
		return kb.Title{}, err
	}
	notFound := kb.Errorf(kb.CodeNotFound, "Title %d is not in package %d of this collection.", titleID, packageID)
	t, err := s.title(ctx, custID, root, titleID, packageID)
	if kb.ErrorCode(err) == kb.CodeNotFound {
		return kb.Title{}, notFound
	}
	if err != nil {
		return kb.Title{}, err
	}
	ts, err := s.collectionOnly(ctx, custID, []kb.Title{t})
	if err != nil {
		return kb.Title{}, err
	}
	if len(ts) == 0 {
		return kb.Title{}, notFound
	}
	return ts[0], nil
}

// collectionOnly keeps the selected, visible resources of the titles,
// drops titles left without any, and adds the kept resources' tokens and
// notes (one query each for all the titles).
func (s *Store) collectionOnly(ctx context.Context, custID string, ts []kb.Title) ([]kb.Title, error) {
	tokens := func(keys []kb.ResourceKey) (map[int64][2]*kb.Token, error) {
		return s.resourceTokens(ctx, custID, keys)
	}
	notes := func(keys []kb.ResourceKey) (map[kb.ResourceKey][]kb.Note, error) { return s.Notes(ctx, custID, keys) }
	return CollectionOnly(ts, tokens, notes)
}

// resourceTokens returns the vendor and package tokens (nil where the
// vendor or package has none) of the packages of keys, with the customer's
// values.
func (s *Store) resourceTokens(ctx context.Context, custID string, keys []kb.ResourceKey) (map[int64][2]*kb.Token, error) {
	rows, err := s.e.Read().Query(ctx, `SELECT p.id, v.token_fact, v.token_prompt, v.token_help, cv.token_value,
			p.token_fact, p.token_prompt, p.token_help, cp.token_value
		FROM packages p JOIN vendors v ON v.id = p.vendor_id
		LEFT JOIN customer_vendors cv ON cv.customer_id = $1 AND cv.vendor_id = v.id
		LEFT JOIN customer_packages cp ON cp.customer_id = $1 AND cp.package_id = p.id
		WHERE `+s.d.InIDs("p.id", "$2"), custID, KeyPackages(keys))
	if err != nil {
		return nil, fmt.Errorf("resource tokens: %w", err)
	}
	defer rows.Close()
	out := map[int64][2]*kb.Token{}
	for rows.Next() {
		var id int64
		var f [8]*string
		if err := rows.Scan(&id, &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7]); err != nil {
			return nil, fmt.Errorf("resource tokens: %w", err)
		}
		out[id] = TokenPair(f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("resource tokens: %w", err)
	}
	return out, nil
}
