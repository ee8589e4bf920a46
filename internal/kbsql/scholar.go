package kbsql

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// sqlCollectionSerials reads the resources of the customer's ($1)
// collection (SQLCollectionWith: the same selection as every read of a
// collection) whose titles are serials, with what Google Scholar's
// holdings files need: the title's name and type and its valid ISSNs,
// the managed and custom coverage and embargo, and the KBART rows where
// the managed coverage is the effective one and has ranges (their
// volumes are read only then). The titles are joined inside the
// collection's parts, so that the columns of the other resources are
// never read. Titles and packages the customer may not see (a custom one
// of another customer, which no state of the customer can select) are
// left out as the title reads leave them out. The ISSNs come as one text,
// "subtype:ISSN" separated by spaces (string_agg, which both engines
// have), cheaper per row than the identifiers as JSON.
func sqlCollectionSerials() string {
	types := make([]string, 0, 8)
	for _, t := range kb.SerialTypes() {
		types = append(types, strconv.Itoa(int(t)))
	}
	return `SELECT c.title_id, c.package_id, c.name, c.pub_type,
		COALESCE((SELECT string_agg(CAST(i.subtype AS TEXT) || ':' || i.norm, ' ') FROM title_identifiers i
			WHERE i.title_id = c.title_id AND i.type = ` + strconv.Itoa(int(kb.IdentISSN)) + ` AND i.valid = TRUE), ''),
		c.cov, c.eu, c.ev, c.ccov, c.ceu, c.cev, c.kbart
	FROM (` + SQLCollectionWith(`t.name AS name, t.pub_type AS pub_type, r.coverage AS cov, r.embargo_unit AS eu, r.embargo_value AS ev,
		COALESCE(cr.custom_coverage, '') AS ccov, COALESCE(cr.embargo_unit, 0) AS ceu, COALESCE(cr.embargo_value, 0) AS cev,
		CASE WHEN COALESCE(cr.custom_coverage, '') IN ('', '[]') AND r.coverage NOT IN ('', '[]') THEN r.kbart ELSE '' END AS kbart`,
		`JOIN titles t ON t.id = r.title_id AND t.pub_type IN (`+strings.Join(types, ", ")+`) AND `+sqlTitleVisible) + `
	) c
	WHERE c.package_id NOT IN (SELECT p.id FROM packages p WHERE p.customer_id IS NOT NULL AND p.customer_id <> $1)`
}

// sqlSerials is sqlCollectionSerials, built once.
var sqlSerials = sqlCollectionSerials()

// CollectionSerials calls fn for every resource of a serial in the
// customer's collection (kb.ScholarStore), streamed from one statement:
// memory stays at one row whatever the size of the collection. The
// holding handed to fn is reused for the next row (what it holds is not:
// a copy of it may be kept).
func (s *Store) CollectionSerials(ctx context.Context, custID string, fn func(h *kb.SerialHolding) error) error {
	read := s.e.Read()
	if err := checkCustomer(ctx, read, custID); err != nil {
		return err
	}
	var h kb.SerialHolding
	var pt, eu, ceu int
	var issns, cov, ccov string
	t, r := &h.Title, &h.Resource
	dest := []any{&t.ID, &r.PackageID, &t.Name, &pt, &issns, &cov, &eu, &r.ManagedEmbargo.Value,
		&ccov, &ceu, &r.CustomEmbargo.Value, &h.KBART}
	err := EachRow(ctx, read, sqlSerials, []any{custID}, func(rows Rows) error {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		var err error
		t.PubType, r.TitleID = kb.ResourceType(pt), t.ID
		r.IsSelected, r.Visibility = true, kb.Visibility{}
		r.ManagedEmbargo.Unit, r.CustomEmbargo.Unit = kb.EmbargoUnit(eu), kb.EmbargoUnit(ceu)
		if t.Identifiers, err = decodeISSNs(issns); err != nil {
			return fmt.Errorf("title %d ISSNs: %w", t.ID, err)
		}
		if r.ManagedCoverage, err = DecodeCoverage(cov); err != nil {
			return fmt.Errorf("title %d coverage: %w", t.ID, err)
		}
		if r.CustomCoverage, err = DecodeCoverage(ccov); err != nil {
			return fmt.Errorf("title %d custom coverage: %w", t.ID, err)
		}
		return fn(&h)
	})
	if err != nil {
		return fmt.Errorf("serials of %s: %w", custID, err)
	}
	return nil
}

// decodeISSNs reads the ISSNs of sqlCollectionSerials, "subtype:ISSN"
// separated by spaces, in print, online, then other order.
func decodeISSNs(s string) ([]kb.Identifier, error) {
	if s == "" {
		return nil, nil
	}
	ids := make([]kb.Identifier, 0, strings.Count(s, " ")+1)
	for f := range strings.FieldsSeq(s) {
		sub, v, ok := strings.Cut(f, ":")
		n, err := strconv.Atoi(sub)
		if !ok || err != nil {
			return nil, fmt.Errorf("ISSN %q is not subtype:value", f)
		}
		ids = append(ids, kb.Identifier{ID: v, Source: "ResourceIdentifier", Type: kb.IdentISSN, Subtype: kb.IdentifierSubtype(n)})
	}
	slices.SortFunc(ids, func(a, b kb.Identifier) int {
		return cmp.Or(cmp.Compare(issnRank(a.Subtype), issnRank(b.Subtype)), strings.Compare(a.ID, b.ID))
	})
	return ids, nil
}

// issnRank orders ISSNs print first, then online, then the others.
func issnRank(s kb.IdentifierSubtype) int {
	switch s {
	case kb.SubtypePrint:
		return 0
	case kb.SubtypeOnline:
		return 1
	}
	return 2
}
