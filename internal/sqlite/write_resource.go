package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// UpdateResource sets the customer's state of a title in a package,
// replacing all earlier title-level customisation (rule 6 of the
// specification). Deselecting a title of a custom package removes it from
// the package, and deletes a custom title left in no package.
func (s *Store) UpdateResource(ctx context.Context, custID string, vendorID, packageID, titleID int64, u kb.ResourceUpdate) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		p, err := packageForWrite(ctx, tx, custID, vendorID, packageID)
		if err != nil {
			return err
		}
		var owner sql.NullString
		var inPackage bool
		err = tx.QueryRowContext(ctx, `SELECT t.customer_id, EXISTS (SELECT 1 FROM resources WHERE package_id = ? AND title_id = t.id)
			FROM titles t WHERE t.id = ? AND (t.customer_id IS NULL OR t.customer_id = ?)`, packageID, titleID, custID).Scan(&owner, &inPackage)
		if errors.Is(err, sql.ErrNoRows) {
			return kb.NotFound("Title")
		}
		if err != nil {
			return fmt.Errorf("title %d: %w", titleID, err)
		}
		customTitle := owner.Valid
		object := fmt.Sprintf("resource %d/%d", packageID, titleID)
		c, err := beginChange(ctx, tx, custID, object, "update", qResourceState, custID, packageID, titleID)
		if err != nil {
			return err
		}
		if !inPackage {
			// A title is added to a custom package by selecting it there.
			if !p.Custom || !u.Selected {
				return kb.NotFound("Title")
			}
			if err := addToCustomPackage(ctx, tx, p.ID, titleID, u.Title); err != nil {
				return err
			}
			c.action = "create"
		}
		if !u.Selected {
			if err := deselectResource(ctx, tx, custID, p, titleID, customTitle); err != nil {
				return err
			}
			return c.commit(ctx, tx)
		}
		if err := kbsql.CheckTitleSelection(packageID, p.Type, p.Selected, true); err != nil {
			return err
		}
		if err := setResourceState(ctx, tx, custID, p, titleID, &u); err != nil {
			return err
		}
		if u.Title != nil {
			if customTitle {
				if err := checkCustomTitleName(ctx, tx, custID, packageID, u.Title.Name, titleID); err != nil {
					return err
				}
				if err := writeTitleFields(ctx, tx, titleID, u.Title); err != nil {
					return err
				}
			}
			if p.Custom {
				if _, err := tx.ExecContext(ctx, `UPDATE resources SET url = ? WHERE package_id = ? AND title_id = ?`,
					u.Title.URL, packageID, titleID); err != nil {
					return fmt.Errorf("update resource: %w", err)
				}
			}
		}
		return c.commit(ctx, tx)
	})
}

// deselectResource deselects a title in a package: out of a custom
// package, or with its title-level customisation cleared in a managed one.
func deselectResource(ctx context.Context, tx *sql.Tx, custID string, p kbsql.WritePackage, titleID int64, customTitle bool) error {
	if p.Custom {
		for _, q := range []string{`DELETE FROM resources WHERE package_id = :p AND title_id = :t`,
			`DELETE FROM customer_resources WHERE customer_id = :c AND package_id = :p AND title_id = :t`} {
			if _, err := tx.ExecContext(ctx, q, sql.Named("p", p.ID), sql.Named("t", titleID), sql.Named("c", custID)); err != nil {
				return fmt.Errorf("remove title %d: %w", titleID, err)
			}
		}
		if _, err := tx.ExecContext(ctx, `UPDATE packages SET title_count = title_count - 1 WHERE id = ?`, p.ID); err != nil {
			return fmt.Errorf("count titles: %w", err)
		}
		if customTitle {
			return deleteTitleIfOrphan(ctx, tx, titleID, custID)
		}
		return nil
	}
	if err := kbsql.CheckTitleSelection(p.ID, p.Type, p.Selected, false); err != nil {
		return err
	}
	if !p.Selected {
		_, err := tx.ExecContext(ctx, `DELETE FROM customer_resources WHERE customer_id = ? AND package_id = ? AND title_id = ?`, custID, p.ID, titleID)
		return err
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO customer_resources(customer_id, package_id, title_id, selected) VALUES (?, ?, ?, 0)
		ON CONFLICT (customer_id, package_id, title_id) DO UPDATE SET selected = 0, hidden = 0, custom_coverage = '',
			coverage_statement = '', embargo_unit = 0, embargo_value = 0, proxy_id = NULL, udf = ''`, custID, p.ID, titleID)
	return err
}

// setResourceState writes a selected title's customisation, replacing the
// earlier one.
func setResourceState(ctx context.Context, tx *sql.Tx, custID string, p kbsql.WritePackage, titleID int64, u *kb.ResourceUpdate) error {
	if err := kb.CheckCoverageList(u.CustomCoverage); err != nil {
		return err
	}
	proxy, err := proxyColumn(ctx, tx, custID, u.Proxy)
	if err != nil {
		return err
	}
	var sel any = 1
	if p.Selected {
		sel = nil // selected through its package
	}
	coverage := kbsql.CustomCoverageJSON(u.CustomCoverage)
	udf := kbsql.UserDefinedJSON(u.UserDefined)
	eu, ev := kbsql.CustomEmbargo(u.CustomEmbargo)
	_, err = tx.ExecContext(ctx, `INSERT INTO customer_resources(customer_id, package_id, title_id, selected, hidden, custom_coverage,
			coverage_statement, embargo_unit, embargo_value, proxy_id, udf)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
		ON CONFLICT (customer_id, package_id, title_id) DO UPDATE SET selected = excluded.selected, hidden = excluded.hidden,
			custom_coverage = excluded.custom_coverage, coverage_statement = excluded.coverage_statement,
			embargo_unit = excluded.embargo_unit, embargo_value = excluded.embargo_value, proxy_id = excluded.proxy_id, udf = excluded.udf`,
		custID, p.ID, titleID, sel, boolInt(u.Hidden), coverage, u.CoverageStatement, int(eu), ev, proxy, udf)
	if err != nil {
		return fmt.Errorf("update resource: %w", err)
	}
	return nil
}

// addToCustomPackage puts a title into a custom package.
func addToCustomPackage(ctx context.Context, tx *sql.Tx, packageID, titleID int64, f *kb.TitleFields) error {
	url := ""
	if f != nil {
		url = f.URL
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO resources(package_id, title_id, sort_name, pub_type, url)
		SELECT ?, id, sort_name, pub_type, ? FROM titles WHERE id = ?`, packageID, url, titleID); err != nil {
		return fmt.Errorf("add title %d: %w", titleID, err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE packages SET title_count = title_count + 1 WHERE id = ?`, packageID); err != nil {
		return fmt.Errorf("count titles: %w", err)
	}
	return nil
}

// checkCustomTitleName refuses a name that another custom title in the
// package has.
func checkCustomTitleName(ctx context.Context, tx *sql.Tx, custID string, packageID int64, name string, except int64) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM resources r JOIN titles t ON t.id = r.title_id
		WHERE r.package_id = ? AND t.customer_id = ? AND t.sort_name = ? AND t.id <> ?`,
		packageID, custID, kbsql.Fold(name), except).Scan(&n); err != nil {
		return fmt.Errorf("check title name: %w", err)
	}
	if n > 0 {
		return kb.Errorf(kb.CodeInvalid, "Custom Title with the provided name already exists")
	}
	return nil
}

// CreateCustomTitle creates a custom title in one of the customer's custom
// packages; it is searchable at once.
func (s *Store) CreateCustomTitle(ctx context.Context, custID string, vendorID, packageID int64, ct kb.CustomTitle) (int64, error) {
	var id int64
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		p, err := packageForWrite(ctx, tx, custID, vendorID, packageID)
		if err != nil {
			return err
		}
		if err := kbsql.CheckNewCustomTitle(p.Custom, ct.Name); err != nil {
			return err
		}
		if err := checkCustomTitleName(ctx, tx, custID, packageID, ct.Name, 0); err != nil {
			return err
		}
		r, err := tx.ExecContext(ctx, `INSERT INTO titles(name, sort_name, pub_type, customer_id) VALUES (?, ?, ?, ?)`,
			ct.Name, kbsql.Fold(ct.Name), int(ct.PubType), custID)
		if err != nil {
			return fmt.Errorf("create title: %w", err)
		}
		id, _ = r.LastInsertId()
		if err := writeTitleFields(ctx, tx, id, &ct.TitleFields); err != nil {
			return err
		}
		if err := addToCustomPackage(ctx, tx, packageID, id, &ct.TitleFields); err != nil {
			return err
		}
		c, err := beginChange(ctx, tx, custID, fmt.Sprintf("resource %d/%d", packageID, id), "create", qResourceState, custID, packageID, id)
		if err != nil {
			return err
		}
		u := kb.ResourceUpdate{Selected: true, CustomCoverage: ct.CustomCoverage, CoverageStatement: ct.CoverageStatement,
			CustomEmbargo: ct.CustomEmbargo, UserDefined: ct.UserDefined}
		if err := setResourceState(ctx, tx, custID, p, id, &u); err != nil {
			return err
		}
		return c.commit(ctx, tx)
	})
	if err != nil {
		return 0, err
	}
	return id, nil
}

// writeTitleFields sets a custom title's fields and index entries, and its
// contributors and identifiers when f has them (nil keeps them: the
// specification's title update body has neither).
func writeTitleFields(ctx context.Context, tx *sql.Tx, id int64, f *kb.TitleFields) error {
	if _, err := tx.ExecContext(ctx, `UPDATE titles SET name = ?, sort_name = ?, publisher = ?, sort_publisher = ?, pub_type = ?,
		edition = ?, description = ?, peer_reviewed = ? WHERE id = ?`,
		f.Name, kbsql.Fold(f.Name), f.Publisher, kbsql.Fold(f.Publisher), int(f.PubType), f.Edition, f.Description,
		boolInt(f.PeerReviewed), id); err != nil {
		return fmt.Errorf("update title %d: %w", id, err)
	}
	if f.Contributors != nil {
		contributors := kbsql.PairsJSON(f.Contributors, func(c kb.Contributor) [2]string { return [2]string{c.Type, c.Name} })
		if _, err := tx.ExecContext(ctx, `UPDATE titles SET contributors = ? WHERE id = ?`, contributors, id); err != nil {
			return fmt.Errorf("update title %d: %w", id, err)
		}
	}
	if _, err := tx.ExecContext(ctx, `UPDATE resources SET sort_name = ?, pub_type = ? WHERE title_id = ?`, kbsql.Fold(f.Name), int(f.PubType), id); err != nil {
		return fmt.Errorf("update title %d: %w", id, err)
	}
	if err := unindexTitle(ctx, tx, id); err != nil {
		return err
	}
	for _, q := range []string{`INSERT INTO title_fts(rowid, name, publisher, subjects) VALUES (?, ?, ?, '')`,
		`INSERT INTO title_tri(rowid, name, publisher) VALUES (?, ?, ?)`} {
		if _, err := tx.ExecContext(ctx, q, id, f.Name, f.Publisher); err != nil {
			return fmt.Errorf("index title %d: %w", id, err)
		}
	}
	if f.Identifiers == nil {
		return nil // the update leaves the identifiers as they are
	}
	if _, err := tx.ExecContext(ctx, `DELETE FROM title_identifiers WHERE title_id = ?`, id); err != nil {
		return fmt.Errorf("replace identifiers of %d: %w", id, err)
	}
	for _, i := range f.Identifiers {
		norm, valid := kbsql.IdentifierNorm(i)
		if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO title_identifiers(title_id, type, subtype, value, norm, valid) VALUES (?, ?, ?, ?, ?, ?)`,
			id, int(i.Type), int(i.Subtype), i.ID, norm, boolInt(valid)); err != nil {
			return fmt.Errorf("add identifier: %w", err)
		}
	}
	return nil
}
