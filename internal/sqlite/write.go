package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// packageForWrite returns the package if the customer may see it and it
// belongs to the vendor: "Vendor not found" or "Package not found" else.
func packageForWrite(ctx context.Context, tx *sql.Tx, custID string, vendorID, packageID int64) (kbsql.WritePackage, error) {
	var p kbsql.WritePackage
	var typ int
	err := tx.QueryRowContext(ctx, `SELECT p.id, p.vendor_id, p.customer_id IS NOT NULL, p.package_type, p.token_fact IS NOT NULL,
		COALESCE(cp.selected, 0), p.title_count
		FROM packages p `+sqlJoinCP+` WHERE p.id = :id AND `+sqlPackageVisible,
		sql.Named("id", packageID), sql.Named("cust", custID)).Scan(&p.ID, &p.VendorID, &p.Custom, &typ, &p.Tokenable, &p.Selected, &p.TitleCount)
	p.Type = kb.PackageType(typ)
	if err == nil && p.VendorID == vendorID {
		return p, nil
	}
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return p, fmt.Errorf("package %d: %w", packageID, err)
	}
	if err := vendorForWrite(ctx, tx, custID, vendorID); err != nil {
		return p, err
	}
	return p, kb.NotFound("Package")
}

// vendorForWrite returns "Vendor not found" unless the customer may see the vendor.
func vendorForWrite(ctx context.Context, tx *sql.Tx, custID string, vendorID int64) error {
	var ok bool
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM vendors WHERE id = ? AND (customer_id IS NULL OR customer_id = ?)`, vendorID, custID).Scan(&ok)
	if errors.Is(err, sql.ErrNoRows) {
		return kb.NotFound("Vendor")
	}
	if err != nil {
		return fmt.Errorf("vendor %d: %w", vendorID, err)
	}
	return nil
}

// checkProxy returns "Invalid Proxy ID" unless id is the built-in "no
// proxy" or one of the customer's proxies.
func checkProxy(ctx context.Context, tx *sql.Tx, custID, id string) error {
	if id == kb.NoProxyID {
		return nil
	}
	var ok bool
	err := tx.QueryRowContext(ctx, `SELECT 1 FROM proxies WHERE customer_id = ? AND id = ?`, custID, id).Scan(&ok)
	if errors.Is(err, sql.ErrNoRows) {
		return kb.Errorf(kb.CodeInvalid, "Invalid Proxy ID")
	}
	if err != nil {
		return fmt.Errorf("proxy %q: %w", id, err)
	}
	return nil
}

// proxyColumn returns the value stored for a proxy setting: NULL when
// inherited, after checking that an explicit proxy exists.
func proxyColumn(ctx context.Context, tx *sql.Tx, custID string, p *kb.ProxyRef) (any, error) {
	if p == nil || p.Inherited {
		return nil, nil
	}
	id := p.ID
	if id == "" {
		id = kb.NoProxyID
	}
	if err := checkProxy(ctx, tx, custID, id); err != nil {
		return nil, err
	}
	return id, nil
}

// stateJSON returns the JSON object q selects (one column), or "" when it
// selects no row.
func stateJSON(ctx context.Context, tx *sql.Tx, q string, args ...any) (string, error) {
	var s string
	err := tx.QueryRowContext(ctx, q, args...).Scan(&s)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return s, err
}

// change records one change of a customer's holdings: the state before and
// after, read with the same query, so a change costs two small reads and
// one insert whatever the size of the object changed.
type change struct {
	custID, object, action string
	query                  string
	args                   []any
	before                 string
}

func beginChange(ctx context.Context, tx *sql.Tx, custID, object, action, query string, args ...any) (*change, error) {
	c := &change{custID: custID, object: object, action: action, query: query, args: args}
	var err error
	if query != "" {
		c.before, err = stateJSON(ctx, tx, query, args...)
	}
	return c, err
}

func (c *change) commit(ctx context.Context, tx *sql.Tx) error {
	after := ""
	if c.query != "" {
		var err error
		if after, err = stateJSON(ctx, tx, c.query, c.args...); err != nil {
			return fmt.Errorf("record change: %w", err)
		}
	}
	_, err := tx.ExecContext(ctx, `INSERT INTO changes(customer_id, at, key_id, object, action, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)`,
		c.custID, time.Now().UTC().Format(time.RFC3339Nano), kb.ActorFrom(ctx), c.object, c.action, c.before, after)
	if err != nil {
		return fmt.Errorf("record change: %w", err)
	}
	return bumpVersion(ctx, tx, kbsql.CustomerVersion(c.custID))
}

const (
	qVendorState  = `SELECT json_object('proxy', proxy_id, 'token', token_value) FROM customer_vendors WHERE customer_id = ? AND vendor_id = ?`
	qPackageState = `SELECT json_object('selected', selected, 'hidden', hidden, 'coverage', json_array(cov_begin, cov_end),
		'proxy', proxy_id, 'token', token_value, 'allowOperatorToAddTitles', allow_add,
		'titleExceptions', (SELECT count(*) FROM customer_resources cr WHERE cr.customer_id = cp.customer_id AND cr.package_id = cp.package_id))
		FROM customer_packages cp WHERE customer_id = ? AND package_id = ?`
	qResourceState = `SELECT json_object('selected', selected, 'hidden', hidden, 'coverage', json(CASE WHEN custom_coverage = '' THEN '[]' ELSE custom_coverage END),
		'coverageStatement', coverage_statement, 'embargo', json_array(embargo_unit, embargo_value), 'proxy', proxy_id,
		'userDefinedFields', json(CASE WHEN udf = '' THEN '[]' ELSE udf END))
		FROM customer_resources WHERE customer_id = ? AND package_id = ? AND title_id = ?`
	qRootState = `SELECT json_object('proxy', root_proxy, 'labels', json(CASE WHEN labels = '' THEN '[]' ELSE labels END)) FROM customers WHERE id = ?`
)

// UpdateVendor sets the customer's proxy and token value of a vendor.
func (s *Store) UpdateVendor(ctx context.Context, custID string, vendorID int64, u kb.VendorUpdate) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		var tokenable bool
		err := tx.QueryRowContext(ctx, `SELECT token_fact IS NOT NULL FROM vendors WHERE id = ? AND (customer_id IS NULL OR customer_id = ?)`,
			vendorID, custID).Scan(&tokenable)
		if errors.Is(err, sql.ErrNoRows) {
			return kb.NotFound("Vendor")
		}
		if err != nil {
			return fmt.Errorf("vendor %d: %w", vendorID, err)
		}
		if u.TokenValue != nil && !tokenable {
			return kb.Errorf(kb.CodeNotAllowed, "Vendor does not allow token")
		}
		proxy, err := proxyColumn(ctx, tx, custID, &u.Proxy)
		if err != nil {
			return err
		}
		c, err := beginChange(ctx, tx, custID, fmt.Sprintf("vendor %d", vendorID), "update", qVendorState, custID, vendorID)
		if err != nil {
			return err
		}
		token, keep := kbsql.TokenColumn(u.TokenValue)
		if _, err := tx.ExecContext(ctx, `INSERT INTO customer_vendors(customer_id, vendor_id, proxy_id, token_value) VALUES (?, ?, ?, ?)
			ON CONFLICT (customer_id, vendor_id) DO UPDATE SET proxy_id = excluded.proxy_id,
				token_value = CASE WHEN ? THEN customer_vendors.token_value ELSE excluded.token_value END`,
			custID, vendorID, proxy, token, keep); err != nil {
			return fmt.Errorf("update vendor %d: %w", vendorID, err)
		}
		return c.commit(ctx, tx)
	})
}

// UpdatePackage sets the customer's state of a package: one row of
// customer_packages, whatever the package's size. Deselecting a managed
// package deletes its package- and title-level customisation (cost: the
// number of title-level exceptions); deselecting a custom package deletes it.
func (s *Store) UpdatePackage(ctx context.Context, custID string, vendorID, packageID int64, u kb.PackageUpdate) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		p, err := packageForWrite(ctx, tx, custID, vendorID, packageID)
		if err != nil {
			return err
		}
		if p.Custom && !u.Selected {
			return deleteCustomPackage(ctx, tx, custID, p)
		}
		object := fmt.Sprintf("package %d", packageID)
		c, err := beginChange(ctx, tx, custID, object, "update", qPackageState, custID, packageID)
		if err != nil {
			return err
		}
		if !u.Selected {
			for _, q := range []string{`DELETE FROM customer_packages WHERE customer_id = ? AND package_id = ?`,
				`DELETE FROM customer_resources WHERE customer_id = ? AND package_id = ?`} {
				if _, err := tx.ExecContext(ctx, q, custID, packageID); err != nil {
					return fmt.Errorf("deselect package %d: %w", packageID, err)
				}
			}
			return c.commit(ctx, tx)
		}
		if u.TokenValue != nil && !p.Tokenable {
			return kb.Errorf(kb.CodeNotAllowed, "Package does not allow token")
		}
		if err := kbsql.CheckPackageCoverage(u.CustomCoverage); err != nil {
			return err
		}
		proxy, err := proxyColumn(ctx, tx, custID, u.Proxy)
		if err != nil {
			return err
		}
		full := u.FullPackage == nil || *u.FullPackage
		if full && !p.Selected {
			// Every title is now selected through the package: title-level
			// selections are redundant (the cost is their number).
			if _, err := tx.ExecContext(ctx, `UPDATE customer_resources SET selected = NULL
				WHERE customer_id = ? AND package_id = ? AND selected IS NOT NULL`, custID, packageID); err != nil {
				return fmt.Errorf("select package %d: %w", packageID, err)
			}
		}
		token, keep := kbsql.TokenColumn(u.TokenValue)
		if _, err := tx.ExecContext(ctx, `INSERT INTO customer_packages(customer_id, package_id, selected, hidden, cov_begin, cov_end, proxy_id, token_value, allow_add)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (customer_id, package_id) DO UPDATE SET selected = excluded.selected, hidden = excluded.hidden,
				cov_begin = excluded.cov_begin, cov_end = excluded.cov_end, proxy_id = excluded.proxy_id,
				token_value = CASE WHEN ? THEN customer_packages.token_value ELSE excluded.token_value END, allow_add = excluded.allow_add`,
			custID, packageID, boolInt(full || p.Custom), boolInt(u.Hidden), u.CustomCoverage.Begin, u.CustomCoverage.End,
			proxy, token, boolInt(u.AllowOperatorToAddTitles && !p.Custom), keep); err != nil {
			return fmt.Errorf("update package %d: %w", packageID, err)
		}
		if p.Custom {
			if err := renameCustomPackage(ctx, tx, custID, p, u.Name, u.ContentType); err != nil {
				return err
			}
		}
		return c.commit(ctx, tx)
	})
}

func renameCustomPackage(ctx context.Context, tx *sql.Tx, custID string, p kbsql.WritePackage, name string, ct kb.ContentType) error {
	if name != "" {
		if err := checkCustomPackageName(ctx, tx, p.VendorID, name, p.ID); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE packages SET name = ?, sort_name = ? WHERE id = ?`, name, kbsql.Fold(name), p.ID); err != nil {
			return fmt.Errorf("rename package %d: %w", p.ID, err)
		}
		if _, err := tx.ExecContext(ctx, `DELETE FROM package_fts WHERE rowid = ?`, p.ID); err != nil {
			return fmt.Errorf("index package %d: %w", p.ID, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO package_fts(rowid, name) VALUES (?, ?)`, p.ID, name); err != nil {
			return fmt.Errorf("index package %d: %w", p.ID, err)
		}
	}
	if ct != kb.ContentAll {
		if _, err := tx.ExecContext(ctx, `UPDATE packages SET content_type = ? WHERE id = ?`, int(ct), p.ID); err != nil {
			return fmt.Errorf("update package %d: %w", p.ID, err)
		}
	}
	return nil
}

// checkCustomPackageName refuses a name another package of the customer's
// vendor has (other than the package except).
func checkCustomPackageName(ctx context.Context, tx *sql.Tx, vendorID int64, name string, except int64) error {
	var n int
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM packages WHERE vendor_id = ? AND sort_name = ? AND id <> ?`,
		vendorID, kbsql.Fold(name), except).Scan(&n); err != nil {
		return fmt.Errorf("check package name: %w", err)
	}
	if n > 0 {
		return kb.Errorf(kb.CodeDuplicate, "Custom Package with the provided name already exists")
	}
	return nil
}

// CreateCustomPackage creates a selected custom package under the
// customer's own vendor.
func (s *Store) CreateCustomPackage(ctx context.Context, custID string, vendorID int64, cp kb.CustomPackage) (int64, error) {
	var id int64
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		own, err := customerVendor(ctx, tx, custID)
		if err != nil {
			return err
		}
		if vendorID != own {
			if err := vendorForWrite(ctx, tx, custID, vendorID); err != nil {
				return err
			}
			return kb.Errorf(kb.CodeNotAllowed, "Custom packages can only be created under the customer's own vendor (%d).", own)
		}
		if cp.Name, err = kbsql.CustomPackageName(cp.Name); err != nil {
			return err
		}
		if err := checkCustomPackageName(ctx, tx, own, cp.Name, 0); err != nil {
			return err
		}
		if err := kbsql.CheckPackageCoverage(cp.CustomCoverage); err != nil {
			return err
		}
		proxy, err := proxyColumn(ctx, tx, custID, cp.Proxy)
		if err != nil {
			return err
		}
		ct := kbsql.StoredContentType(cp.ContentType)
		r, err := tx.ExecContext(ctx, `INSERT INTO packages(vendor_id, name, sort_name, customer_id, content_type, package_type) VALUES (?, ?, ?, ?, ?, ?)`,
			own, cp.Name, kbsql.Fold(cp.Name), custID, int(ct), int(kb.PackageCustom))
		if err != nil {
			return fmt.Errorf("create package: %w", err)
		}
		id, _ = r.LastInsertId()
		if _, err := tx.ExecContext(ctx, `INSERT INTO package_fts(rowid, name) VALUES (?, ?)`, id, cp.Name); err != nil {
			return fmt.Errorf("index package: %w", err)
		}
		c, err := beginChange(ctx, tx, custID, fmt.Sprintf("package %d", id), "create", qPackageState, custID, id)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO customer_packages(customer_id, package_id, selected, cov_begin, cov_end, proxy_id) VALUES (?, ?, 1, ?, ?, ?)`,
			custID, id, cp.CustomCoverage.Begin, cp.CustomCoverage.End, proxy); err != nil {
			return fmt.Errorf("create package: %w", err)
		}
		return c.commit(ctx, tx)
	})
	if err != nil {
		return 0, err
	}
	return id, nil
}

// DeleteCustomPackage deletes a custom package with its titles.
func (s *Store) DeleteCustomPackage(ctx context.Context, custID string, vendorID, packageID int64) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		p, err := packageForWrite(ctx, tx, custID, vendorID, packageID)
		if err != nil {
			return err
		}
		if !p.Custom {
			return kb.Errorf(kb.CodeNotAllowed, "Package %d is a managed package: it cannot be deleted, only deselected.", packageID)
		}
		return deleteCustomPackage(ctx, tx, custID, p)
	})
}

func deleteCustomPackage(ctx context.Context, tx *sql.Tx, custID string, p kbsql.WritePackage) error {
	c, err := beginChange(ctx, tx, custID, fmt.Sprintf("package %d", p.ID), "delete", qPackageState, custID, p.ID)
	if err != nil {
		return err
	}
	rows, err := tx.QueryContext(ctx, `SELECT title_id FROM resources WHERE package_id = ?`, p.ID)
	if err != nil {
		return fmt.Errorf("delete package %d: %w", p.ID, err)
	}
	var titles []int64
	for rows.Next() {
		var t int64
		if err := rows.Scan(&t); err != nil {
			rows.Close()
			return err
		}
		titles = append(titles, t)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("delete package %d: %w", p.ID, err)
	}
	for _, q := range []string{
		`DELETE FROM resources WHERE package_id = :p`,
		`DELETE FROM customer_resources WHERE customer_id = :c AND package_id = :p`, // only the owner has state on it
		`DELETE FROM customer_packages WHERE customer_id = :c AND package_id = :p`,
		`DELETE FROM package_fts WHERE rowid = :p`,
		`DELETE FROM packages WHERE id = :p`,
	} {
		if _, err := tx.ExecContext(ctx, q, sql.Named("p", p.ID), sql.Named("c", custID)); err != nil {
			return fmt.Errorf("delete package %d: %w", p.ID, err)
		}
	}
	for _, t := range titles {
		if err := deleteTitleIfOrphan(ctx, tx, t, custID); err != nil {
			return err
		}
	}
	return c.commit(ctx, tx)
}

// UpdateRoot sets the customer's root proxy and custom labels.
func (s *Store) UpdateRoot(ctx context.Context, custID string, r kb.RootSettings) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		if _, err := customerVendor(ctx, tx, custID); err != nil {
			return err
		}
		proxy := r.ProxyID
		if proxy == "" {
			proxy = kb.NoProxyID
		}
		if err := checkProxy(ctx, tx, custID, proxy); err != nil {
			return err
		}
		labels := kbsql.EncodeLabels(r.Labels)
		c, err := beginChange(ctx, tx, custID, "root", "update", qRootState, custID)
		if err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `UPDATE customers SET root_proxy = ?, labels = ? WHERE id = ?`, proxy, labels, custID); err != nil {
			return fmt.Errorf("update root settings: %w", err)
		}
		return c.commit(ctx, tx)
	})
}

// customerVendor returns the customer's own vendor id; "Customer not found"
// when there is no such customer.
func customerVendor(ctx context.Context, tx *sql.Tx, custID string) (int64, error) {
	var v int64
	err := tx.QueryRowContext(ctx, `SELECT vendor_id FROM customers WHERE id = ?`, custID).Scan(&v)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, kb.NotFound("Customer")
	}
	if err != nil {
		return 0, fmt.Errorf("customer %s: %w", custID, err)
	}
	return v, nil
}

// RemoveProxy deletes a customer proxy; the settings that named it fall
// back to no proxy.
func (s *Store) RemoveProxy(ctx context.Context, custID, proxyID string) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		r, err := tx.ExecContext(ctx, `DELETE FROM proxies WHERE customer_id = ? AND id = ?`, custID, proxyID)
		if err != nil {
			return fmt.Errorf("remove proxy: %w", err)
		}
		if n, _ := r.RowsAffected(); n == 0 {
			return kb.Errorf(kb.CodeNotFound, "customer %s has no proxy %q", custID, proxyID)
		}
		for _, q := range []string{
			`UPDATE customers SET root_proxy = '<n>' WHERE id = ? AND root_proxy = ?`,
			`UPDATE customer_vendors SET proxy_id = '<n>' WHERE customer_id = ? AND proxy_id = ?`,
			`UPDATE customer_packages SET proxy_id = '<n>' WHERE customer_id = ? AND proxy_id = ?`,
			`UPDATE customer_resources SET proxy_id = '<n>' WHERE customer_id = ? AND proxy_id = ?`,
		} {
			if _, err := tx.ExecContext(ctx, q, custID, proxyID); err != nil {
				return fmt.Errorf("remove proxy: %w", err)
			}
		}
		return nil
	})
}

// Changes lists the customer's recorded changes, newest first.
func (s *Store) Changes(ctx context.Context, custID string, limit int) ([]kb.Change, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, at, key_id, object, action, before, after FROM changes
		WHERE customer_id = ? ORDER BY id DESC LIMIT ?`, custID, limit)
	if err != nil {
		return nil, fmt.Errorf("changes: %w", err)
	}
	defer rows.Close()
	cs := []kb.Change{}
	for rows.Next() {
		var c kb.Change
		if err := rows.Scan(&c.ID, &c.At, &c.KeyID, &c.Object, &c.Action, &c.Before, &c.After); err != nil {
			return nil, fmt.Errorf("changes: %w", err)
		}
		cs = append(cs, c)
	}
	return cs, rows.Err()
}
