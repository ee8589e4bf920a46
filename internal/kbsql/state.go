package kbsql

import (
	"context"
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
)

// SetPackageState records a customer's package-level selection and
// visibility: one row, whatever the package's size.
func (s *Store) SetPackageState(ctx context.Context, custID string, packageID int64, st kb.PackageState) error {
	return s.e.Write(ctx, custID, func(tx Tx) error {
		if err := checkPackage(ctx, tx, custID, packageID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO customer_packages(customer_id, package_id, selected, hidden) VALUES ($1, $2, $3, $4)
			ON CONFLICT (customer_id, package_id) DO UPDATE SET selected = excluded.selected, hidden = excluded.hidden`,
			custID, packageID, st.Selected, st.Hidden)
		if err != nil {
			return fmt.Errorf("set package state: %w", err)
		}
		return BumpVersion(ctx, tx, CustomerVersion(custID))
	})
}

// SetResourceState records a customer's title-level state in a package.
func (s *Store) SetResourceState(ctx context.Context, custID string, packageID, titleID int64, st kb.ResourceState) error {
	return s.e.Write(ctx, custID, func(tx Tx) error {
		if err := checkPackage(ctx, tx, custID, packageID); err != nil {
			return err
		}
		found, err := exists(ctx, tx, `SELECT 1 FROM resources WHERE package_id = $1 AND title_id = $2`, packageID, titleID)
		if err != nil {
			return fmt.Errorf("set resource state: %w", err)
		}
		if !found {
			return kb.NotFound("Title")
		}
		_, err = tx.Exec(ctx, `INSERT INTO customer_resources(customer_id, package_id, title_id, selected, hidden) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (customer_id, package_id, title_id) DO UPDATE SET selected = excluded.selected, hidden = excluded.hidden`,
			custID, packageID, titleID, st.Selected, st.Hidden)
		if err != nil {
			return fmt.Errorf("set resource state: %w", err)
		}
		return BumpVersion(ctx, tx, CustomerVersion(custID))
	})
}

// checkPackage returns CodeNotFound ("Package") unless the package exists
// and the customer may see it: a managed package or one of the customer's
// own.
func checkPackage(ctx context.Context, q Querier, custID string, packageID int64) error {
	found, err := exists(ctx, q, `SELECT 1 FROM packages p WHERE p.id = $2 AND `+sqlPackageVisible, custID, packageID)
	if err != nil {
		return fmt.Errorf("package %d: %w", packageID, err)
	}
	if !found {
		return kb.NotFound("Package")
	}
	return nil
}
