package kbsql

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/kbserver/kbserver/internal/kb"
)

// SQL of titles t and resources r in the customer's ($1) context.
const (
	sqlTitleVisible = `(t.customer_id IS NULL OR t.customer_id = $1)`
	// SQLTitleColumns are the columns ScanTitles reads of a title t.
	SQLTitleColumns = `t.id, t.name, t.publisher, t.pub_type, t.customer_id IS NOT NULL, t.edition, t.description,
		t.peer_reviewed, t.subjects, t.contributors`
	// SQLResourceSelected is true when the customer has resource r
	// selected: its title-level state, else its package's, else not
	// selected.
	SQLResourceSelected = `COALESCE(
		(SELECT cr.selected FROM customer_resources cr WHERE cr.customer_id = $1 AND cr.package_id = r.package_id AND cr.title_id = r.title_id),
		(SELECT cp.selected FROM customer_packages cp WHERE cp.customer_id = $1 AND cp.package_id = r.package_id), FALSE) = TRUE`
	// SQLSelectedTitleIDs lists the titles of which the customer has a
	// resource selected, as one set: the resources of its selected
	// packages less their title-level deselections, and its title-level
	// selections. Filtering a list of all titles by it is one set look-up
	// a title (a hashed semi-join on PostgreSQL), much cheaper than
	// testing SQLResourceSelected per title, above all on PostgreSQL
	// (BENCHMARKS.md).
	SQLSelectedTitleIDs = `SELECT r.title_id FROM customer_packages cp
		JOIN resources r ON r.package_id = cp.package_id
		LEFT JOIN customer_resources cr ON cr.customer_id = $1 AND cr.package_id = r.package_id AND cr.title_id = r.title_id
		WHERE cp.customer_id = $1 AND COALESCE(cr.selected, cp.selected) = TRUE
		UNION
		SELECT cr.title_id FROM customer_resources cr
		JOIN resources r ON r.package_id = cr.package_id AND r.title_id = cr.title_id
		WHERE cr.customer_id = $1 AND cr.selected = TRUE`
)

// sqlTitleHead reads the customer's root proxy (no row: no such customer)
// with the title $2 (a NULL id when the customer may not see it) and its
// identifiers as JSON.
func (s *Store) sqlTitleHead() string {
	return `SELECT c.root_proxy, t.id, COALESCE(t.name, ''), COALESCE(t.publisher, ''), COALESCE(t.pub_type, 0),
		t.customer_id IS NOT NULL, COALESCE(t.edition, ''), COALESCE(t.description, ''), COALESCE(t.peer_reviewed, FALSE),
		COALESCE(t.subjects, ''), COALESCE(t.contributors, ''), ` + s.d.IdentifierTriplesJSON("$2") + `
		FROM customers c LEFT JOIN titles t ON t.id = $2 AND ` + sqlTitleVisible + `
		WHERE c.id = $1`
}

// Title returns a title with all its resources in the customer's context:
// the customer's root proxy with the title and its identifiers, then its
// resources, in one round trip on PostgreSQL (and one for the versions
// the packages' facts are kept at). (One statement that joins them
// repeats the title's columns on every resource row, and costs as much
// as the two.)
func (s *Store) Title(ctx context.Context, custID string, titleID int64) (kb.Title, error) {
	managed, cf, err := s.facts(ctx, custID)
	if err != nil {
		return kb.Title{}, err
	}
	res := s.e.Read().Batch(ctx,
		Stmt{s.sqlTitleHead(), []any{custID, titleID}},
		Stmt{s.sqlResourceRows(false), []any{custID, []int64{titleID}}})
	defer res.Close()
	rows, err := res.Query()
	if err != nil {
		return kb.Title{}, fmt.Errorf("title %d: %w", titleID, err)
	}
	var root string
	var id *int64
	var identifiers *string
	var head titleScan
	dest := append([]any{&root}, head.dest()...)
	dest[1] = &id
	dest = append(dest, &identifiers)
	found := rows.Next()
	if found {
		err = rows.Scan(dest...)
	}
	rows.Close()
	if err == nil {
		err = rows.Err()
	}
	switch {
	case err != nil:
		return kb.Title{}, fmt.Errorf("title %d: %w", titleID, err)
	case !found:
		return kb.Title{}, kb.NotFound("Customer")
	case id == nil:
		return kb.Title{}, kb.NotFound("Title")
	}
	head.t.ID = *id
	t, err := head.title()
	if err != nil {
		return kb.Title{}, err
	}
	if t.Identifiers, err = DecodeIdentifiers(str(identifiers)); err != nil {
		return kb.Title{}, fmt.Errorf("title %d identifiers: %w", t.ID, err)
	}
	if t.Identifiers == nil {
		t.Identifiers = []kb.Identifier{}
	}
	ts := []kb.Title{t}
	if err := readResourceRows(res, ts, root, managed, cf); err != nil {
		return kb.Title{}, err
	}
	return ts[0], nil
}

// Resource returns a title with only its resource in the package.
func (s *Store) Resource(ctx context.Context, custID string, vendorID, packageID, titleID int64) (kb.Title, error) {
	root, err := s.RootProxy(ctx, custID)
	if err != nil {
		return kb.Title{}, err
	}
	if _, err := s.PackageOf(ctx, custID, root, vendorID, packageID); err != nil {
		return kb.Title{}, err
	}
	t, err := s.title(ctx, custID, root, titleID, packageID)
	if err == nil && len(t.Resources) == 0 {
		return kb.Title{}, kb.NotFound("Title")
	}
	return t, err
}

// title returns a title the customer may see with its resources in
// packageID (all of them for 0).
func (s *Store) title(ctx context.Context, custID, root string, titleID, packageID int64) (kb.Title, error) {
	ts, err := s.visibleTitleRows(ctx, custID, []int64{titleID})
	if err != nil {
		return kb.Title{}, fmt.Errorf("title %d: %w", titleID, err)
	}
	if len(ts) == 0 {
		return kb.Title{}, kb.NotFound("Title")
	}
	if err := s.CompleteTitles(ctx, custID, root, ts, packageID); err != nil {
		return kb.Title{}, err
	}
	return ts[0], nil
}

// titleScan holds the columns SQLTitleColumns as scanned.
type titleScan struct {
	t                      kb.Title
	pt                     int
	subjects, contributors string
}

// dest returns the scan destinations of the columns.
func (x *titleScan) dest() []any {
	t := &x.t
	return []any{&t.ID, &t.Name, &t.Publisher, &x.pt, &t.IsCustom, &t.Edition, &t.Description,
		&t.PeerReviewed, &x.subjects, &x.contributors}
}

// title decodes the scanned columns: the title with empty lists of
// identifiers and resources.
func (x *titleScan) title() (kb.Title, error) {
	t := x.t
	t.PubType = kb.ResourceType(x.pt)
	if err := DecodeTitleLists(&t, x.subjects, x.contributors); err != nil {
		return t, err
	}
	t.Identifiers, t.Resources = []kb.Identifier{}, []kb.Resource{}
	return t, nil
}

// ScanTitles reads and closes rows of SQLTitleColumns.
func ScanTitles(rows Rows) ([]kb.Title, error) {
	defer rows.Close()
	ts := []kb.Title{}
	var x titleScan
	dest := x.dest()
	for rows.Next() {
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		t, err := x.title()
		if err != nil {
			return nil, err
		}
		ts = append(ts, t)
	}
	return ts, rows.Err()
}

// sqlTitleIdentifiers reads the identifiers of the titles whose ids are in
// the array $1.
func (s *Store) sqlTitleIdentifiers() string {
	return `SELECT title_id, type, subtype, value FROM title_identifiers WHERE ` + s.d.InIDs("title_id", "$1")
}

// CompleteTitles loads the identifiers and the resources (all, or only
// those in packageID) of the titles, in one round trip on PostgreSQL for
// the whole page (and one for the versions the packages' facts are kept
// at); root is the customer's root proxy.
func (s *Store) CompleteTitles(ctx context.Context, custID, root string, ts []kb.Title, packageID int64) error {
	if len(ts) == 0 {
		return nil
	}
	kbv, cv, err := s.versionsOf(ctx, custID)
	if err != nil {
		return err
	}
	return s.completeTitlesAt(ctx, custID, root, ts, packageID, kbv, cv)
}

// completeTitlesAt is CompleteTitles with the knowledge base's and the
// customer's versions read before.
func (s *Store) completeTitlesAt(ctx context.Context, custID, root string, ts []kb.Title, packageID, kbv, cv int64) error {
	if len(ts) == 0 {
		return nil
	}
	ids := make([]int64, len(ts))
	for i := range ts {
		ids[i] = ts[i].ID
	}
	managed, cf, err := s.factsAt(ctx, custID, kbv, cv)
	if err != nil {
		return err
	}
	resources := Stmt{s.sqlResourceRows(false), []any{custID, ids}}
	if packageID != 0 {
		resources = Stmt{s.sqlResourceRows(true), []any{custID, ids, packageID}}
	}
	res := s.e.Read().Batch(ctx, Stmt{s.sqlTitleIdentifiers(), []any{ids}}, resources)
	defer res.Close()
	if err := readIdentifiers(res, ts); err != nil {
		return err
	}
	return readResourceRows(res, ts, root, managed, cf)
}

// byID indexes titles by id.
func byID(ts []kb.Title) map[int64]*kb.Title {
	m := make(map[int64]*kb.Title, len(ts))
	for i := range ts {
		m[ts[i].ID] = &ts[i]
	}
	return m
}

// readIdentifiers reads the batch's next result, sqlTitleIdentifiers of
// the titles, into them, each title's in type, subtype, then value (byte)
// order.
func readIdentifiers(res Results, ts []kb.Title) error {
	rows, err := res.Query()
	if err != nil {
		return fmt.Errorf("title identifiers: %w", err)
	}
	defer rows.Close()
	titles := byID(ts)
	var tid int64
	var typ, sub int
	var value string
	for rows.Next() {
		if err := rows.Scan(&tid, &typ, &sub, &value); err != nil {
			return fmt.Errorf("title identifiers: %w", err)
		}
		if t := titles[tid]; t != nil {
			t.Identifiers = append(t.Identifiers, kb.Identifier{ID: value, Source: "ResourceIdentifier",
				Type: kb.IdentifierType(typ), Subtype: kb.IdentifierSubtype(sub)})
		}
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("title identifiers: %w", err)
	}
	for _, t := range titles {
		slices.SortFunc(t.Identifiers, func(a, b kb.Identifier) int {
			return cmp.Or(cmp.Compare(a.Type, b.Type), cmp.Compare(a.Subtype, b.Subtype), cmp.Compare(a.ID, b.ID))
		})
	}
	return nil
}
