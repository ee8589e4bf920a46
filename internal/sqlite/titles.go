package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

const (
	sqlTitleVisible = `(t.customer_id IS NULL OR t.customer_id = :cust)`
	sqlTitleColumns = `t.id, t.name, t.publisher, t.pub_type, t.customer_id IS NOT NULL, t.edition, t.description,
		t.peer_reviewed, t.subjects, t.contributors`
	// sqlResourceSelected is true when the customer has resource r selected:
	// its title-level state, else its package's, else not selected.
	sqlResourceSelected = `COALESCE(
		(SELECT cr.selected FROM customer_resources cr WHERE cr.customer_id = :cust AND cr.package_id = r.package_id AND cr.title_id = r.title_id),
		(SELECT cp.selected FROM customer_packages cp WHERE cp.customer_id = :cust AND cp.package_id = r.package_id), 0) = 1`
)

// Titles lists titles in the customer's context.
func (s *Store) Titles(ctx context.Context, custID string, q kb.TitleQuery) (kb.TitleList, error) {
	list := kb.TitleList{Titles: []kb.Title{}}
	root, err := s.rootProxy(ctx, custID)
	if err != nil {
		return list, err
	}
	total := -1 // unknown until counted
	if q.PackageID != 0 {
		p, err := s.pkg(ctx, custID, root, q.VendorID, q.PackageID)
		if err != nil {
			return list, err
		}
		// Without a search or a type filter, the package's own counts are
		// the total: no count over a package of a million titles per page.
		if strings.TrimSpace(q.Search) == "" && q.ResourceType == kb.ResourceAll {
			switch q.Selection {
			case kb.SelectionAll:
				total = p.TitleCount
			case kb.SelectionSelected:
				total = p.SelectedCount
			case kb.SelectionNotSelected:
				total = p.TitleCount - p.SelectedCount
			case kb.SelectionOrderedThroughOperator:
				total = 0
			}
		}
	}
	args := []any{sql.Named("cust", custID)}
	where := []string{sqlTitleVisible}
	var from, order string
	search := strings.TrimSpace(q.Search) != ""
	var m titleMatch
	if search {
		var err error
		if m, err = buildTitleMatch(q); err != nil {
			return list, err
		}
		if m.none {
			return list, nil
		}
		args = append(args, m.args...)
	}
	switch {
	case search && m.sub != "":
		from = `(` + m.sub + `) m JOIN titles t ON t.id = m.id`
		order = "m.rank, t.sort_name, t.id"
	case search:
		from = `titles t`
		where = append(where, m.cond)
		order = "t.sort_name, t.id"
	case q.PackageID != 0:
		from = `resources r JOIN titles t ON t.id = r.title_id`
		order = "r.sort_name, r.title_id"
	default:
		from = `titles t`
		order = "t.sort_name, t.id"
	}
	if q.OrderBy == kb.OrderName || (q.OrderBy == kb.OrderDefault && !search) {
		order = "t.sort_name, t.id"
		if !search && q.PackageID != 0 {
			order = "r.sort_name, r.title_id"
		}
	}
	if q.PackageID != 0 {
		if search {
			from += ` JOIN resources r ON r.title_id = t.id`
		}
		where = append(where, "r.package_id = :pkg")
		args = append(args, sql.Named("pkg", q.PackageID))
		if f := selectionFilter(q.Selection, sqlResourceSelected); f != "" {
			where = append(where, f)
		}
	} else if f := selectionFilter(q.Selection, `EXISTS (SELECT 1 FROM resources r WHERE r.title_id = t.id AND `+sqlResourceSelected+`)`); f != "" {
		where = append(where, f)
	}
	if q.ResourceType != kb.ResourceAll {
		where = append(where, "t.pub_type = :rt")
		args = append(args, sql.Named("rt", int(q.ResourceType)))
	}
	w := strings.Join(where, " AND ")
	if total >= 0 {
		list.Total = total
	} else if err := s.r.QueryRowContext(ctx, `SELECT count(*) FROM `+from+` WHERE `+w, args...).Scan(&list.Total); err != nil {
		return list, fmt.Errorf("count titles: %w", err)
	}
	if list.Total <= q.Page.Offset() {
		return list, nil
	}
	args = append(args, sql.Named("limit", q.Page.Count), sql.Named("offset", q.Page.Offset()))
	rows, err := s.r.QueryContext(ctx, `SELECT `+sqlTitleColumns+` FROM `+from+` WHERE `+w+` ORDER BY `+order+` LIMIT :limit OFFSET :offset`, args...)
	if err != nil {
		return list, fmt.Errorf("list titles: %w", err)
	}
	list.Titles, err = scanTitles(rows)
	if err != nil {
		return list, fmt.Errorf("list titles: %w", err)
	}
	if err := s.completeTitles(ctx, custID, root, list.Titles, q.PackageID); err != nil {
		return list, err
	}
	return list, nil
}

func scanTitles(rows *sql.Rows) ([]kb.Title, error) {
	defer rows.Close()
	ts := []kb.Title{}
	for rows.Next() {
		var t kb.Title
		var pt int
		var subjects, contributors string
		if err := rows.Scan(&t.ID, &t.Name, &t.Publisher, &pt, &t.IsCustom, &t.Edition, &t.Description,
			&t.PeerReviewed, &subjects, &contributors); err != nil {
			return nil, err
		}
		t.PubType = kb.ResourceType(pt)
		ps, err := decodePairs(subjects)
		if err != nil {
			return nil, fmt.Errorf("title %d subjects: %w", t.ID, err)
		}
		t.Subjects = make([]kb.Subject, len(ps))
		for i, p := range ps {
			t.Subjects[i] = kb.Subject{Type: p[0], Name: p[1]}
		}
		if ps, err = decodePairs(contributors); err != nil {
			return nil, fmt.Errorf("title %d contributors: %w", t.ID, err)
		}
		t.Contributors = make([]kb.Contributor, len(ps))
		for i, p := range ps {
			t.Contributors[i] = kb.Contributor{Type: p[0], Name: p[1]}
		}
		t.Identifiers, t.Resources = []kb.Identifier{}, []kb.Resource{}
		ts = append(ts, t)
	}
	return ts, rows.Err()
}

// decodeCoverage reads coverage stored as JSON [[begin,end],...]; "" is none.
func decodeCoverage(s string) ([]kb.Coverage, error) {
	ps, err := decodePairs(s)
	cs := make([]kb.Coverage, len(ps))
	for i, p := range ps {
		cs[i] = kb.Coverage{Begin: p[0], End: p[1]}
	}
	return cs, err
}

func decodePairs(s string) ([][2]string, error) {
	if s == "" {
		return nil, nil
	}
	var ps [][2]string
	err := json.Unmarshal([]byte(s), &ps)
	return ps, err
}

// Title returns a title with all its resources in the customer's context.
func (s *Store) Title(ctx context.Context, custID string, titleID int64) (kb.Title, error) {
	root, err := s.rootProxy(ctx, custID)
	if err != nil {
		return kb.Title{}, err
	}
	return s.title(ctx, custID, root, titleID, 0)
}

// Resource returns a title with only its resource in the package.
func (s *Store) Resource(ctx context.Context, custID string, vendorID, packageID, titleID int64) (kb.Title, error) {
	root, err := s.rootProxy(ctx, custID)
	if err != nil {
		return kb.Title{}, err
	}
	if _, err := s.pkg(ctx, custID, root, vendorID, packageID); err != nil {
		return kb.Title{}, err
	}
	t, err := s.title(ctx, custID, root, titleID, packageID)
	if err == nil && len(t.Resources) == 0 {
		return kb.Title{}, kb.NotFound("Title")
	}
	return t, err
}

func (s *Store) title(ctx context.Context, custID, root string, titleID, packageID int64) (kb.Title, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+sqlTitleColumns+` FROM titles t WHERE t.id = :id AND `+sqlTitleVisible,
		sql.Named("id", titleID), sql.Named("cust", custID))
	if err != nil {
		return kb.Title{}, fmt.Errorf("title %d: %w", titleID, err)
	}
	ts, err := scanTitles(rows)
	if err != nil {
		return kb.Title{}, fmt.Errorf("title %d: %w", titleID, err)
	}
	if len(ts) == 0 {
		return kb.Title{}, kb.NotFound("Title")
	}
	if err := s.completeTitles(ctx, custID, root, ts, packageID); err != nil {
		return kb.Title{}, err
	}
	return ts[0], nil
}

// completeTitles loads the identifiers and the resources (all, or only those
// in packageID) of the titles, two queries for the whole page; root is the
// customer's root proxy.
func (s *Store) completeTitles(ctx context.Context, custID, root string, ts []kb.Title, packageID int64) error {
	if len(ts) == 0 {
		return nil
	}
	ids := make([]int64, len(ts))
	byID := make(map[int64]*kb.Title, len(ts))
	for i := range ts {
		ids[i] = ts[i].ID
		byID[ts[i].ID] = &ts[i]
	}
	idsJSON, _ := json.Marshal(ids)
	rows, err := s.r.QueryContext(ctx, `SELECT title_id, type, subtype, value FROM title_identifiers
		WHERE title_id IN (SELECT value FROM json_each(?)) ORDER BY title_id, type, subtype, value`, string(idsJSON))
	if err != nil {
		return fmt.Errorf("title identifiers: %w", err)
	}
	for rows.Next() {
		var tid int64
		var id kb.Identifier
		var typ, sub int
		if err := rows.Scan(&tid, &typ, &sub, &id.ID); err != nil {
			rows.Close()
			return fmt.Errorf("title identifiers: %w", err)
		}
		id.Type, id.Subtype, id.Source = kb.IdentifierType(typ), kb.IdentifierSubtype(sub), "ResourceIdentifier"
		byID[tid].Identifiers = append(byID[tid].Identifiers, id)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("title identifiers: %w", err)
	}
	q := `SELECT r.title_id, r.package_id, p.name, p.package_type, p.customer_id IS NOT NULL, p.vendor_id, v.name,
		COALESCE(cr.selected, cp.selected, 0), COALESCE(cp.hidden, 0) OR COALESCE(cr.hidden, 0),
		r.coverage, r.embargo_unit, r.embargo_value, r.url, p.token_fact IS NOT NULL,
		COALESCE(cr.custom_coverage, ''), COALESCE(cr.coverage_statement, ''), COALESCE(cr.embargo_unit, 0), COALESCE(cr.embargo_value, 0),
		COALESCE(cr.udf, ''), cr.proxy_id, COALESCE(cp.proxy_id, ''),
		COALESCE((SELECT cv.proxy_id FROM customer_vendors cv WHERE cv.customer_id = :cust AND cv.vendor_id = p.vendor_id), '')
		FROM resources r JOIN packages p ON p.id = r.package_id JOIN vendors v ON v.id = p.vendor_id
		LEFT JOIN customer_packages cp ON cp.customer_id = :cust AND cp.package_id = r.package_id
		LEFT JOIN customer_resources cr ON cr.customer_id = :cust AND cr.package_id = r.package_id AND cr.title_id = r.title_id
		WHERE r.title_id IN (SELECT value FROM json_each(:ids)) AND ` + sqlPackageVisible
	args := []any{sql.Named("cust", custID), sql.Named("ids", string(idsJSON))}
	if packageID != 0 {
		q += ` AND r.package_id = :pkg`
		args = append(args, sql.Named("pkg", packageID))
	}
	rows, err = s.r.QueryContext(ctx, q+` ORDER BY r.title_id, p.sort_name, p.id`, args...)
	if err != nil {
		return fmt.Errorf("title resources: %w", err)
	}
	defer rows.Close()
	for rows.Next() {
		var r kb.Resource
		var pt, eu, ceu int
		var hidden bool
		var coverage, custom, udf, packageProxy, vendorProxy string
		var proxy sql.NullString
		if err := rows.Scan(&r.TitleID, &r.PackageID, &r.PackageName, &pt, &r.IsPackageCustom, &r.VendorID, &r.VendorName,
			&r.IsSelected, &hidden, &coverage, &eu, &r.ManagedEmbargo.Value, &r.URL, &r.IsTokenNeeded,
			&custom, &r.CoverageStatement, &ceu, &r.CustomEmbargo.Value, &udf, &proxy, &packageProxy, &vendorProxy); err != nil {
			return fmt.Errorf("title resources: %w", err)
		}
		r.PackageType = kb.PackageType(pt)
		r.Visibility = visibility(hidden)
		r.ManagedEmbargo.Unit, r.CustomEmbargo.Unit = kb.EmbargoUnit(eu), kb.EmbargoUnit(ceu)
		r.Proxy = effectiveProxy(proxy, packageProxy, vendorProxy, root)
		if r.ManagedCoverage, err = decodeCoverage(coverage); err != nil {
			return fmt.Errorf("title %d coverage: %w", r.TitleID, err)
		}
		kb.SortCoverage(r.ManagedCoverage)
		if r.CustomCoverage, err = decodeCoverage(custom); err != nil {
			return fmt.Errorf("title %d custom coverage: %w", r.TitleID, err)
		}
		if udf != "" {
			if err := json.Unmarshal([]byte(udf), &r.UserDefined); err != nil {
				return fmt.Errorf("title %d user-defined fields: %w", r.TitleID, err)
			}
		}
		t := byID[r.TitleID]
		t.Resources = append(t.Resources, r)
	}
	return rows.Err()
}

// SetPackageState records a customer's package-level selection and
// visibility: one row, whatever the package's size.
func (s *Store) SetPackageState(ctx context.Context, custID string, packageID int64, st kb.PackageState) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := checkPackage(ctx, tx, custID, packageID); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO customer_packages(customer_id, package_id, selected, hidden) VALUES (?, ?, ?, ?)
			ON CONFLICT (customer_id, package_id) DO UPDATE SET selected = excluded.selected, hidden = excluded.hidden`,
			custID, packageID, boolInt(st.Selected), boolInt(st.Hidden))
		if err != nil {
			return fmt.Errorf("set package state: %w", err)
		}
		return bumpVersion(ctx, tx, customerVersion(custID))
	})
}

// SetResourceState records a customer's title-level state in a package.
func (s *Store) SetResourceState(ctx context.Context, custID string, packageID, titleID int64, st kb.ResourceState) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if err := checkPackage(ctx, tx, custID, packageID); err != nil {
			return err
		}
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM resources WHERE package_id = ? AND title_id = ?`, packageID, titleID).Scan(&n); err != nil {
			return fmt.Errorf("set resource state: %w", err)
		}
		if n == 0 {
			return kb.NotFound("Title")
		}
		var sel any
		if st.Selected != nil {
			sel = boolInt(*st.Selected)
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO customer_resources(customer_id, package_id, title_id, selected, hidden) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (customer_id, package_id, title_id) DO UPDATE SET selected = excluded.selected, hidden = excluded.hidden`,
			custID, packageID, titleID, sel, boolInt(st.Hidden))
		if err != nil {
			return fmt.Errorf("set resource state: %w", err)
		}
		return bumpVersion(ctx, tx, customerVersion(custID))
	})
}

// checkPackage returns CodeNotFound unless the package exists and the
// customer may see it.
func checkPackage(ctx context.Context, tx *sql.Tx, custID string, packageID int64) error {
	var ok bool
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM packages p WHERE p.id = :id AND `+sqlPackageVisible,
		sql.Named("id", packageID), sql.Named("cust", custID)).Scan(&ok)
	if errors.Is(err, sql.ErrNoRows) {
		return kb.NotFound("Package")
	}
	if err != nil {
		return fmt.Errorf("package %d: %w", packageID, err)
	}
	return nil
}
