package kbsql

import (
	"context"
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
)

// UpdatePackage sets the customer's state of a package: one row of
// customer_packages, whatever the package's size. Deselecting a managed
// package deletes its package- and title-level customisation (cost: the
// number of title-level exceptions); deselecting a custom package deletes it.
func (s *Store) UpdatePackage(ctx context.Context, custID string, vendorID, packageID int64, u kb.PackageUpdate) error {
	return s.e.Write(ctx, custID, func(tx Tx) error {
		p, err := packageForWrite(ctx, tx, custID, vendorID, packageID)
		if err != nil {
			return err
		}
		if p.Custom && !u.Selected {
			return deleteCustomPackage(ctx, tx, custID, p)
		}
		c, err := beginChange(ctx, tx, custID, packageID, fmt.Sprintf("package %d", packageID), "update", packageState(custID, packageID))
		if err != nil {
			return err
		}
		if !u.Selected {
			for _, q := range []string{`DELETE FROM customer_packages WHERE customer_id = $1 AND package_id = $2`,
				`DELETE FROM customer_resources WHERE customer_id = $1 AND package_id = $2`} {
				if _, err := tx.Exec(ctx, q, custID, packageID); err != nil {
					return fmt.Errorf("deselect package %d: %w", packageID, err)
				}
			}
			return c.commit(ctx, tx)
		}
		if u.TokenValue != nil && !p.Tokenable {
			return kb.Errorf(kb.CodeNotAllowed, "Package does not allow token")
		}
		if err := kb.CheckPackageCoverage(u.CustomCoverage); err != nil {
			return err
		}
		proxy, err := proxyColumn(ctx, tx, custID, u.Proxy)
		if err != nil {
			return err
		}
		full := u.FullPackage == nil || *u.FullPackage
		if full && !p.Selected {
			// Every title is now selected through the package: title-level
			// selections are redundant (the cost is their number).
			if _, err := tx.Exec(ctx, `UPDATE customer_resources SET selected = NULL
				WHERE customer_id = $1 AND package_id = $2 AND selected IS NOT NULL`, custID, packageID); err != nil {
				return fmt.Errorf("select package %d: %w", packageID, err)
			}
		}
		token, keep := tokenColumn(u.TokenValue)
		if _, err := tx.Exec(ctx, `INSERT INTO customer_packages(customer_id, package_id, selected, hidden, cov_begin, cov_end, proxy_id, token_value, allow_add)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
			ON CONFLICT (customer_id, package_id) DO UPDATE SET selected = excluded.selected, hidden = excluded.hidden,
				cov_begin = excluded.cov_begin, cov_end = excluded.cov_end, proxy_id = excluded.proxy_id,
				token_value = CASE WHEN $10 THEN customer_packages.token_value ELSE excluded.token_value END, allow_add = excluded.allow_add`,
			custID, packageID, full || p.Custom, u.Hidden, u.CustomCoverage.Begin, u.CustomCoverage.End,
			proxy, token, u.AllowOperatorToAddTitles && !p.Custom, keep); err != nil {
			return fmt.Errorf("update package %d: %w", packageID, err)
		}
		if p.Custom {
			if err := renameCustomPackage(ctx, tx, p, u.Name, u.ContentType); err != nil {
				return err
			}
		}
		return c.commit(ctx, tx)
	})
}

// renameCustomPackage sets a custom package's name ("" keeps it) and
// content type (ContentAll keeps it), and its search index entry.
func renameCustomPackage(ctx context.Context, tx Tx, p writePackage, name string, ct kb.ContentType) error {
	if name != "" {
		if err := kb.CheckText("A package name", name, kb.LimitName); err != nil {
			return err
		}
		if err := checkCustomPackageName(ctx, tx, p.VendorID, name, p.ID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `UPDATE packages SET name = $1, sort_name = $2 WHERE id = $3`, name, kb.Fold(name), p.ID); err != nil {
			return fmt.Errorf("rename package %d: %w", p.ID, err)
		}
		if err := BumpVersion(ctx, tx, NamesVersion); err != nil {
			return err
		}
	}
	if ct != kb.ContentAll {
		if _, err := tx.Exec(ctx, `UPDATE packages SET content_type = $1 WHERE id = $2`, int(ct), p.ID); err != nil {
			return fmt.Errorf("update package %d: %w", p.ID, err)
		}
	}
	return nil
}

// checkCustomPackageName refuses a name another package of the customer's
// vendor has (other than the package except).
func checkCustomPackageName(ctx context.Context, tx Tx, vendorID int64, name string, except int64) error {
	taken, err := exists(ctx, tx, `SELECT 1 FROM packages WHERE vendor_id = $1 AND sort_name = $2 AND id <> $3`, vendorID, kb.Fold(name), except)
	if err != nil {
		return fmt.Errorf("check package name: %w", err)
	}
	if taken {
		return kb.Errorf(kb.CodeDuplicate, "Custom Package with the provided name already exists")
	}
	return nil
}

// CreateCustomPackage creates a selected custom package under the
// customer's own vendor.
func (s *Store) CreateCustomPackage(ctx context.Context, custID string, vendorID int64, cp kb.CustomPackage) (int64, error) {
	var id int64
	err := s.e.Write(ctx, custID, func(tx Tx) error {
		own, err := customerVendor(ctx, tx, custID)
		if err != nil {
			return err
		}
		if vendorID != own {
			if err := vendorForWrite(ctx, tx, custID, vendorID); err != nil {
				return err
			}
			return kb.Errorf(kb.CodeNotAllowed, "Custom packages can only be created under the customer's own vendor (%d).", own)
		}
		if cp.Name, err = kb.CustomPackageName(cp.Name); err != nil {
			return err
		}
		if err := checkCustomPackageName(ctx, tx, own, cp.Name, 0); err != nil {
			return err
		}
		if err := kb.CheckPackageCoverage(cp.CustomCoverage); err != nil {
			return err
		}
		proxy, err := proxyColumn(ctx, tx, custID, cp.Proxy)
		if err != nil {
			return err
		}
		ct := kb.StoredContentType(cp.ContentType)
		if err := tx.QueryRow(ctx, `INSERT INTO packages(vendor_id, name, sort_name, customer_id, content_type, package_type)
			VALUES ($1, $2, $3, $4, $5, $6) RETURNING id`,
			own, cp.Name, kb.Fold(cp.Name), custID, int(ct), int(kb.PackageCustom)).Scan(&id); err != nil {
			return fmt.Errorf("create package %q: %w", cp.Name, err)
		}
		if err := BumpVersion(ctx, tx, NamesVersion); err != nil {
			return err
		}
		c, err := beginChange(ctx, tx, custID, id, fmt.Sprintf("package %d", id), "create", packageState(custID, id))
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO customer_packages(customer_id, package_id, selected, cov_begin, cov_end, proxy_id)
			VALUES ($1, $2, TRUE, $3, $4, $5)`,
			custID, id, cp.CustomCoverage.Begin, cp.CustomCoverage.End, proxy); err != nil {
			return fmt.Errorf("create package %d: %w", id, err)
		}
		return c.commit(ctx, tx)
	})
	if err != nil {
		return 0, err
	}
	return id, nil
}

// DeleteCustomPackage deletes a custom package with its titles.
func (s *Store) DeleteCustomPackage(ctx context.Context, custID string, vendorID, packageID int64) error {
	return s.e.Write(ctx, custID, func(tx Tx) error {
		p, err := packageForWrite(ctx, tx, custID, vendorID, packageID)
		if err != nil {
			return err
		}
		if !p.Custom {
			return kb.Errorf(kb.CodeNotAllowed, "Package %d is a managed package: it cannot be deleted, only deselected.", packageID)
		}
		return deleteCustomPackage(ctx, tx, custID, p)
	})
}

// deleteCustomPackage deletes a custom package, the customer's state of it
// and the customer's custom titles it leaves in no package.
func deleteCustomPackage(ctx context.Context, tx Tx, custID string, p writePackage) error {
	c, err := beginChange(ctx, tx, custID, p.ID, fmt.Sprintf("package %d", p.ID), "delete", packageState(custID, p.ID))
	if err != nil {
		return err
	}
	titles, err := QueryAll(ctx, tx, `DELETE FROM resources WHERE package_id = $1 RETURNING title_id`, []any{p.ID}, ScanInt64)
	if err != nil {
		return fmt.Errorf("delete package %d: %w", p.ID, err)
	}
	for _, q := range []string{
		`DELETE FROM customer_resources WHERE customer_id = $2 AND package_id = $1`, // only the owner has state on it
		`DELETE FROM customer_packages WHERE customer_id = $2 AND package_id = $1`,
		`DELETE FROM packages WHERE id = $1 AND customer_id = $2`,
	} {
		if _, err := tx.Exec(ctx, q, p.ID, custID); err != nil {
			return fmt.Errorf("delete package %d: %w", p.ID, err)
		}
	}
	if err := RemoveOrphanTitles(ctx, tx, custID, titles); err != nil {
		return err
	}
	if err := BumpVersion(ctx, tx, NamesVersion); err != nil {
		return err
	}
	if len(titles) > 0 {
		if err := BumpTitles(ctx, tx, titles...); err != nil {
			return err
		}
	}
	return c.commit(ctx, tx)
}

// RemoveOrphanTitles deletes those of the titles that are in no package
// any more and belong to owner: the customer's custom titles, or managed
// titles when owner is "". Their identifiers go with them (ON DELETE
// CASCADE).
func RemoveOrphanTitles(ctx context.Context, tx Tx, owner string, titles []int64) error {
	if len(titles) == 0 {
		return nil
	}
	q, args := `DELETE FROM titles WHERE `+tx.Dialect().InIDs("id", "$1")+` AND customer_id IS NULL`, []any{titles}
	if owner != "" {
		q, args = `DELETE FROM titles WHERE `+tx.Dialect().InIDs("id", "$1")+` AND customer_id = $2`, []any{titles, owner}
	}
	if _, err := tx.Exec(ctx, q+` AND NOT EXISTS (SELECT 1 FROM resources r WHERE r.title_id = titles.id)`, args...); err != nil {
		return fmt.Errorf("remove orphan titles: %w", err)
	}
	return nil
}
