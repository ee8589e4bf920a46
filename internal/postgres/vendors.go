package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/kbserver/kbserver/internal/kb"
)

// sqlVendorColumns are the columns scanVendor reads of a vendor v for the
// customer $1.
const sqlVendorColumns = `v.id, v.name, v.customer_id IS NOT NULL,
	(SELECT count(*) FROM packages p WHERE p.vendor_id = v.id AND ` + sqlPackageVisible + `),
	(SELECT count(*) FROM packages p ` + sqlJoinCP + ` WHERE p.vendor_id = v.id AND ` + sqlPackageVisible + ` AND ` + sqlPackageSelected + `),
	v.token_fact, v.token_prompt, v.token_help,
	(SELECT cv.token_value FROM customer_vendors cv WHERE cv.customer_id = $1 AND cv.vendor_id = v.id),
	(SELECT cv.proxy_id FROM customer_vendors cv WHERE cv.customer_id = $1 AND cv.vendor_id = v.id)`

// sqlVendorVisible is true of the managed vendors and the customer's own.
const sqlVendorVisible = `(v.customer_id IS NULL OR v.customer_id = $1)`

func scanVendor(row pgx.Row, root string) (kb.Vendor, error) {
	var v kb.Vendor
	var tf, tp, th, tv, proxy *string
	if err := row.Scan(&v.ID, &v.Name, &v.IsCustomer, &v.PackagesTotal, &v.PackagesSelected, &tf, &tp, &th, &tv, &proxy); err != nil {
		return v, err
	}
	v.Proxy = effectiveProxy(proxy, root)
	if tf != nil {
		v.Token = &kb.Token{FactName: *tf, Prompt: str(tp), HelpText: str(th), Value: str(tv)}
	}
	return v, nil
}

// Vendors lists the managed vendors and the customer's own vendor.
func (s *Store) Vendors(ctx context.Context, custID string, q kb.VendorQuery) (kb.VendorList, error) {
	root, err := s.rootProxy(ctx, custID)
	if err != nil {
		return kb.VendorList{}, err
	}
	args := params{custID}
	where := sqlVendorVisible
	order := "v.sort_name, v.id"
	cond, rank, ok := nameSearch("v", q.Search, &args)
	if !ok {
		return kb.VendorList{Vendors: []kb.Vendor{}}, nil
	}
	if cond != "" {
		where += " AND " + cond
		if q.OrderBy != kb.OrderName {
			order = rank + ", v.sort_name, v.id"
		}
	}
	var list kb.VendorList
	list.Total, list.Vendors, err = listPage(ctx, s, sqlVendorColumns, `vendors v`, where, order, args, q.Page,
		func(rows pgx.Rows) (kb.Vendor, error) { return scanVendor(rows, root) })
	if err != nil {
		return list, fmt.Errorf("list vendors: %w", err)
	}
	return list, nil
}

// Vendor returns one vendor in the customer's context.
func (s *Store) Vendor(ctx context.Context, custID string, vendorID int64) (kb.Vendor, error) {
	root, err := s.rootProxy(ctx, custID)
	if err != nil {
		return kb.Vendor{}, err
	}
	row := s.pool.QueryRow(ctx, `SELECT `+sqlVendorColumns+` FROM vendors v WHERE v.id = $2 AND `+sqlVendorVisible, custID, vendorID)
	v, err := scanVendor(row, root)
	if noRows(err) {
		return v, kb.NotFound("Vendor")
	}
	if err != nil {
		return v, fmt.Errorf("vendor %d: %w", vendorID, err)
	}
	return v, nil
}
