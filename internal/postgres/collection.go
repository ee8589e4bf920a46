package postgres

import (
	"context"
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// sqlCollectionHits reads the resources of the customer's collection
// with their titles, in title id then package id order: a title in n
// packages of the collection is n rows in a row. Flat rows grouped by the
// caller cost less than an array per title built by the server.
const sqlCollectionHits = `WITH c AS (` + kbsql.SQLCollection + `)
	SELECT t.id, t.name, t.pub_type, t.peer_reviewed, t.subjects, c.package_id
	FROM c JOIN titles t ON t.id = c.title_id
	ORDER BY t.id, c.package_id`

// CollectionHits calls fn for every title of the customer's collection, in
// ascending title id order, with its packages in the collection
// (ascending). The rows stream from one query, one snapshot: memory stays
// at one title whatever the size of the collection, and the hits share one
// buffer of package ids, which fn must not keep.
func (s *Store) CollectionHits(ctx context.Context, custID string, fn func(kb.PubHit)) error {
	rows, err := s.pool.Query(ctx, sqlCollectionHits, custID)
	if err != nil {
		return fmt.Errorf("collection of %s: %w", custID, err)
	}
	defer rows.Close()
	var h, next kb.PubHit
	var pt int
	var subjects string
	var pkg int64
	pkgs := make([]int64, 0, 8)
	n := 0
	for rows.Next() {
		if err := rows.Scan(&next.ID, &next.Name, &pt, &next.PeerReviewed, &subjects, &pkg); err != nil {
			return fmt.Errorf("collection of %s: %w", custID, err)
		}
		if n > 0 && next.ID == h.ID { // the same title in another package
			pkgs = append(pkgs, pkg)
			continue
		}
		if n > 0 {
			h.PackageIDs = pkgs
			fn(h)
		}
		n++
		h = next
		h.PubType = kb.ResourceType(pt)
		if h.Subjects, err = kbsql.DecodeSubjects(h.ID, subjects); err != nil {
			return fmt.Errorf("collection of %s: %w", custID, err)
		}
		pkgs = append(pkgs[:0], pkg)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("collection of %s: %w", custID, err)
	}
	if n == 0 { // an unknown customer has no collection: say which it is
		_, err := s.RootProxy(ctx, custID)
		return err
	}
	h.PackageIDs = pkgs
	fn(h)
	return nil
}
