package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
)

const sqlVendorColumns = `v.id, v.name, v.customer_id IS NOT NULL,
	(SELECT count(*) FROM packages p WHERE p.vendor_id = v.id AND ` + sqlPackageVisible + `),
	(SELECT count(*) FROM packages p ` + sqlJoinCP + ` WHERE p.vendor_id = v.id AND ` + sqlPackageVisible + ` AND ` + sqlPackageSelected + `),
	v.token_fact, v.token_prompt, v.token_help,
	(SELECT cv.token_value FROM customer_vendors cv WHERE cv.customer_id = :cust AND cv.vendor_id = v.id),
	(SELECT cv.proxy_id FROM customer_vendors cv WHERE cv.customer_id = :cust AND cv.vendor_id = v.id)`

func scanVendor(sc interface{ Scan(...any) error }, root string) (kb.Vendor, error) {
	var v kb.Vendor
	var tf, tp, th, tv, proxy sql.NullString
	if err := sc.Scan(&v.ID, &v.Name, &v.IsCustomer, &v.PackagesTotal, &v.PackagesSelected, &tf, &tp, &th, &tv, &proxy); err != nil {
		return v, err
	}
	v.Proxy = effectiveProxy(proxy, root)
	if tf.Valid {
		v.Token = &kb.Token{FactName: tf.String, Prompt: tp.String, HelpText: th.String, Value: tv.String}
	}
	return v, nil
}

// Vendors lists the managed vendors and the customer's own vendor.
func (s *Store) Vendors(ctx context.Context, custID string, q kb.VendorQuery) (kb.VendorList, error) {
	root, err := s.rootProxy(ctx, custID)
	if err != nil {
		return kb.VendorList{}, err
	}
	args := []any{sql.Named("cust", custID)}
	from := `vendors v`
	order := "v.sort_name, v.id"
	join, ok := nameSearch("vendor_fts", "v", q.Search, &args)
	if !ok {
		return kb.VendorList{Vendors: []kb.Vendor{}}, nil
	}
	if join != "" {
		from += join
		if q.OrderBy != kb.OrderName {
			order = "m.rank, v.sort_name, v.id"
		}
	}
	where := `(v.customer_id IS NULL OR v.customer_id = :cust)`
	var list kb.VendorList
	list.Total, list.Vendors, err = listPage(ctx, s.r, sqlVendorColumns, from, where, order, args, q.Page,
		func(rows *sql.Rows) (kb.Vendor, error) { return scanVendor(rows, root) })
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
	row := s.r.QueryRowContext(ctx, `SELECT `+sqlVendorColumns+` FROM vendors v WHERE v.id = :id AND (v.customer_id IS NULL OR v.customer_id = :cust)`,
		sql.Named("cust", custID), sql.Named("id", vendorID))
	v, err := scanVendor(row, root)
	if errors.Is(err, sql.ErrNoRows) {
		return v, kb.NotFound("Vendor")
	}
	if err != nil {
		return v, fmt.Errorf("vendor %d: %w", vendorID, err)
	}
	return v, nil
}
