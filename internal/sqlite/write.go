package sqlite

import (
	"context"

	"github.com/kbserver/kbserver/internal/kb"
)

func notYet(what string) error { return kb.Errorf(kb.CodeNotImplemented, "Not implemented yet: %s", what) }

// UpdateVendor is not implemented yet.
func (s *Store) UpdateVendor(ctx context.Context, custID string, vendorID int64, u kb.VendorUpdate) error {
	return notYet("UpdateVendor")
}

// UpdatePackage is not implemented yet.
func (s *Store) UpdatePackage(ctx context.Context, custID string, vendorID, packageID int64, u kb.PackageUpdate) error {
	return notYet("UpdatePackage")
}

// CreateCustomPackage is not implemented yet.
func (s *Store) CreateCustomPackage(ctx context.Context, custID string, vendorID int64, p kb.CustomPackage) (int64, error) {
	return 0, notYet("CreateCustomPackage")
}

// DeleteCustomPackage is not implemented yet.
func (s *Store) DeleteCustomPackage(ctx context.Context, custID string, vendorID, packageID int64) error {
	return notYet("DeleteCustomPackage")
}

// UpdateResource is not implemented yet.
func (s *Store) UpdateResource(ctx context.Context, custID string, vendorID, packageID, titleID int64, u kb.ResourceUpdate) error {
	return notYet("UpdateResource")
}

// CreateCustomTitle is not implemented yet.
func (s *Store) CreateCustomTitle(ctx context.Context, custID string, vendorID, packageID int64, t kb.CustomTitle) (int64, error) {
	return 0, notYet("CreateCustomTitle")
}

// UpdateRoot is not implemented yet.
func (s *Store) UpdateRoot(ctx context.Context, custID string, r kb.RootSettings) error {
	return notYet("UpdateRoot")
}

// Changes is not implemented yet.
func (s *Store) Changes(ctx context.Context, custID string, limit int) ([]kb.Change, error) {
	return nil, notYet("Changes")
}

// RemoveProxy is not implemented yet.
func (s *Store) RemoveProxy(ctx context.Context, custID, proxyID string) error {
	return notYet("RemoveProxy")
}
