package postgres

import (
	"context"
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// sqlCollection lists the (title_id, package_id) resources of the
// customer's ($1) collection, driven from the customer's state rather than
// from the titles: the resources of its selected, visible packages less
// their title-level exceptions, then the titles selected one by one in
// packages not selected whole. Its cost is the size of the collection,
// whatever the size of the knowledge base; a package with a few selected
// titles costs those titles only.
const sqlCollection = `
	SELECT r.title_id, r.package_id FROM customer_packages cp
	JOIN resources r ON r.package_id = cp.package_id
	LEFT JOIN customer_resources cr ON cr.customer_id = cp.customer_id AND cr.package_id = r.package_id AND cr.title_id = r.title_id
	WHERE cp.customer_id = $1 AND cp.selected AND NOT cp.hidden
		AND COALESCE(cr.selected, true) AND NOT COALESCE(cr.hidden, false)
	UNION ALL
	SELECT r.title_id, r.package_id FROM customer_resources cr
	JOIN resources r ON r.package_id = cr.package_id AND r.title_id = cr.title_id
	LEFT JOIN customer_packages cp ON cp.customer_id = cr.customer_id AND cp.package_id = cr.package_id
	WHERE cr.customer_id = $1 AND cr.selected AND NOT cr.hidden
		AND NOT COALESCE(cp.selected, false) AND NOT COALESCE(cp.hidden, false)`

// sqlCollectionHits reads the resources of the customer's collection
// with their titles, in title id then package id order: a title in n
// packages of the collection is n rows in a row. Flat rows grouped by the
// caller cost less than an array per title built by the server.
const sqlCollectionHits = `WITH c AS (` + sqlCollection + `)
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
		return s.collectionCustomer(ctx, custID)
	}
	h.PackageIDs = pkgs
	fn(h)
	return nil
}

// collectionCustomer returns CodeNotFound ("Customer") unless the customer
// exists.
func (s *Store) collectionCustomer(ctx context.Context, custID string) error {
	var one int
	err := s.pool.QueryRow(ctx, `SELECT 1 FROM customers WHERE id = $1`, custID).Scan(&one)
	if noRows(err) {
		return kb.NotFound("Customer")
	}
	if err != nil {
		return fmt.Errorf("customer %s: %w", custID, err)
	}
	return nil
}
