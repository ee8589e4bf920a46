package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// collectionChunk is how many titles CollectionHits reads at a time.
const collectionChunk = 512

// CollectionHits calls fn for every title of the customer's collection,
// read from the customer's state (kbsql.SQLCollection), in title id order.
//
// Memory stays at 16 bytes a resource whatever the titles hold: the first
// pass reads only the collection's (title, package) pairs and sorts them
// by title; the second reads the titles a chunk at a time (a range scan of
// the title table where the chunk's ids are dense, lookups by id where they
// are sparse). Both run in one read transaction, so they see one state.
func (s *Store) CollectionHits(ctx context.Context, custID string, fn func(kb.PubHit)) error {
	if _, err := s.RootProxy(ctx, custID); err != nil {
		return err
	}
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return fmt.Errorf("collection of %s: %w", custID, err)
	}
	defer tx.Rollback()
	pairs, err := collectionPairs(ctx, tx, custID)
	if err != nil {
		return fmt.Errorf("collection of %s: %w", custID, err)
	}
	var ids []int64   // the chunk's distinct titles
	var pkgs [][2]int // for each, its run in pairs
	for i := 0; i < len(pairs); {
		ids, pkgs = ids[:0], pkgs[:0]
		for i < len(pairs) && len(ids) < collectionChunk {
			j := i + 1
			for j < len(pairs) && pairs[j].title == pairs[i].title {
				j++
			}
			ids = append(ids, pairs[i].title)
			pkgs = append(pkgs, [2]int{i, j})
			i = j
		}
		if err := emitChunk(ctx, tx, ids, pkgs, pairs, fn); err != nil {
			return fmt.Errorf("collection of %s: %w", custID, err)
		}
	}
	return nil
}

// collectionPair is one resource of a collection.
type collectionPair struct{ title, pkg int64 }

// collectionPairs returns the customer's collection as (title, package)
// pairs sorted by title, then package.
func collectionPairs(ctx context.Context, tx *sql.Tx, custID string) ([]collectionPair, error) {
	rows, err := tx.QueryContext(ctx, kbsql.SQLCollection, custID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var pairs []collectionPair
	for rows.Next() {
		var p collectionPair
		if err := rows.Scan(&p.title, &p.pkg); err != nil {
			return nil, err
		}
		pairs = append(pairs, p)
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(pairs, func(a, b collectionPair) int {
		return cmp.Or(cmp.Compare(a.title, b.title), cmp.Compare(a.pkg, b.pkg))
	})
	return pairs, nil
}

// emitChunk reads the titles ids (ascending) and hands them to fn in that
// order, each with its packages pairs[run[0]:run[1]].
func emitChunk(ctx context.Context, tx *sql.Tx, ids []int64, runs [][2]int, pairs []collectionPair, fn func(kb.PubHit)) error {
	const cols = `SELECT id, name, pub_type, peer_reviewed, subjects FROM titles `
	lo, hi := ids[0], ids[len(ids)-1]
	var rows *sql.Rows
	var err error
	if hi-lo < int64(4*len(ids)) { // dense: one range scan, skipping titles not in the chunk
		rows, err = tx.QueryContext(ctx, cols+`WHERE id BETWEEN ? AND ?`, lo, hi)
	} else {
		j, _ := json.Marshal(ids)
		rows, err = tx.QueryContext(ctx, cols+`WHERE id IN (SELECT value FROM json_each(?))`, string(j))
	}
	if err != nil {
		return err
	}
	defer rows.Close()
	got := make(map[int64]kb.PubHit, len(ids))
	for rows.Next() {
		var h kb.PubHit
		var pt int
		var subj string
		if err := rows.Scan(&h.ID, &h.Name, &pt, &h.PeerReviewed, &subj); err != nil {
			return err
		}
		if _, ok := slices.BinarySearch(ids, h.ID); !ok {
			continue
		}
		h.PubType = kb.ResourceType(pt)
		if h.Subjects, err = kbsql.DecodeSubjects(h.ID, subj); err != nil {
			return err
		}
		got[h.ID] = h
	}
	if err := rows.Err(); err != nil {
		return err
	}
	var pkgIDs []int64
	for k, id := range ids {
		h, ok := got[id]
		if !ok {
			continue // not possible inside one transaction; skipped rather than invented
		}
		pkgIDs = pkgIDs[:0]
		for _, p := range pairs[runs[k][0]:runs[k][1]] {
			pkgIDs = append(pkgIDs, p.pkg)
		}
		h.PackageIDs = pkgIDs
		fn(h)
	}
	return nil
}
