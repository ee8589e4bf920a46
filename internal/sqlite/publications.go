package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// A resource r is in a customer's collection when it is selected (its
// title-level state, else its package's) and neither it nor its package is
// hidden. cp and cr are the customer's package and resource state, joined
// LEFT for :cust. A customer has state only on packages it may see, so the
// condition implies the package's visibility.
const sqlInCollection = `COALESCE(cr.selected, cp.selected, 0) = 1 AND COALESCE(cp.hidden, 0) = 0 AND COALESCE(cr.hidden, 0) = 0`

// sqlCollection lists the (title_id, package_id) resources of the
// customer's collection, driven from the customer's state rather than from
// the titles: the resources of its selected, visible packages less their
// title-level exceptions, then the titles selected one by one in packages
// not selected whole. Its cost is the size of the collection, whatever the
// size of the knowledge base; a package with a few selected titles costs
// those titles only. The optional :rt restricts the publication type.
const sqlCollection = `
	SELECT r.title_id, r.package_id FROM customer_packages cp
	JOIN resources r ON r.package_id = cp.package_id
	LEFT JOIN customer_resources cr ON cr.customer_id = cp.customer_id AND cr.package_id = r.package_id AND cr.title_id = r.title_id
	WHERE cp.customer_id = :cust AND cp.selected = 1 AND cp.hidden = 0
		AND COALESCE(cr.selected, 1) = 1 AND COALESCE(cr.hidden, 0) = 0 AND (:rt = 0 OR r.pub_type = :rt)
	UNION ALL
	SELECT r.title_id, r.package_id FROM customer_resources cr
	JOIN resources r ON r.package_id = cr.package_id AND r.title_id = cr.title_id
	LEFT JOIN customer_packages cp ON cp.customer_id = cr.customer_id AND cp.package_id = cr.package_id
	WHERE cr.customer_id = :cust AND cr.selected = 1 AND cr.hidden = 0
		AND COALESCE(cp.selected, 0) = 0 AND COALESCE(cp.hidden, 0) = 0 AND (:rt = 0 OR r.pub_type = :rt)`

// PublicationHits calls fn for every title of the customer's collection
// that matches the search and resource type of q. With a search, the
// indexes give the matching titles and each is checked against the
// customer's state (a few index lookups a title); without one, the
// collection is read from the customer's state (sqlCollection).
func (s *Store) PublicationHits(ctx context.Context, custID string, q kb.PubQuery, withSubjects bool, fn func(kb.PubHit)) error {
	if _, err := s.rootProxy(ctx, custID); err != nil {
		return err
	}
	subjects := "''"
	if withSubjects {
		subjects = "t.subjects"
	}
	cols := `t.id, t.name, t.sort_name, t.pub_type, t.peer_reviewed, ` + subjects + `, r.package_id`
	args := []any{sql.Named("cust", custID), sql.Named("rt", int(q.ResourceType))}
	var query string
	if strings.TrimSpace(q.Search) == "" {
		query = `SELECT ` + cols + `, 0 FROM (` + sqlCollection + `) r JOIN titles t ON t.id = r.title_id`
	} else {
		m, err := buildTitleMatch(kb.TitleQuery{Search: q.Search, Field: q.Field, Type: q.Type})
		if err != nil {
			return err
		}
		if m.none {
			return nil
		}
		args = append(args, m.args...)
		from, rank := `titles t`, `0`
		where := []string{sqlTitleVisible, sqlInCollection, `(:rt = 0 OR r.pub_type = :rt)`}
		if m.sub != "" {
			from, rank = `(`+m.sub+`) m JOIN titles t ON t.id = m.id`, `m.rank`
		} else {
			where = append(where, m.cond)
		}
		query = `SELECT ` + cols + `, ` + rank + ` FROM ` + from + `
			JOIN resources r ON r.title_id = t.id
			LEFT JOIN customer_packages cp ON cp.customer_id = :cust AND cp.package_id = r.package_id
			LEFT JOIN customer_resources cr ON cr.customer_id = :cust AND cr.package_id = r.package_id AND cr.title_id = r.title_id
			WHERE ` + strings.Join(where, " AND ")
	}
	rows, err := s.r.QueryContext(ctx, query, args...)
	if err != nil {
		return fmt.Errorf("publication search: %w", err)
	}
	defer rows.Close()
	// A title in several packages of the collection comes once per
	// package, not always on adjacent rows: hits are gathered by id and
	// handed to fn at the end.
	hits := map[int64]*kb.PubHit{}
	var order []*kb.PubHit
	for rows.Next() {
		var h kb.PubHit
		var pt int
		var subj string
		var pkg int64
		if err := rows.Scan(&h.ID, &h.Name, &h.SortName, &pt, &h.PeerReviewed, &subj, &pkg, &h.Rank); err != nil {
			return fmt.Errorf("publication search: %w", err)
		}
		if prev, ok := hits[h.ID]; ok {
			prev.PackageIDs = append(prev.PackageIDs, pkg)
			continue
		}
		h.PubType = kb.ResourceType(pt)
		h.PackageIDs = []int64{pkg}
		if subj != "" {
			ps, err := decodePairs(subj)
			if err != nil {
				return fmt.Errorf("title %d subjects: %w", h.ID, err)
			}
			h.Subjects = make([]kb.Subject, len(ps))
			for i, p := range ps {
				h.Subjects[i] = kb.Subject{Type: p[0], Name: p[1]}
			}
		}
		hp := &h
		hits[h.ID] = hp
		order = append(order, hp)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("publication search: %w", err)
	}
	for _, h := range order {
		fn(*h)
	}
	return nil
}

// CollectionTitleNames calls fn with the name of every title of the
// customer's collection (of type rt unless kb.ResourceAll), once a title.
func (s *Store) CollectionTitleNames(ctx context.Context, custID string, rt kb.ResourceType, fn func(name string)) error {
	if _, err := s.rootProxy(ctx, custID); err != nil {
		return err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT r.title_id, t.name FROM (`+sqlCollection+`) r JOIN titles t ON t.id = r.title_id`,
		sql.Named("cust", custID), sql.Named("rt", int(rt)))
	if err != nil {
		return fmt.Errorf("collection titles: %w", err)
	}
	defer rows.Close()
	var seen bitset
	for rows.Next() {
		var id int64
		var name string
		if err := rows.Scan(&id, &name); err != nil {
			return fmt.Errorf("collection titles: %w", err)
		}
		if seen.testAndSet(id) {
			continue
		}
		fn(name)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("collection titles: %w", err)
	}
	return nil
}

// bitset is a set of non-negative ids, one bit an id.
type bitset []uint64

// testAndSet adds id and reports whether it was there already.
func (b *bitset) testAndSet(id int64) bool {
	i, bit := int(id>>6), uint64(1)<<(uint(id)&63)
	if i >= len(*b) {
		*b = append(*b, make([]uint64, i-len(*b)+1+len(*b)/2)...)
	}
	was := (*b)[i]&bit != 0
	(*b)[i] |= bit
	return was
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
	out := ts[:0]
	var keys []kb.ResourceKey
	for _, t := range ts {
		kept := t.Resources[:0]
		for _, r := range t.Resources {
			if r.IsSelected && !r.Visibility.Hidden {
				kept = append(kept, r)
				keys = append(keys, kb.ResourceKey{PackageID: r.PackageID, TitleID: r.TitleID})
			}
		}
		if len(kept) > 0 {
			t.Resources = kept
			out = append(out, t)
		}
	}
	if len(keys) == 0 {
		return out, nil
	}
	tokens, err := s.resourceTokens(ctx, custID, keys)
	if err != nil {
		return nil, err
	}
	notes, err := s.Notes(ctx, custID, keys)
	if err != nil {
		return nil, err
	}
	for i := range out {
		for j := range out[i].Resources {
			r := &out[i].Resources[j]
			tk := tokens[r.PackageID]
			r.VendorToken, r.PackageToken = tk[0], tk[1]
			r.Notes = notes[kb.ResourceKey{PackageID: r.PackageID, TitleID: r.TitleID}]
			if r.Notes == nil {
				r.Notes = []kb.Note{}
			}
		}
	}
	return out, nil
}

// resourceTokens returns the vendor and package tokens (nil where the
// vendor or package has none) of the packages of keys, with the customer's
// values.
func (s *Store) resourceTokens(ctx context.Context, custID string, keys []kb.ResourceKey) (map[int64][2]*kb.Token, error) {
	seen := map[int64]bool{}
	var pkgs []int64
	for _, k := range keys {
		if !seen[k.PackageID] {
			seen[k.PackageID] = true
			pkgs = append(pkgs, k.PackageID)
		}
	}
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
		var f [8]sql.NullString
		if err := rows.Scan(&id, &f[0], &f[1], &f[2], &f[3], &f[4], &f[5], &f[6], &f[7]); err != nil {
			return nil, fmt.Errorf("resource tokens: %w", err)
		}
		var pair [2]*kb.Token
		for i := range pair {
			g := f[i*4:]
			if g[0].Valid {
				pair[i] = &kb.Token{FactName: g[0].String, Prompt: g[1].String, HelpText: g[2].String, Value: g[3].String}
			}
		}
		out[id] = pair
	}
	return out, rows.Err()
}

// CollectionPackages lists the packages of the customer's collection:
// those it selected whole or in part, not hidden, with at least one title
// selected.
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
		`COALESCE(cp.hidden, 0) = 0`, `(` + sqlSelectedCount + `) > 0`}
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
	list.Total, list.Packages, err = listPage(ctx, s.r, sqlPackageColumns, from, strings.Join(where, " AND "), order, args, page,
		func(rows *sql.Rows) (kb.Package, error) { return scanPackage(rows, root) })
	if err != nil {
		return list, fmt.Errorf("list collection packages: %w", err)
	}
	return list, nil
}
