package postgres

import (
	"context"

	"github.com/kbserver/kbserver/internal/kb"
)

// Stubs of the methods not written yet: each returns kb.CodeNotImplemented.
// The file goes away when its last method is written.

// CollectionHits is not written yet.
func (s *Store) CollectionHits(ctx context.Context, custID string, fn func(kb.PubHit)) error {
	return notYet("CollectionHits")
}

// CollectionTitles is not written yet.
func (s *Store) CollectionTitles(ctx context.Context, custID string, ids []int64) ([]kb.Title, error) {
	return nil, notYet("CollectionTitles")
}

// Publication is not written yet.
func (s *Store) Publication(ctx context.Context, custID string, packageID, titleID int64) (kb.Title, error) {
	return kb.Title{}, notYet("Publication")
}

// CollectionPackages is not written yet.
func (s *Store) CollectionPackages(ctx context.Context, custID string, q kb.CollectionPackageQuery) (kb.PackageList, error) {
	return kb.PackageList{}, notYet("CollectionPackages")
}

// AddNote is not written yet.
func (s *Store) AddNote(ctx context.Context, custID string, n kb.Note) (kb.Note, error) {
	return kb.Note{}, notYet("AddNote")
}

// RemoveNote is not written yet.
func (s *Store) RemoveNote(ctx context.Context, custID string, noteID int64) error {
	return notYet("RemoveNote")
}

// Notes is not written yet.
func (s *Store) Notes(ctx context.Context, custID string, keys []kb.ResourceKey) (map[kb.ResourceKey][]kb.Note, error) {
	return nil, notYet("Notes")
}

// LinkSecret is not written yet.
func (s *Store) LinkSecret(ctx context.Context) ([]byte, error) {
	return nil, notYet("LinkSecret")
}

// ResourceLink is not written yet.
func (s *Store) ResourceLink(ctx context.Context, custID string, key kb.ResourceKey) (kb.ResourceLink, error) {
	return kb.ResourceLink{}, notYet("ResourceLink")
}

// CountLinkOut is not written yet.
func (s *Store) CountLinkOut(ctx context.Context, custID string, key kb.ResourceKey) error {
	return notYet("CountLinkOut")
}

// LinkOutCount is not written yet.
func (s *Store) LinkOutCount(ctx context.Context, custID string, key kb.ResourceKey) (int64, error) {
	return 0, notYet("LinkOutCount")
}
