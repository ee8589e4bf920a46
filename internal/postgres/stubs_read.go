package postgres

import (
	"context"

	"github.com/kbserver/kbserver/internal/kb"
)

// Stubs of the methods not written yet: each returns kb.CodeNotImplemented.
// The file goes away when its last method is written.

// Vendors is not written yet.
func (s *Store) Vendors(ctx context.Context, custID string, q kb.VendorQuery) (kb.VendorList, error) {
	return kb.VendorList{}, notYet("Vendors")
}

// Vendor is not written yet.
func (s *Store) Vendor(ctx context.Context, custID string, vendorID int64) (kb.Vendor, error) {
	return kb.Vendor{}, notYet("Vendor")
}

// Packages is not written yet.
func (s *Store) Packages(ctx context.Context, custID string, q kb.PackageQuery) (kb.PackageList, error) {
	return kb.PackageList{}, notYet("Packages")
}

// Package is not written yet.
func (s *Store) Package(ctx context.Context, custID string, vendorID, packageID int64) (kb.Package, error) {
	return kb.Package{}, notYet("Package")
}

// Titles is not written yet.
func (s *Store) Titles(ctx context.Context, custID string, q kb.TitleQuery) (kb.TitleList, error) {
	return kb.TitleList{}, notYet("Titles")
}

// Title is not written yet.
func (s *Store) Title(ctx context.Context, custID string, titleID int64) (kb.Title, error) {
	return kb.Title{}, notYet("Title")
}

// Resource is not written yet.
func (s *Store) Resource(ctx context.Context, custID string, vendorID, packageID, titleID int64) (kb.Title, error) {
	return kb.Title{}, notYet("Resource")
}

// TitleMatches is not written yet.
func (s *Store) TitleMatches(ctx context.Context, custID string, q kb.PubQuery, fn func(id int64, rank float64)) error {
	return notYet("TitleMatches")
}
