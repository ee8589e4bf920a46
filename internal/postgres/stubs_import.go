package postgres

import (
	"context"

	"github.com/kbserver/kbserver/internal/kb"
)

// Stubs of the methods not written yet: each returns kb.CodeNotImplemented.
// The file goes away when its last method is written.

// ImportPackage is not written yet.
func (s *Store) ImportPackage(ctx context.Context, spec kb.PackageSpec, next func() (kb.ImportRow, error)) (kb.ImportResult, error) {
	return kb.ImportResult{}, notYet("ImportPackage")
}

// AddCustomer is not written yet.
func (s *Store) AddCustomer(ctx context.Context, id, name string) (kb.Customer, error) {
	return kb.Customer{}, notYet("AddCustomer")
}

// Customer is not written yet.
func (s *Store) Customer(ctx context.Context, id string) (kb.Customer, error) {
	return kb.Customer{}, notYet("Customer")
}

// AddAPIKey is not written yet.
func (s *Store) AddAPIKey(ctx context.Context, custID string, h kb.KeyHash) error {
	return notYet("AddAPIKey")
}

// RevokeAPIKey is not written yet.
func (s *Store) RevokeAPIKey(ctx context.Context, h kb.KeyHash) error {
	return notYet("RevokeAPIKey")
}

// LookupAPIKey is not written yet.
func (s *Store) LookupAPIKey(ctx context.Context, h kb.KeyHash) (kb.APIKey, error) {
	return kb.APIKey{}, notYet("LookupAPIKey")
}

// AddProxy is not written yet.
func (s *Store) AddProxy(ctx context.Context, custID string, p kb.Proxy) error {
	return notYet("AddProxy")
}

// RemoveProxy is not written yet.
func (s *Store) RemoveProxy(ctx context.Context, custID, proxyID string) error {
	return notYet("RemoveProxy")
}

// Proxies is not written yet.
func (s *Store) Proxies(ctx context.Context, custID string) ([]kb.Proxy, error) {
	return nil, notYet("Proxies")
}

// Root is not written yet.
func (s *Store) Root(ctx context.Context, custID string) (kb.RootSettings, error) {
	return kb.RootSettings{}, notYet("Root")
}

// SaveProfile is not written yet.
func (s *Store) SaveProfile(ctx context.Context, p kb.Profile) error {
	return notYet("SaveProfile")
}

// LookupProfile is not written yet.
func (s *Store) LookupProfile(ctx context.Context, id kb.ProfileID) (kb.Profile, error) {
	return kb.Profile{}, notYet("LookupProfile")
}

// SetPackageState is not written yet.
func (s *Store) SetPackageState(ctx context.Context, custID string, packageID int64, st kb.PackageState) error {
	return notYet("SetPackageState")
}

// SetResourceState is not written yet.
func (s *Store) SetResourceState(ctx context.Context, custID string, packageID, titleID int64, st kb.ResourceState) error {
	return notYet("SetResourceState")
}
