package postgres

import (
	"context"

	"github.com/kbserver/kbserver/internal/kb"
)

// Stubs of the methods not written yet: each returns kb.CodeNotImplemented.
// The file goes away when its last method is written.

// UpdateVendor is not written yet.
func (s *Store) UpdateVendor(ctx context.Context, custID string, vendorID int64, u kb.VendorUpdate) error {
	return notYet("UpdateVendor")
}

// UpdatePackage is not written yet.
func (s *Store) UpdatePackage(ctx context.Context, custID string, vendorID, packageID int64, u kb.PackageUpdate) error {
	return notYet("UpdatePackage")
}

// CreateCustomPackage is not written yet.
func (s *Store) CreateCustomPackage(ctx context.Context, custID string, vendorID int64, cp kb.CustomPackage) (int64, error) {
	return 0, notYet("CreateCustomPackage")
}

// DeleteCustomPackage is not written yet.
func (s *Store) DeleteCustomPackage(ctx context.Context, custID string, vendorID, packageID int64) error {
	return notYet("DeleteCustomPackage")
}

// UpdateResource is not written yet.
func (s *Store) UpdateResource(ctx context.Context, custID string, vendorID, packageID, titleID int64, u kb.ResourceUpdate) error {
	return notYet("UpdateResource")
}

// CreateCustomTitle is not written yet.
func (s *Store) CreateCustomTitle(ctx context.Context, custID string, vendorID, packageID int64, ct kb.CustomTitle) (int64, error) {
	return 0, notYet("CreateCustomTitle")
}

// UpdateRoot is not written yet.
func (s *Store) UpdateRoot(ctx context.Context, custID string, r kb.RootSettings) error {
	return notYet("UpdateRoot")
}

// Changes is not written yet.
func (s *Store) Changes(ctx context.Context, custID string, limit int) ([]kb.Change, error) {
	return nil, notYet("Changes")
}
