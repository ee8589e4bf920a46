package kbsql

import (
	"context"
	"fmt"
	"slices"

	"github.com/kbserver/kbserver/internal/kb"
)

// HeldCoverages implements kb.HeldCoverageReader: the effective coverage
// of each of titleIDs in each of packageIDs that has it, for customer
// custID (its custom coverage and embargo over the managed ones), read a
// chunk of titles at a time: every resource of the titles (an index range
// a title, a few resources each), kept when its package is one of
// packageIDs. (A condition on both lists would seek every pair of a
// package and a title, most of them in vain.)
func (s *Store) HeldCoverages(ctx context.Context, custID string, packageIDs, titleIDs []int64) (map[kb.ResourceKey]kb.HeldCoverage, error) {
	out := make(map[kb.ResourceKey]kb.HeldCoverage, len(titleIDs))
	if len(packageIDs) == 0 {
		return out, nil
	}
	want := make(map[int64]bool, len(packageIDs))
	for _, p := range packageIDs {
		want[p] = true
	}
	for chunk := range slices.Chunk(titleIDs, idChunk) {
		rows, err := s.e.Read().Query(ctx, `SELECT r.package_id, r.title_id, r.coverage, r.embargo_unit, r.embargo_value,
				COALESCE(cr.custom_coverage, ''), COALESCE(cr.embargo_unit, 0), COALESCE(cr.embargo_value, 0)
			FROM resources r LEFT JOIN customer_resources cr ON cr.customer_id = $1 AND cr.package_id = r.package_id AND cr.title_id = r.title_id
			WHERE `+s.d.InIDs("r.title_id", "$2"), custID, chunk)
		if err != nil {
			return nil, fmt.Errorf("held coverage: %w", err)
		}
		for rows.Next() {
			var k kb.ResourceKey
			var managed, custom string
			var r kb.Resource
			var mu, mv, cu, cv int
			if err := rows.Scan(&k.PackageID, &k.TitleID, &managed, &mu, &mv, &custom, &cu, &cv); err != nil {
				rows.Close()
				return nil, fmt.Errorf("held coverage: %w", err)
			}
			if !want[k.PackageID] {
				continue
			}
			if r.ManagedCoverage, err = DecodeCoverage(managed); err == nil {
				r.CustomCoverage, err = DecodeCoverage(custom)
			}
			if err != nil {
				rows.Close()
				return nil, fmt.Errorf("held coverage of %d/%d: %w", k.PackageID, k.TitleID, err)
			}
			r.ManagedEmbargo = kb.Embargo{Unit: kb.EmbargoUnit(mu), Value: mv}
			r.CustomEmbargo = kb.Embargo{Unit: kb.EmbargoUnit(cu), Value: cv}
			out[k] = kb.HeldCoverageOf(r)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("held coverage: %w", err)
		}
	}
	return out, nil
}
