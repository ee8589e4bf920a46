package postgres

import (
	"context"
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// collectionOnly keeps the selected, visible resources of the titles,
// drops titles left without any, and adds the kept resources' tokens and
// notes (one query each for all the titles).
func (s *Store) collectionOnly(ctx context.Context, custID string, ts []kb.Title) ([]kb.Title, error) {
	tokens := func(keys []kb.ResourceKey) (map[int64][2]*kb.Token, error) {
		return s.resourceTokens(ctx, custID, keys)
	}
	notes := func(keys []kb.ResourceKey) (map[kb.ResourceKey][]kb.Note, error) { return s.Notes(ctx, custID, keys) }
	return kbsql.CollectionOnly(ts, tokens, notes)
}

// resourceTokens returns the vendor and package tokens (nil where the
// vendor or package has none) of the packages of keys, with the customer's
// values.
func (s *Store) resourceTokens(ctx context.Context, custID string, keys []kb.ResourceKey) (map[int64][2]*kb.Token, error) {
	pkgs := kbsql.KeyPackages(keys)
	rows, err := s.pool.Query(ctx, `SELECT p.id, v.token_fact, v.token_prompt, v.token_help, cv.token_value,
			p.token_fact, p.token_prompt, p.token_help, cp.token_value
		FROM packages p JOIN vendors v ON v.id = p.vendor_id
		LEFT JOIN customer_vendors cv ON cv.customer_id = $1 AND cv.vendor_id = v.id
		LEFT JOIN customer_packages cp ON cp.customer_id = $1 AND cp.package_id = p.id
		WHERE p.id = ANY($2)`, custID, pkgs)
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
		out[id] = kbsql.TokenPair(f)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("resource tokens: %w", err)
	}
	return out, nil
}
