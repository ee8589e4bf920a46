package kbsql

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// sqlCollectionSerials reads the resources of the customer's ($1)
// collection (SQLCollectionWith: the same selection as every read of a
// collection) whose titles are serials, with what Google Scholar's
// holdings files need: the title's name, type and identifiers, the
// managed and custom coverage and embargo, and the KBART rows where the
// managed coverage is the effective one and has ranges (their volumes
// are read only then). Titles and packages the customer may not see (a
// custom one of another customer, which no state of the customer can
// select) are left out as the title reads leave them out.
func (s *Store) sqlCollectionSerials() string {
	types := make([]string, 0, 8)
	for _, t := range kb.SerialTypes() {
		types = append(types, strconv.Itoa(int(t)))
	}
	return `SELECT t.id, c.package_id, t.name, t.pub_type, ` + s.d.IdentifierTriplesJSON("t.id") + `,
		c.cov, c.eu, c.ev, c.ccov, c.ceu, c.cev, c.kbart
	FROM (` + SQLCollectionWith(`r.coverage AS cov, r.embargo_unit AS eu, r.embargo_value AS ev,
		COALESCE(cr.custom_coverage, '') AS ccov, COALESCE(cr.embargo_unit, 0) AS ceu, COALESCE(cr.embargo_value, 0) AS cev,
		CASE WHEN COALESCE(cr.custom_coverage, '') IN ('', '[]') AND r.coverage NOT IN ('', '[]') THEN r.kbart ELSE '' END AS kbart`) + `
	) c
	JOIN titles t ON t.id = c.title_id
	WHERE t.pub_type IN (` + strings.Join(types, ", ") + `) AND ` + sqlTitleVisible + `
		AND c.package_id NOT IN (SELECT p.id FROM packages p WHERE p.customer_id IS NOT NULL AND p.customer_id <> $1)`
}

// CollectionSerials calls fn for every resource of a serial in the
// customer's collection (kb.ScholarStore), streamed from one statement:
// memory stays at one row whatever the size of the collection. The
// holding handed to fn is reused for the next row; fn must copy what it
// keeps.
func (s *Store) CollectionSerials(ctx context.Context, custID string, fn func(h *kb.SerialHolding) error) error {
	read := s.e.Read()
	if err := checkCustomer(ctx, read, custID); err != nil {
		return err
	}
	var h kb.SerialHolding
	var pt, eu, ceu int
	var idents, cov, ccov string
	t, r := &h.Title, &h.Resource
	dest := []any{&t.ID, &r.PackageID, &t.Name, &pt, &idents, &cov, &eu, &r.ManagedEmbargo.Value,
		&ccov, &ceu, &r.CustomEmbargo.Value, &h.KBART}
	err := EachRow(ctx, read, s.sqlCollectionSerials(), []any{custID}, func(rows Rows) error {
		if err := rows.Scan(dest...); err != nil {
			return err
		}
		var err error
		t.PubType, r.TitleID = kb.ResourceType(pt), t.ID
		r.IsSelected, r.Visibility = true, kb.Visibility{}
		r.ManagedEmbargo.Unit, r.CustomEmbargo.Unit = kb.EmbargoUnit(eu), kb.EmbargoUnit(ceu)
		if t.Identifiers, err = DecodeIdentifiers(idents); err != nil {
			return fmt.Errorf("title %d identifiers: %w", t.ID, err)
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
