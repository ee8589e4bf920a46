package sqlite

import (
	"context"
	"errors"

	"github.com/kbserver/kbserver/internal/kb"
)

var errTODO = errors.New("not yet")

// Publications searches the customer's collection.
func (s *Store) Publications(ctx context.Context, custID string, q kb.PubQuery) (kb.PubResult, error) {
	return kb.PubResult{}, errTODO
}

// Publication returns a title with only its resource in the package.
func (s *Store) Publication(ctx context.Context, custID string, packageID, titleID int64) (kb.Title, error) {
	return kb.Title{}, errTODO
}

// CollectionPackages lists the packages of the collection.
func (s *Store) CollectionPackages(ctx context.Context, custID string, q kb.CollectionPackageQuery) (kb.PackageList, error) {
	return kb.PackageList{}, errTODO
}

// CollectionTitleNames calls fn with the name of every title of the collection.
func (s *Store) CollectionTitleNames(ctx context.Context, custID string, rt kb.ResourceType, fn func(name string)) error {
	return errTODO
}
