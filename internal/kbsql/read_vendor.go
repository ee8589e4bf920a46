package kbsql

import (
	"context"
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
)

// SQLVendorColumns are the columns ScanVendor reads of a vendor v for the
// customer $1.
const SQLVendorColumns = `v.id, v.name, v.customer_id IS NOT NULL,
	(SELECT count(*) FROM packages p WHERE p.vendor_id = v.id AND ` + sqlPackageVisible + `),
	(SELECT count(*) FROM packages p ` + sqlJoinCP + ` WHERE p.vendor_id = v.id AND ` + sqlPackageVisible + ` AND ` + SQLPackageSelected + `),
	v.token_fact, v.token_prompt, v.token_help,
	(SELECT cv.token_value FROM customer_vendors cv WHERE cv.customer_id = $1 AND cv.vendor_id = v.id),
	(SELECT cv.proxy_id FROM customer_vendors cv WHERE cv.customer_id = $1 AND cv.vendor_id = v.id)`

// SQLVendorVisible is true of the managed vendors and the customer's ($1)
// own.
const SQLVendorVisible = `(v.customer_id IS NULL OR v.customer_id = $1)`

// ScanVendor reads the columns SQLVendorColumns; root is the customer's
// root proxy.
func ScanVendor(row Row, root string) (kb.Vendor, error) {
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

// Vendor returns one vendor in the customer's context.
func (s *Store) Vendor(ctx context.Context, custID string, vendorID int64) (kb.Vendor, error) {
	root, err := s.RootProxy(ctx, custID)
	if err != nil {
		return kb.Vendor{}, err
	}
	row := s.e.Read().QueryRow(ctx, `SELECT `+SQLVendorColumns+` FROM vendors v WHERE v.id = $2 AND `+SQLVendorVisible, custID, vendorID)
	v, err := ScanVendor(row, root)
	if NoRows(err) {
		return v, kb.NotFound("Vendor")
	}
	if err != nil {
		return v, fmt.Errorf("vendor %d: %w", vendorID, err)
	}
	return v, nil
}
