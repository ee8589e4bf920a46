package kbsql

import (
	"context"
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
)

// The holdings writes (kb.HoldingsWriter). Each is one transaction of
// Engine.Write for the customer, so that a read-modify-write of the
// customer's state (a change's before and after, a custom package's title
// count, a name check) never interleaves with another of the customer's
// writes; each records one change and bumps the customer's version.

// sqlPackageVisible is true of the managed packages p and the customer's
// ($1) own.
const sqlPackageVisible = `(p.customer_id IS NULL OR p.customer_id = $1)`

// writePackage is what a holdings write needs to know of a package.
type writePackage struct {
	ID         int64
	VendorID   int64
	Custom     bool // a custom package of the customer
	Type       kb.PackageType
	Tokenable  bool // the package has a token to fill in
	Selected   bool // the customer selected it (package level)
	TitleCount int
}

// packageForWrite returns the package if the customer may see it and it
// belongs to the vendor: "Vendor not found" or "Package not found" else.
func packageForWrite(ctx context.Context, tx Tx, custID string, vendorID, packageID int64) (writePackage, error) {
	var p writePackage
	var typ int
	err := tx.QueryRow(ctx, `SELECT p.id, p.vendor_id, p.customer_id IS NOT NULL, p.package_type, p.token_fact IS NOT NULL,
		COALESCE(cp.selected, FALSE), p.title_count
		FROM packages p LEFT JOIN customer_packages cp ON cp.customer_id = $1 AND cp.package_id = p.id
		WHERE p.id = $2 AND `+sqlPackageVisible,
		custID, packageID).Scan(&p.ID, &p.VendorID, &p.Custom, &typ, &p.Tokenable, &p.Selected, &p.TitleCount)
	p.Type = kb.PackageType(typ)
	if err == nil && p.VendorID == vendorID {
		return p, nil
	}
	if err != nil && !NoRows(err) {
		return p, fmt.Errorf("package %d: %w", packageID, err)
	}
	if err := vendorForWrite(ctx, tx, custID, vendorID); err != nil {
		return p, err
	}
	return p, errNoPackage
}

// errNoPackage is packageForWrite's "Package not found" for a vendor that
// exists, which a caller may word otherwise.
var errNoPackage = kb.NotFound("Package")

// vendorForWrite returns "Vendor not found" unless the customer may see
// the vendor.
func vendorForWrite(ctx context.Context, tx Tx, custID string, vendorID int64) error {
	ok, err := exists(ctx, tx, `SELECT 1 FROM vendors WHERE id = $1 AND (customer_id IS NULL OR customer_id = $2)`, vendorID, custID)
	if err != nil {
		return fmt.Errorf("vendor %d: %w", vendorID, err)
	}
	if !ok {
		return kb.NotFound("Vendor")
	}
	return nil
}

// checkProxy returns "Invalid Proxy ID" unless id is the built-in "no
// proxy" or one of the customer's proxies.
func checkProxy(ctx context.Context, tx Tx, custID, id string) error {
	if id == kb.NoProxyID {
		return nil
	}
	ok, err := exists(ctx, tx, `SELECT 1 FROM proxies WHERE customer_id = $1 AND id = $2`, custID, id)
	if err != nil {
		return fmt.Errorf("proxy %q: %w", id, err)
	}
	if !ok {
		return kb.Errorf(kb.CodeInvalid, "Invalid Proxy ID")
	}
	return nil
}

// proxyColumn returns the value stored for a proxy setting: NULL when
// inherited, after checking that an explicit proxy exists.
func proxyColumn(ctx context.Context, tx Tx, custID string, p *kb.ProxyRef) (*string, error) {
	if p == nil || p.Inherited {
		return nil, nil
	}
	id := p.ID
	if id == "" {
		id = kb.NoProxyID
	}
	if err := checkProxy(ctx, tx, custID, id); err != nil {
		return nil, err
	}
	return &id, nil
}

// tokenColumn returns the token value to store and whether to keep the
// stored one instead: a nil value leaves the token unchanged.
func tokenColumn(v *string) (value *string, keep bool) { return v, v == nil }

// customerVendor returns the customer's own vendor id; "Customer not
// found" when there is no such customer.
func customerVendor(ctx context.Context, tx Tx, custID string) (int64, error) {
	var v int64
	err := tx.QueryRow(ctx, `SELECT vendor_id FROM customers WHERE id = $1`, custID).Scan(&v)
	if NoRows(err) {
		return 0, kb.NotFound("Customer")
	}
	if err != nil {
		return 0, fmt.Errorf("customer %s: %w", custID, err)
	}
	return v, nil
}

// UpdateVendor sets the customer's proxy and token value of a vendor.
func (s *Store) UpdateVendor(ctx context.Context, custID string, vendorID int64, u kb.VendorUpdate) error {
	return s.e.Write(ctx, custID, func(tx Tx) error {
		var tokenable bool
		err := tx.QueryRow(ctx, `SELECT token_fact IS NOT NULL FROM vendors WHERE id = $1 AND (customer_id IS NULL OR customer_id = $2)`,
			vendorID, custID).Scan(&tokenable)
		if NoRows(err) {
			return kb.NotFound("Vendor")
		}
		if err != nil {
			return fmt.Errorf("vendor %d: %w", vendorID, err)
		}
		if u.TokenValue != nil && !tokenable {
			return kb.Errorf(kb.CodeNotAllowed, "Vendor does not allow token")
		}
		proxy, err := proxyColumn(ctx, tx, custID, &u.Proxy)
		if err != nil {
			return err
		}
		c, err := beginChange(ctx, tx, custID, 0, fmt.Sprintf("vendor %d", vendorID), "update", vendorState(custID, vendorID))
		if err != nil {
			return err
		}
		token, keep := tokenColumn(u.TokenValue)
		if _, err := tx.Exec(ctx, `INSERT INTO customer_vendors(customer_id, vendor_id, proxy_id, token_value) VALUES ($1, $2, $3, $4)
			ON CONFLICT (customer_id, vendor_id) DO UPDATE SET proxy_id = excluded.proxy_id,
				token_value = CASE WHEN $5 THEN customer_vendors.token_value ELSE excluded.token_value END`,
			custID, vendorID, proxy, token, keep); err != nil {
			return fmt.Errorf("update vendor %d: %w", vendorID, err)
		}
		return c.commit(ctx, tx)
	})
}

// UpdateRoot sets the customer's root proxy and custom labels.
func (s *Store) UpdateRoot(ctx context.Context, custID string, r kb.RootSettings) error {
	return s.e.Write(ctx, custID, func(tx Tx) error {
		if _, err := customerVendor(ctx, tx, custID); err != nil {
			return err
		}
		proxy := r.ProxyID
		if proxy == "" {
			proxy = kb.NoProxyID
		}
		if err := checkProxy(ctx, tx, custID, proxy); err != nil {
			return err
		}
		c, err := beginChange(ctx, tx, custID, 0, "root", "update", rootState(custID))
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE customers SET root_proxy = $1, labels = $2 WHERE id = $3`,
			proxy, EncodeLabels(r.Labels), custID); err != nil {
			return fmt.Errorf("update root settings of %s: %w", custID, err)
		}
		return c.commit(ctx, tx)
	})
}
