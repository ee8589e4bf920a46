package kbsql

import (
	"context"
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
)

// UpdateResource sets the customer's state of a title in a package,
// replacing all earlier title-level customisation (rule 6 of the
// specification). Deselecting a title of a custom package removes it from
// the package, and deletes a custom title left in no package.
func (s *Store) UpdateResource(ctx context.Context, custID string, vendorID, packageID, titleID int64, u kb.ResourceUpdate) error {
	return s.e.Write(ctx, custID, func(tx Tx) error {
		p, err := packageForWrite(ctx, tx, custID, vendorID, packageID)
		if err != nil {
			return err
		}
		var customTitle, inPackage bool
		err = tx.QueryRow(ctx, `SELECT t.customer_id IS NOT NULL, EXISTS (SELECT 1 FROM resources WHERE package_id = $1 AND title_id = t.id)
			FROM titles t WHERE t.id = $2 AND (t.customer_id IS NULL OR t.customer_id = $3)`, packageID, titleID, custID).Scan(&customTitle, &inPackage)
		if NoRows(err) {
			return kb.NotFound("Title")
		}
		if err != nil {
			return fmt.Errorf("title %d: %w", titleID, err)
		}
		c, err := beginChange(ctx, tx, custID, packageID, fmt.Sprintf("resource %d/%d", packageID, titleID), "update", resourceState(custID, packageID, titleID))
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
		if err := kb.CheckTitleSelection(packageID, p.Type, p.Selected, true); err != nil {
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
				if _, err := tx.Exec(ctx, `UPDATE resources SET url = $1 WHERE package_id = $2 AND title_id = $3`,
					u.Title.URL, packageID, titleID); err != nil {
					return fmt.Errorf("update resource %d/%d: %w", packageID, titleID, err)
				}
			}
		}
		return c.commit(ctx, tx)
	})
}

// deselectResource deselects a title in a package: out of a custom
// package, or with its title-level customisation cleared in a managed one.
func deselectResource(ctx context.Context, tx Tx, custID string, p writePackage, titleID int64, customTitle bool) error {
	if p.Custom {
		if _, err := tx.Exec(ctx, `DELETE FROM resources WHERE package_id = $1 AND title_id = $2`, p.ID, titleID); err != nil {
			return fmt.Errorf("remove title %d from package %d: %w", titleID, p.ID, err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM customer_resources WHERE customer_id = $1 AND package_id = $2 AND title_id = $3`,
			custID, p.ID, titleID); err != nil {
			return fmt.Errorf("remove title %d from package %d: %w", titleID, p.ID, err)
		}
		if _, err := tx.Exec(ctx, `UPDATE packages SET title_count = title_count - 1 WHERE id = $1`, p.ID); err != nil {
			return fmt.Errorf("count titles of package %d: %w", p.ID, err)
		}
		if err := BumpTitles(ctx, tx, titleID); err != nil {
			return err
		}
		if customTitle {
			return RemoveOrphanTitles(ctx, tx, custID, []int64{titleID})
		}
		return nil
	}
	if err := kb.CheckTitleSelection(p.ID, p.Type, p.Selected, false); err != nil {
		return err
	}
	if !p.Selected {
		if _, err := tx.Exec(ctx, `DELETE FROM customer_resources WHERE customer_id = $1 AND package_id = $2 AND title_id = $3`,
			custID, p.ID, titleID); err != nil {
			return fmt.Errorf("deselect resource %d/%d: %w", p.ID, titleID, err)
		}
		return nil
	}
	if _, err := tx.Exec(ctx, `INSERT INTO customer_resources(customer_id, package_id, title_id, selected) VALUES ($1, $2, $3, FALSE)
		ON CONFLICT (customer_id, package_id, title_id) DO UPDATE SET selected = FALSE, hidden = FALSE, custom_coverage = '',
			coverage_statement = '', embargo_unit = 0, embargo_value = 0, proxy_id = NULL, udf = ''`, custID, p.ID, titleID); err != nil {
		return fmt.Errorf("deselect resource %d/%d: %w", p.ID, titleID, err)
	}
	return nil
}

// setResourceState writes a selected title's customisation, replacing the
// earlier one.
func setResourceState(ctx context.Context, tx Tx, custID string, p writePackage, titleID int64, u *kb.ResourceUpdate) error {
	if err := kb.CheckCoverageList(u.CustomCoverage); err != nil {
		return err
	}
	proxy, err := proxyColumn(ctx, tx, custID, u.Proxy)
	if err != nil {
		return err
	}
	var sel *bool
	if !p.Selected { // else selected through its package: NULL
		yes := true
		sel = &yes
	}
	e := kb.StoredEmbargo(u.CustomEmbargo)
	if _, err := tx.Exec(ctx, `INSERT INTO customer_resources(customer_id, package_id, title_id, selected, hidden, custom_coverage,
			coverage_statement, embargo_unit, embargo_value, proxy_id, udf)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
		ON CONFLICT (customer_id, package_id, title_id) DO UPDATE SET selected = excluded.selected, hidden = excluded.hidden,
			custom_coverage = excluded.custom_coverage, coverage_statement = excluded.coverage_statement,
			embargo_unit = excluded.embargo_unit, embargo_value = excluded.embargo_value, proxy_id = excluded.proxy_id, udf = excluded.udf`,
		custID, p.ID, titleID, sel, u.Hidden, CustomCoverageJSON(u.CustomCoverage), u.CoverageStatement, int(e.Unit), e.Value, proxy,
		UserDefinedJSON(u.UserDefined)); err != nil {
		return fmt.Errorf("update resource %d/%d: %w", p.ID, titleID, err)
	}
	return nil
}

// addToCustomPackage puts a title into a custom package.
func addToCustomPackage(ctx context.Context, tx Tx, packageID, titleID int64, f *kb.TitleFields) error {
	url := ""
	if f != nil {
		url = f.URL
	}
	// On PostgreSQL the title was read under the customer's lock only: an
	// import committing meanwhile may have deleted it (an orphan title),
	// which inserts nothing here, or be deleting it, which the foreign key
	// reports once that import commits. Either way the title is gone.
	n, err := tx.Exec(ctx, `INSERT INTO resources(package_id, title_id, sort_name, pub_type, url)
		SELECT $1, id, sort_name, pub_type, $2 FROM titles WHERE id = $3`, packageID, url, titleID)
	if tx.Dialect().IsForeignKeyViolation(err) || (err == nil && n == 0) {
		return kb.NotFound("Title")
	}
	if err != nil {
		return fmt.Errorf("add title %d to package %d: %w", titleID, packageID, err)
	}
	if _, err := tx.Exec(ctx, `UPDATE packages SET title_count = title_count + 1 WHERE id = $1`, packageID); err != nil {
		return fmt.Errorf("count titles of package %d: %w", packageID, err)
	}
	return BumpTitles(ctx, tx, titleID)
}

// checkCustomTitleName refuses a name that another custom title in the
// package has.
func checkCustomTitleName(ctx context.Context, tx Tx, custID string, packageID int64, name string, except int64) error {
	taken, err := exists(ctx, tx, `SELECT 1 FROM resources r JOIN titles t ON t.id = r.title_id
		WHERE r.package_id = $1 AND t.customer_id = $2 AND t.sort_name = $3 AND t.id <> $4`,
		packageID, custID, kb.Fold(name), except)
	if err != nil {
		return fmt.Errorf("check title name: %w", err)
	}
	if taken {
		return kb.Errorf(kb.CodeInvalid, "Custom Title with the provided name already exists")
	}
	return nil
}

// CreateCustomTitle creates a custom title in one of the customer's custom
// packages; it is searchable at once.
func (s *Store) CreateCustomTitle(ctx context.Context, custID string, vendorID, packageID int64, ct kb.CustomTitle) (int64, error) {
	var id int64
	err := s.e.Write(ctx, custID, func(tx Tx) error {
		p, err := packageForWrite(ctx, tx, custID, vendorID, packageID)
		if err != nil && err != errNoPackage {
			return err
		}
		// A package the vendor does not have takes no custom title,
		// as a managed package takes none (the hosted service answers
		// both alike).
		if err := kb.CheckNewCustomTitle(err == nil && p.Custom, ct.Name); err != nil {
			return err
		}
		if err := checkCustomTitleName(ctx, tx, custID, packageID, ct.Name, 0); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, `INSERT INTO titles(name, sort_name, pub_type, customer_id) VALUES ($1, $2, $3, $4) RETURNING id`,
			ct.Name, kb.Fold(ct.Name), int(ct.PubType), custID).Scan(&id); err != nil {
			return fmt.Errorf("create title %q: %w", ct.Name, err)
		}
		if err := writeTitleFields(ctx, tx, id, &ct.TitleFields); err != nil {
			return err
		}
		if err := addToCustomPackage(ctx, tx, packageID, id, &ct.TitleFields); err != nil {
			return err
		}
		c, err := beginChange(ctx, tx, custID, packageID, fmt.Sprintf("resource %d/%d", packageID, id), "create", resourceState(custID, packageID, id))
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

// writeTitleFields sets a custom title's fields and search index entry,
// and its contributors and identifiers when f has them (nil keeps them:
// the specification's title update body has neither). Its resources copy
// its folded name and type.
func writeTitleFields(ctx context.Context, tx Tx, id int64, f *kb.TitleFields) error {
	if err := kb.CheckTitleFields(f); err != nil {
		return err
	}
	if _, err := tx.Exec(ctx, `UPDATE titles SET name = $1, sort_name = $2, publisher = $3, sort_publisher = $4, pub_type = $5,
		edition = $6, description = $7, peer_reviewed = $8 WHERE id = $9`,
		f.Name, kb.Fold(f.Name), f.Publisher, kb.Fold(f.Publisher), int(f.PubType), f.Edition, f.Description,
		f.PeerReviewed, id); err != nil {
		return fmt.Errorf("update title %d: %w", id, err)
	}
	if f.Contributors != nil {
		contributors := PairsJSON(f.Contributors, func(c kb.Contributor) [2]string { return [2]string{c.Type, c.Name} })
		if _, err := tx.Exec(ctx, `UPDATE titles SET contributors = $1 WHERE id = $2`, contributors, id); err != nil {
			return fmt.Errorf("update title %d: %w", id, err)
		}
	}
	if _, err := tx.Exec(ctx, `UPDATE resources SET sort_name = $1, pub_type = $2 WHERE title_id = $3`,
		kb.Fold(f.Name), int(f.PubType), id); err != nil {
		return fmt.Errorf("update resources of title %d: %w", id, err)
	}
	if err := BumpTitles(ctx, tx, id); err != nil {
		return err
	}
	if f.Identifiers == nil {
		return nil // the update leaves the identifiers as they are
	}
	if _, err := tx.Exec(ctx, `DELETE FROM title_identifiers WHERE title_id = $1`, id); err != nil {
		return fmt.Errorf("replace identifiers of title %d: %w", id, err)
	}
	for _, ident := range f.Identifiers {
		norm, valid := IdentifierNorm(ident)
		if _, err := tx.Exec(ctx, `INSERT INTO title_identifiers(title_id, type, subtype, value, norm, valid) VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT DO NOTHING`, id, int(ident.Type), int(ident.Subtype), ident.ID, norm, valid); err != nil {
			return fmt.Errorf("add identifiers of title %d: %w", id, err)
		}
	}
	return nil
}
