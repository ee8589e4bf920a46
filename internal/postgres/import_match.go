package postgres

import (
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// batch imports one batch of rows: it matches each row to a managed title
// (by a valid identifier, else by match hash for rows without one),
// creates the titles no row matched, and writes the resources.
func (imp *importer) batch(rows []kb.ImportRow) error {
	if len(rows) == 0 {
		return nil
	}
	ps, err := kbsql.PrepareRows(rows)
	if err != nil {
		return err
	}
	imp.res.Rows += len(rows)
	byNorm, byHash, err := imp.lookupTitles(ps)
	if err != nil {
		return err
	}
	w := &imp.w
	w.reset()
	refs := make([]kbsql.ImportTitle, len(ps))
	var created []int // indexes in ps of the rows that create a title
	for i := range ps {
		p := &ps[i]
		t, ok := kbsql.MatchTitle(p, byNorm, byHash)
		if ok {
			imp.res.TitlesMatched++
			for _, id := range kbsql.AddedIdents(p, t, byNorm) { // identifiers this row adds to a known title
				w.addIdent(t.ID, id)
			}
			refs[i] = t
			continue
		}
		// A new title: its id comes once the batch knows how many it needs;
		// until then refs holds -(its index in created)-1.
		t = kbsql.ImportTitle{ID: -int64(len(created)) - 1, Sort: kbsql.Fold(p.Name), PubType: p.PubType}
		created = append(created, i)
		kbsql.NoteNewTitle(p, t, byNorm, byHash)
		refs[i] = t
	}
	if len(created) > 0 {
		ids, err := imp.titleIDs(len(created))
		if err != nil {
			return err
		}
		for i := range refs {
			if refs[i].ID < 0 {
				refs[i].ID = ids[-refs[i].ID-1]
			}
		}
		for i := range w.added { // identifiers later rows added to new titles
			if w.added[i].titleID < 0 {
				w.added[i].titleID = ids[-w.added[i].titleID-1]
			}
		}
		for k, i := range created {
			p := &ps[i]
			w.title(ids[k], refs[i].Sort, p)
			for _, id := range p.Idents {
				w.ident(ids[k], id)
			}
		}
		imp.res.TitlesCreated += len(created)
	}
	if err := imp.writeResources(ps, refs); err != nil {
		return err
	}
	return w.flush(imp)
}

// titleIDs takes n new title ids from the titles' identity sequence:
// never reused, other systems keep them.
func (imp *importer) titleIDs(n int) ([]int64, error) {
	rows, err := imp.tx.Query(imp.ctx, `SELECT nextval(pg_get_serial_sequence('titles', 'id')) FROM generate_series(1, $1)`, n)
	if err != nil {
		return nil, fmt.Errorf("new title ids: %w", err)
	}
	ids := make([]int64, 0, n)
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			rows.Close()
			return nil, fmt.Errorf("new title ids: %w", err)
		}
		ids = append(ids, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("new title ids: %w", err)
	}
	return ids, nil
}

// lookupTitles finds the managed titles of a batch's valid identifiers and,
// for rows without one, of their match hashes: two queries a batch. When
// several titles share an identifier or a hash, the oldest wins.
func (imp *importer) lookupTitles(ps []kbsql.ImportRow) (map[string]kbsql.ImportTitle, map[int64]kbsql.ImportTitle, error) {
	norms, hashes := kbsql.MatchKeys(ps)
	byNorm := make(map[string]kbsql.ImportTitle, len(norms))
	byHash := make(map[int64]kbsql.ImportTitle, len(hashes))
	if len(norms) > 0 {
		rows, err := imp.tx.Query(imp.ctx, `SELECT ti.norm, t.id, t.sort_name, t.pub_type FROM title_identifiers ti JOIN titles t ON t.id = ti.title_id
			WHERE ti.norm = ANY($1) AND ti.valid AND t.customer_id IS NULL ORDER BY t.id`, norms)
		if err != nil {
			return nil, nil, fmt.Errorf("match identifiers: %w", err)
		}
		for rows.Next() {
			var n string
			var t kbsql.ImportTitle
			if err := rows.Scan(&n, &t.ID, &t.Sort, &t.PubType); err != nil {
				rows.Close()
				return nil, nil, fmt.Errorf("match identifiers: %w", err)
			}
			if _, ok := byNorm[n]; !ok {
				byNorm[n] = t
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, nil, fmt.Errorf("match identifiers: %w", err)
		}
	}
	if len(hashes) > 0 {
		rows, err := imp.tx.Query(imp.ctx, `SELECT match_hash, id, sort_name, pub_type FROM titles
			WHERE match_hash = ANY($1) AND customer_id IS NULL ORDER BY id`, hashes)
		if err != nil {
			return nil, nil, fmt.Errorf("match titles: %w", err)
		}
		for rows.Next() {
			var h int64
			var t kbsql.ImportTitle
			if err := rows.Scan(&h, &t.ID, &t.Sort, &t.PubType); err != nil {
				rows.Close()
				return nil, nil, fmt.Errorf("match titles: %w", err)
			}
			if _, ok := byHash[h]; !ok {
				byHash[h] = t
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return nil, nil, fmt.Errorf("match titles: %w", err)
		}
	}
	return byNorm, byHash, nil
}
