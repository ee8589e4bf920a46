package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// sqlCollection lists the (title_id, package_id) resources of the
// customer's collection, driven from the customer's state rather than from
// the titles: the resources of its selected, visible packages less their
// title-level exceptions, then the titles selected one by one in packages
// not selected whole. Its cost is the size of the collection, whatever the
// size of the knowledge base; a package with a few selected titles costs
// those titles only.
const sqlCollection = `
	SELECT r.title_id, r.package_id FROM customer_packages cp
	JOIN resources r ON r.package_id = cp.package_id
	LEFT JOIN customer_resources cr ON cr.customer_id = cp.customer_id AND cr.package_id = r.package_id AND cr.title_id = r.title_id
	WHERE cp.customer_id = :cust AND cp.selected = 1 AND cp.hidden = 0
		AND COALESCE(cr.selected, 1) = 1 AND COALESCE(cr.hidden, 0) = 0
	UNION ALL
	SELECT r.title_id, r.package_id FROM customer_resources cr
	JOIN resources r ON r.package_id = cr.package_id AND r.title_id = cr.title_id
	LEFT JOIN customer_packages cp ON cp.customer_id = cr.customer_id AND cp.package_id = cr.package_id
	WHERE cr.customer_id = :cust AND cr.selected = 1 AND cr.hidden = 0
		AND COALESCE(cp.selected, 0) = 0 AND COALESCE(cp.hidden, 0) = 0`

// collectionChunk is how many titles CollectionHits reads at a time.
const collectionChunk = 512

// CollectionHits calls fn for every title of the customer's collection,
// read from the customer's state (sqlCollection), in title id order.
//
// Memory stays at 16 bytes a resource whatever the titles hold: the first
// pass reads only the collection's (title, package) pairs and sorts them
// by title; the second reads the titles a chunk at a time (a range scan of
// the title table where the chunk's ids are dense, lookups by id where they
// are sparse). Both run in one read transaction, so they see one state.
func (s *Store) CollectionHits(ctx context.Context, custID string, fn func(kb.PubHit)) error {
	if _, err := s.rootProxy(ctx, custID); err != nil {
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
	rows, err := tx.QueryContext(ctx, sqlCollection, sql.Named("cust", custID))
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

// CollectionTitles returns the titles with the ids, in that order, each
// with only its resources in the customer's collection, their vendor and
// package tokens and their notes. Titles without such a resource are left
// out.
func (s *Store) CollectionTitles(ctx context.Context, custID string, ids []int64) ([]kb.Title, error) {
	root, err := s.rootProxy(ctx, custID)
	if err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return []kb.Title{}, nil
	}
	idsJSON, _ := json.Marshal(ids)
	rows, err := s.r.QueryContext(ctx, `SELECT `+sqlTitleColumns+` FROM json_each(:ids) j JOIN titles t ON t.id = j.value
		WHERE `+sqlTitleVisible+` ORDER BY j.key`, sql.Named("ids", string(idsJSON)), sql.Named("cust", custID))
	if err != nil {
		return nil, fmt.Errorf("collection titles: %w", err)
	}
	ts, err := scanTitles(rows)
	if err != nil {
		return nil, fmt.Errorf("collection titles: %w", err)
	}
	if err := s.completeTitles(ctx, custID, root, ts, 0); err != nil {
		return nil, err
	}
	return s.collectionOnly(ctx, custID, ts)
}

// Publication returns a title with only its resource in the package, when
// that resource is in the customer's collection.
func (s *Store) Publication(ctx context.Context, custID string, packageID, titleID int64) (kb.Title, error) {
	root, err := s.rootProxy(ctx, custID)
	if err != nil {
		return kb.Title{}, err
	}
	t, err := s.title(ctx, custID, root, titleID, packageID)
	if kb.ErrorCode(err) == kb.CodeNotFound {
		return t, kb.Errorf(kb.CodeNotFound, "Title %d is not in package %d of this collection.", titleID, packageID)
	}
	if err != nil {
		return t, err
	}
	ts, err := s.collectionOnly(ctx, custID, []kb.Title{t})
	if err != nil {
		return kb.Title{}, err
	}
	if len(ts) == 0 {
		return kb.Title{}, kb.Errorf(kb.CodeNotFound, "Title %d is not in package %d of this collection.", titleID, packageID)
	}
	return ts[0], nil
}

// collectionOnly keeps the selected, visible resources of the titles,
// drops titles left without any, and adds the kept resources' tokens and
// notes.
func (s *Store) collectionOnly(ctx context.Context, custID string, ts []kb.Title) ([]kb.Title, error) {
	tokens := func(keys []kb.ResourceKey) (map[int64][2]*kb.Token, error) {
		return s.resourceTokens(ctx, custID, keys)
	}
	notes := func(keys []kb.ResourceKey) (map[kb.ResourceKey][]kb.Note, error) { return s.Notes(ctx, custID, keys) }
	return kbsql.CollectionOnly(ts, tokens, notes)
}

// resourceTokens returns the vendor and package tokens (nil where the
// vendor or package has none) of the packages of keys, with the customer's
// values.
func (s *Store) resourceTokens(ctx context.Context, custID string, keys []kb.ResourceKey) (map[int64][2]*kb.Token, error) {
	pkgs := kbsql.KeyPackages(keys)
	pj, _ := json.Marshal(pkgs)
	rows, err := s.r.QueryContext(ctx, `SELECT p.id, v.token_fact, v.token_prompt, v.token_help, cv.token_value,
			p.token_fact, p.token_prompt, p.token_help, cp.token_value
		FROM json_each(:ids) j JOIN packages p ON p.id = j.value JOIN vendors v ON v.id = p.vendor_id
		LEFT JOIN customer_vendors cv ON cv.customer_id = :cust AND cv.vendor_id = v.id
		LEFT JOIN customer_packages cp ON cp.customer_id = :cust AND cp.package_id = p.id`,
		sql.Named("ids", string(pj)), sql.Named("cust", custID))
	if err != nil {
		return nil, fmt.Errorf("resource tokens: %w", err)
	}
	defer rows.Close()
	out := map[int64][2]*kb.Token{}
	for rows.Next() {
		var id int64
		var f [8]*string
		if err := rows.Scan(&id, &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7]); err != nil {
			return nil, fmt.Errorf("resource tokens: %w", err)
		}
		out[id] = kbsql.TokenPair(f)
	}
	return out, rows.Err()
}

// sqlCollectionCount is the number of a package's titles in the
// customer's collection: its selected count less its hidden titles. Like
// sqlSelectedCount, its cost is the package's exceptions.
const sqlCollectionCount = `CASE WHEN COALESCE(cp.selected, 0) = 1
		THEN p.title_count - (SELECT count(*) FROM customer_resources cr WHERE cr.customer_id = :cust AND cr.package_id = p.id
			AND (cr.selected = 0 OR cr.hidden = 1))
		ELSE (SELECT count(*) FROM customer_resources cr WHERE cr.customer_id = :cust AND cr.package_id = p.id
			AND cr.selected = 1 AND cr.hidden = 0) END`

// CollectionPackages lists the packages of the customer's collection:
// those it selected whole or in part, not hidden, with at least one title
// in the collection. Their selectedCount counts those titles only.
func (s *Store) CollectionPackages(ctx context.Context, custID string, q kb.CollectionPackageQuery) (kb.PackageList, error) {
	root, err := s.rootProxy(ctx, custID)
	if err != nil {
		return kb.PackageList{}, err
	}
	args := []any{sql.Named("cust", custID)}
	from := `packages p JOIN vendors v ON v.id = p.vendor_id ` + sqlJoinCP
	where := []string{sqlPackageVisible, `p.id IN (
		SELECT package_id FROM customer_packages WHERE customer_id = :cust AND selected = 1 AND hidden = 0
		UNION SELECT package_id FROM customer_resources WHERE customer_id = :cust AND selected = 1 AND hidden = 0)`,
		`COALESCE(cp.hidden, 0) = 0`, `(` + sqlCollectionCount + `) > 0`}
	order := "p.sort_name, p.id"
	join, ok := nameSearch("package_fts", "p", q.Search, &args)
	if !ok {
		return kb.PackageList{Packages: []kb.Package{}}, nil
	}
	if join != "" {
		from += join
		if !q.ByName {
			order = "m.rank, p.sort_name, p.id"
		}
	}
	if q.ContentType != kb.ContentAll {
		where = append(where, "p.content_type = :ct")
		args = append(args, sql.Named("ct", int(q.ContentType)))
	}
	page := q.Page
	if page.Count == 0 {
		page = kb.Page{Count: 1 << 30, Number: 1}
	}
	var list kb.PackageList
	list.Total, list.Packages, err = listPage(ctx, s.r, sqlPackageColumnsHead+sqlCollectionCount+sqlPackageColumnsTail,
		from, strings.Join(where, " AND "), order, args, page,
		func(rows *sql.Rows) (kb.Package, error) { return scanPackage(rows, root) })
	if err != nil {
		return list, fmt.Errorf("list collection packages: %w", err)
	}
	return list, nil
}

// TitleMatches calls fn with every title the search of q matches and its
// rank (0 when q orders by name), through the same indexes as the title
// search of the holdings service; it does not look at the customer's
// collection.
func (s *Store) TitleMatches(ctx context.Context, custID string, q kb.PubQuery, fn func(id int64, rank float64)) error {
	if strings.TrimSpace(q.Search) == "" {
		return nil
	}
	tq := kb.TitleQuery{Search: q.Search, Field: q.Field, Type: q.Type}
	if q.ByName {
		tq.OrderBy = kb.OrderName // no rank needed
	}
	m, err := buildTitleMatch(tq)
	if err != nil || m.none {
		return err
	}
	query := `SELECT m.id, m.rank FROM (` + m.sub + `) m`
	if m.sub == "" {
		query = `SELECT t.id, 0 FROM titles t WHERE ` + m.cond
	}
	rows, err := s.r.QueryContext(ctx, query, m.args...)
	if err != nil {
		return fmt.Errorf("title matches: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var rank float64
		if err := rows.Scan(&id, &rank); err != nil {
			return fmt.Errorf("title matches: %w", err)
		}
		fn(id, rank)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("title matches: %w", err)
	}
	return nil
}
