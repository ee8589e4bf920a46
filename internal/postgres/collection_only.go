package postgres

import (
	"context"
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
)

// collectionOnly keeps the selected, visible resources of the titles,
// drops titles left without any, and adds the kept resources' tokens and
// notes (one query each for all the titles).
func (s *Store) collectionOnly(ctx context.Context, custID string, ts []kb.Title) ([]kb.Title, error) {
	out := ts[:0]
	var keys []kb.ResourceKey
	for _, t := range ts {
		kept := t.Resources[:0]
		for _, r := range t.Resources {
			if r.IsSelected && !r.Visibility.Hidden {
				kept = append(kept, r)
				keys = append(keys, kb.ResourceKey{PackageID: r.PackageID, TitleID: r.TitleID})
			}
		}
		if len(kept) > 0 {
			t.Resources = kept
			out = append(out, t)
		}
	}
	if len(keys) == 0 {
		return out, nil
	}
	tokens, err := s.resourceTokens(ctx, custID, keys)
	if err != nil {
		return nil, err
	}
	notes, err := s.Notes(ctx, custID, keys)
	if err != nil {
		return nil, err
	}
	for i := range out {
		for j := range out[i].Resources {
			r := &out[i].Resources[j]
			tk := tokens[r.PackageID]
			r.VendorToken, r.PackageToken = tk[0], tk[1]
			r.Notes = notes[kb.ResourceKey{PackageID: r.PackageID, TitleID: r.TitleID}]
			if r.Notes == nil {
				r.Notes = []kb.Note{}
			}
		}
	}
	return out, nil
}

// resourceTokens returns the vendor and package tokens (nil where the
// vendor or package has none) of the packages of keys, with the customer's
// values.
func (s *Store) resourceTokens(ctx context.Context, custID string, keys []kb.ResourceKey) (map[int64][2]*kb.Token, error) {
	seen := map[int64]bool{}
	var pkgs []int64
	for _, k := range keys {
		if !seen[k.PackageID] {
			seen[k.PackageID] = true
			pkgs = append(pkgs, k.PackageID)
		}
	}
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
		var pair [2]*kb.Token
		for i := range pair {
			g := f[i*4:]
			if g[0] != nil {
				pair[i] = &kb.Token{FactName: *g[0], Prompt: str(g[1]), HelpText: str(g[2]), Value: str(g[3])}
			}
		}
		out[id] = pair
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("resource tokens: %w", err)
	}
	return out, nil
}
