package kbsql

import (
	"context"
	"errors"
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

// packageVersion is the SQL of package p's version (kb.PackageCoverage):
// a managed package's import number, a custom package's customer's
// version (which every write of its titles moves).
const packageVersion = `CASE WHEN p.customer_id IS NULL THEN p.import_gen
	ELSE COALESCE((SELECT v.n FROM versions v WHERE v.name = '` + customerVersionPrefix + `' || p.customer_id), 0) END`

// PackageCoverage implements kb.CoverageReader: the package's version,
// then the managed coverage of each of its titles in title order (the
// resources' key), each distinct coverage decoded once.
func (s *Store) PackageCoverage(ctx context.Context, packageID int64) (kb.PackageCoverage, error) {
	var pc kb.PackageCoverage
	err := s.e.Read().QueryRow(ctx, `SELECT `+packageVersion+` FROM packages p WHERE p.id = $1`, packageID).Scan(&pc.Version)
	if errors.Is(err, ErrNoRows) {
		return pc, nil
	}
	if err != nil {
		return pc, fmt.Errorf("coverage of package %d: %w", packageID, err)
	}
	rows, err := s.e.Read().Query(ctx, `SELECT title_id, coverage, embargo_unit, embargo_value FROM resources
		WHERE package_id = $1 ORDER BY title_id`, packageID)
	if err != nil {
		return pc, fmt.Errorf("coverage of package %d: %w", packageID, err)
	}
	defer rows.Close()
	type raw struct {
		coverage    string
		unit, value int
	}
	classes := map[raw]uint32{}
	for rows.Next() {
		var t int64
		var r raw
		if err := rows.Scan(&t, &r.coverage, &r.unit, &r.value); err != nil {
			return pc, fmt.Errorf("coverage of package %d: %w", packageID, err)
		}
		c, ok := classes[r]
		if !ok {
			ranges, err := DecodeCoverage(r.coverage)
			if err != nil {
				return pc, fmt.Errorf("coverage of package %d, title %d: %w", packageID, t, err)
			}
			c = uint32(len(pc.Classes))
			classes[r] = c
			pc.Classes = append(pc.Classes, kb.HeldCoverageOf(kb.Resource{ManagedCoverage: ranges,
				ManagedEmbargo: kb.Embargo{Unit: kb.EmbargoUnit(r.unit), Value: r.value}}))
		}
		pc.Titles = append(pc.Titles, t)
		pc.Class = append(pc.Class, c)
	}
	if err := rows.Err(); err != nil {
		return pc, fmt.Errorf("coverage of package %d: %w", packageID, err)
	}
	return pc, nil
}

// PackageVersions implements kb.CoverageReader.
func (s *Store) PackageVersions(ctx context.Context, packageIDs []int64) (map[int64]int64, error) {
	out := make(map[int64]int64, len(packageIDs))
	for chunk := range slices.Chunk(packageIDs, idChunk) {
		rows, err := s.e.Read().Query(ctx, `SELECT p.id, `+packageVersion+` FROM packages p WHERE `+s.d.InIDs("p.id", "$1"), chunk)
		if err != nil {
			return nil, fmt.Errorf("versions of packages: %w", err)
		}
		for rows.Next() {
			var id, n int64
			if err := rows.Scan(&id, &n); err != nil {
				rows.Close()
				return nil, fmt.Errorf("versions of packages: %w", err)
			}
			out[id] = n
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("versions of packages: %w", err)
		}
	}
	return out, nil
}

// CustomCoverages implements kb.CoverageReader through the index of the
// customised resources (migration 028: its condition is the query's; a
// customer may select a million titles one by one, and customise few).
func (s *Store) CustomCoverages(ctx context.Context, custID string, packageIDs []int64) ([]kb.CustomCoverage, error) {
	var out []kb.CustomCoverage
	for chunk := range slices.Chunk(packageIDs, idChunk) {
		rows, err := s.e.Read().Query(ctx, `SELECT package_id, title_id, custom_coverage, embargo_unit, embargo_value
			FROM `+s.d.IndexedBy("customer_resources", "customer_resources_custom")+` WHERE customer_id = $1 AND `+s.d.InIDs("package_id", "$2")+`
				AND (custom_coverage <> '' OR embargo_unit <> 0)`, custID, chunk)
		if err != nil {
			return nil, fmt.Errorf("custom coverage of %s: %w", custID, err)
		}
		for rows.Next() {
			var c kb.CustomCoverage
			var cov string
			var unit int
			if err := rows.Scan(&c.PackageID, &c.TitleID, &cov, &unit, &c.Embargo.Value); err != nil {
				rows.Close()
				return nil, fmt.Errorf("custom coverage of %s: %w", custID, err)
			}
			c.Embargo.Unit = kb.EmbargoUnit(unit)
			if c.Coverage, err = DecodeCoverage(cov); err != nil {
				rows.Close()
				return nil, fmt.Errorf("custom coverage of %s, resource %d/%d: %w", custID, c.PackageID, c.TitleID, err)
			}
			out = append(out, c)
		}
		err = rows.Err()
		rows.Close()
		if err != nil {
			return nil, fmt.Errorf("custom coverage of %s: %w", custID, err)
		}
	}
	return out, nil
}
