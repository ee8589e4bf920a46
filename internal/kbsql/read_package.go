package kbsql

import (
	"context"
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
)

// SQL of a package p and its customer state cp. In every read query built
// from them, $1 is the customer's id. A package's selected count is the
// package's title count less its title-level deselections when the package
// is selected, or its title-level selections when it is not: the cost is
// the number of exceptions, not the package's size.
const (
	sqlJoinCP        = `LEFT JOIN customer_packages cp ON cp.customer_id = $1 AND cp.package_id = p.id`
	sqlSelectedCount = `CASE WHEN COALESCE(cp.selected, FALSE)
		THEN p.title_count - (SELECT count(*) FROM customer_resources cr WHERE cr.customer_id = $1 AND cr.package_id = p.id AND cr.selected = FALSE)
		ELSE (SELECT count(*) FROM customer_resources cr WHERE cr.customer_id = $1 AND cr.package_id = p.id AND cr.selected = TRUE) END`
	// SQLPackageSelected is true of a package the customer selected whole
	// or in part.
	SQLPackageSelected = `(COALESCE(cp.selected, FALSE) = TRUE OR EXISTS (SELECT 1 FROM customer_resources cr
		WHERE cr.customer_id = $1 AND cr.package_id = p.id AND cr.selected = TRUE))`
	// The columns ScanPackage reads: head, a selected count, tail.
	sqlPackageColumnsHead = `p.id, p.name, p.vendor_id, v.name, p.customer_id IS NOT NULL, p.content_type, p.package_type,
		p.title_count, COALESCE(cp.selected, FALSE), COALESCE(cp.hidden, FALSE), `
	sqlPackageColumnsTail = `,
		p.token_fact, p.token_prompt, p.token_help, cp.token_value, COALESCE(cp.cov_begin, ''), COALESCE(cp.cov_end, ''),
		COALESCE(cp.allow_add, FALSE), cp.proxy_id,
		(SELECT cv.proxy_id FROM customer_vendors cv WHERE cv.customer_id = $1 AND cv.vendor_id = p.vendor_id)`
	// SQLPackageColumns are the columns ScanPackage reads, FROM
	// SQLPackageFrom.
	SQLPackageColumns = sqlPackageColumnsHead + sqlSelectedCount + sqlPackageColumnsTail
	// SQLCollectionPackageColumns are SQLPackageColumns with the selected
	// count of the titles in the customer's collection
	// (SQLCollectionCount).
	SQLCollectionPackageColumns = sqlPackageColumnsHead + SQLCollectionCount + sqlPackageColumnsTail
	// SQLPackageFrom joins a package to its vendor and the customer's state.
	SQLPackageFrom = `packages p JOIN vendors v ON v.id = p.vendor_id ` + sqlJoinCP

	// SQLCollectionCount is the number of a package's titles in the
	// customer's collection: its selected count less its hidden titles.
	// Like sqlSelectedCount, its cost is the package's exceptions.
	SQLCollectionCount = `CASE WHEN COALESCE(cp.selected, FALSE)
		THEN p.title_count - (SELECT count(*) FROM customer_resources cr WHERE cr.customer_id = $1 AND cr.package_id = p.id
			AND (cr.selected = FALSE OR cr.hidden = TRUE))
		ELSE (SELECT count(*) FROM customer_resources cr WHERE cr.customer_id = $1 AND cr.package_id = p.id
			AND cr.selected = TRUE AND cr.hidden = FALSE) END`
	// SQLCollectionPackageIDs is true of the packages the customer selected
	// whole or in part, not hidden: the candidates of its collection, found
	// from its own state.
	SQLCollectionPackageIDs = `p.id IN (
		SELECT package_id FROM customer_packages WHERE customer_id = $1 AND selected = TRUE AND hidden = FALSE
		UNION SELECT package_id FROM customer_resources WHERE customer_id = $1 AND selected = TRUE AND hidden = FALSE)`
)

// SQLCollection lists the (title_id, package_id) resources of the
// customer's ($1) collection, driven from the customer's state rather than
// from the titles: the resources of its selected, visible packages less
// their title-level exceptions, then the titles selected one by one in
// packages not selected whole. Its cost is the size of the collection,
// whatever the size of the knowledge base; a package with a few selected
// titles costs those titles only.
const SQLCollection = `
	SELECT r.title_id, r.package_id` + sqlCollectionWhole + sqlCollectionWholeState + `
	UNION ALL
	SELECT r.title_id, r.package_id` + sqlCollectionOneByOne + sqlCollectionOneByOneState

// The two parts of SQLCollection after their columns, each with the
// resource r and the customer's state on it cr (NULL in the first part
// where the resource has none) and on its package cp (NULL in the second
// part where the package has none), in two pieces between which
// SQLCollectionWith joins more tables.
const (
	sqlCollectionWhole = ` FROM customer_packages cp
	JOIN resources r ON r.package_id = cp.package_id`
	sqlCollectionWholeState = `
	LEFT JOIN customer_resources cr ON cr.customer_id = cp.customer_id AND cr.package_id = r.package_id AND cr.title_id = r.title_id
	WHERE cp.customer_id = $1 AND cp.selected = TRUE AND cp.hidden = FALSE
		AND COALESCE(cr.selected, TRUE) = TRUE AND COALESCE(cr.hidden, FALSE) = FALSE`
	sqlCollectionOneByOne = ` FROM customer_resources cr
	JOIN resources r ON r.package_id = cr.package_id AND r.title_id = cr.title_id`
	sqlCollectionOneByOneState = `
	LEFT JOIN customer_packages cp ON cp.customer_id = cr.customer_id AND cp.package_id = cr.package_id
	WHERE cr.customer_id = $1 AND cr.selected = TRUE AND cr.hidden = FALSE
		AND COALESCE(cp.selected, FALSE) = FALSE AND COALESCE(cp.hidden, FALSE) = FALSE`
)

// SQLCollectionWith is SQLCollection with more columns after title_id
// and package_id: cols, expressions of the resource r, the customer's
// state on it cr (NULL where it has none) and the tables of join, named
// with AS so that a query over it can read them. join is inner joins
// over r (e.g. its title), which keep only the resources that have a
// row there: a condition in them filters the collection inside each of
// its parts, before the columns of the resources it drops are read.
func SQLCollectionWith(cols, join string) string {
	sel := `
	SELECT r.title_id, r.package_id, ` + cols
	return sel + sqlCollectionWhole + `
	` + join + sqlCollectionWholeState + `
	UNION ALL` + sel + sqlCollectionOneByOne + `
	` + join + sqlCollectionOneByOneState
}

// SelectionFilter returns the SQL condition of a selection filter over the
// boolean expression sel; orderedthroughoperator selects nothing, since
// kbserver takes no orders.
func SelectionFilter(s kb.Selection, sel string) string {
	switch s {
	case kb.SelectionSelected:
		return sel
	case kb.SelectionNotSelected:
		return "NOT " + sel
	case kb.SelectionOrderedThroughOperator:
		return "FALSE"
	}
	return ""
}

// ScanPackage reads the columns SQLPackageColumns; root is the customer's
// root proxy.
func ScanPackage(row Row, root string) (kb.Package, error) {
	var p kb.Package
	var ct, pt int
	var sel, hidden bool
	var tf, tp, th, tv, proxy, vendorProxy *string
	if err := row.Scan(&p.ID, &p.Name, &p.VendorID, &p.VendorName, &p.IsCustom, &ct, &pt, &p.TitleCount, &sel, &hidden,
		&p.SelectedCount, &tf, &tp, &th, &tv, &p.CustomCoverage.Begin, &p.CustomCoverage.End, &p.AllowOperatorToAddTitles,
		&proxy, &vendorProxy); err != nil {
		return p, err
	}
	p.ContentType, p.PackageType = kb.ContentType(ct), kb.PackageType(pt)
	p.IsSelected, p.SelectedWhole = sel || p.SelectedCount > 0, sel
	p.Visibility = kb.HiddenBy(hidden)
	p.Proxy = effectiveProxy(proxy, str(vendorProxy), root)
	if tf != nil {
		p.IsTokenNeeded = true
		p.Token = &kb.Token{FactName: *tf, Prompt: str(tp), HelpText: str(th), Value: str(tv)}
	}
	return p, nil
}

// effectiveProxy is kb.EffectiveProxy of an own setting read as a
// nullable column (nil: inherited).
func effectiveProxy(own *string, inherited ...string) kb.ProxyRef {
	return kb.EffectiveProxy(str(own), own != nil, inherited...)
}

// Package returns one package of a vendor in the customer's context.
func (s *Store) Package(ctx context.Context, custID string, vendorID, packageID int64) (kb.Package, error) {
	root, err := s.RootProxy(ctx, custID)
	if err != nil {
		return kb.Package{}, err
	}
	return s.PackageOf(ctx, custID, root, vendorID, packageID)
}

// PackageByID returns one package in the customer's context by its id
// alone.
func (s *Store) PackageByID(ctx context.Context, custID string, packageID int64) (kb.Package, error) {
	root, err := s.RootProxy(ctx, custID)
	if err != nil {
		return kb.Package{}, err
	}
	row := s.e.Read().QueryRow(ctx, `SELECT `+SQLPackageColumns+` FROM `+SQLPackageFrom+`
		WHERE p.id = $2 AND `+sqlPackageVisible, custID, packageID)
	p, err := ScanPackage(row, root)
	if NoRows(err) {
		return p, kb.NotFound("Package")
	}
	if err != nil {
		return p, fmt.Errorf("package %d: %w", packageID, err)
	}
	return p, nil
}

// PackageAt returns the package as Package does, with the customer's root
// proxy of at; see kb.SearchedStore.
func (s *Store) PackageAt(ctx context.Context, custID string, at kb.CustomerAt, vendorID, packageID int64) (kb.Package, error) {
	return s.PackageOf(ctx, custID, at.Root, vendorID, packageID)
}

// PackageOf is Package for a caller that has read the customer's root
// proxy.
func (s *Store) PackageOf(ctx context.Context, custID, root string, vendorID, packageID int64) (kb.Package, error) {
	row := s.e.Read().QueryRow(ctx, `SELECT `+SQLPackageColumns+` FROM `+SQLPackageFrom+`
		WHERE p.id = $2 AND p.vendor_id = $3 AND `+sqlPackageVisible, custID, packageID, vendorID)
	p, err := ScanPackage(row, root)
	if NoRows(err) {
		if _, verr := s.Vendor(ctx, custID, vendorID); verr != nil {
			return p, verr
		}
		return p, kb.NotFound("Package")
	}
	if err != nil {
		return p, fmt.Errorf("package %d: %w", packageID, err)
	}
	return p, nil
}
