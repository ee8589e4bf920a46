package kbsql

import (
	"context"
	"fmt"
	"slices"

	"github.com/kbserver/kbserver/internal/kb"
)

// LinkOutUse implements kb.LinkUseReader: the monthly link-out counts of
// the titles (link_out_months, by its index on customer, title and
// month), a chunk of titles at a time.
func (s *Store) LinkOutUse(ctx context.Context, custID string, titleIDs []int64, from, to kb.Month) ([]kb.LinkUse, error) {
	byKey := map[[2]any]*kb.LinkUse{}
	var out []*kb.LinkUse
	for chunk := range slices.Chunk(titleIDs, idChunk) {
		rows, err := s.e.Read().Query(ctx, `SELECT package_id, title_id, month, via, count FROM link_out_months
			WHERE customer_id = $1 AND month >= $2 AND month <= $3 AND `+s.d.InIDs("title_id", "$4"), custID, string(from), string(to), chunk)
		if err != nil {
			return nil, fmt.Errorf("link-out use: %w", err)
		}
		for rows.Next() {
			var k kb.ResourceKey
			var month, via string
			var n int64
			if err := rows.Scan(&k.PackageID, &k.TitleID, &month, &via, &n); err != nil {
				rows.Close()
				return nil, fmt.Errorf("link-out use: %w", err)
			}
			u := byKey[[2]any{k, month}]
			if u == nil {
				u = &kb.LinkUse{Key: k, Month: kb.Month(month)}
				byKey[[2]any{k, month}] = u
				out = append(out, u)
			}
			if kb.LinkVia(via) == kb.ViaResolver {
				u.Resolver += n
			} else {
				u.AZ += n
			}
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("link-out use: %w", err)
		}
	}
	uses := make([]kb.LinkUse, len(out))
	for i, u := range out {
		uses[i] = *u
	}
	return uses, nil
}
