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

// AddCustomer creates a customer and its own vendor, which will hold the
// customer's custom packages.
func (s *Store) AddCustomer(ctx context.Context, id, name string) (kb.Customer, error) {
	id, name, err := kbsql.NewCustomer(id, name)
	if err != nil {
		return kb.Customer{}, err
	}
	c := kb.Customer{ID: id, Name: name}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM customers WHERE id = ?`, id).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return kb.Errorf(kb.CodeDuplicate, "customer %q already exists", id)
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO vendors(name, sort_name, customer_id) VALUES (?, ?, ?)`, name, kbsql.Fold(name), id)
		if err != nil {
			return err
		}
		if c.VendorID, err = res.LastInsertId(); err != nil {
			return err
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO vendor_fts(rowid, name) VALUES (?, ?)`, c.VendorID, name); err != nil {
			return err
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO customers(id, name, vendor_id) VALUES (?, ?, ?)`, id, name, c.VendorID)
		return err
	})
	if err != nil {
		return kb.Customer{}, fmt.Errorf("add customer %s: %w", id, err)
	}
	return c, nil
}

// Customer returns a customer by id.
func (s *Store) Customer(ctx context.Context, id string) (kb.Customer, error) {
	c := kb.Customer{ID: id}
	err := s.r.QueryRowContext(ctx, `SELECT name, vendor_id FROM customers WHERE id = ?`, id).Scan(&c.Name, &c.VendorID)
	if errors.Is(err, sql.ErrNoRows) {
		return c, kb.NotFound("Customer")
	}
	if err != nil {
		return c, fmt.Errorf("customer %s: %w", id, err)
	}
	return c, nil
}

// AddAPIKey stores the hash of a key for a customer, bound to env.
func (s *Store) AddAPIKey(ctx context.Context, custID string, h kb.KeyHash, env kb.Environment) error {
	env, err := kb.ParseEnvironment(string(env))
	if err != nil {
		return fmt.Errorf("add api key: %w", err)
	}
	if _, err := s.Customer(ctx, custID); err != nil {
		return fmt.Errorf("add api key: %w", err)
	}
	_, err = s.w.ExecContext(ctx, `INSERT INTO api_keys(customer_id, prefix, hash, created, environment) VALUES (?, ?, ?, ?, ?)`,
		custID, kbsql.KeyPrefix(h), h[:], time.Now().UTC().Format(time.RFC3339), string(env))
	if err != nil {
		return fmt.Errorf("add api key: %w", err)
	}
	return nil
}

// sqlFindKey finds the keys whose hash starts as a hash does.
const sqlFindKey = `SELECT id, customer_id, environment, hash FROM api_keys WHERE prefix = ?`

// findKey returns the key with hash h, comparing full hashes in constant
// time.
func findKey(ctx context.Context, q func(ctx context.Context, query string, args ...any) (*sql.Rows, error), h kb.KeyHash) (kb.APIKey, error) {
	rows, err := q(ctx, sqlFindKey, kbsql.KeyPrefix(h))
	if err != nil {
		return kb.APIKey{}, err
	}
	defer rows.Close()
	return kbsql.ScanKey(rows, h)
}

// RevokeAPIKey deletes the key with hash h.
func (s *Store) RevokeAPIKey(ctx context.Context, h kb.KeyHash) error {
	k, err := findKey(ctx, s.w.QueryContext, h)
	if kb.ErrorCode(err) == kb.CodeUnauthenticated {
		return kb.Errorf(kb.CodeNotFound, "no such API key")
	}
	if err != nil {
		return fmt.Errorf("revoke api key: %w", err)
	}
	if _, err := s.w.ExecContext(ctx, `DELETE FROM api_keys WHERE id = ?`, k.ID); err != nil {
		return fmt.Errorf("revoke api key: %w", err)
	}
	return nil
}

// LookupAPIKey returns the key with hash h.
func (s *Store) LookupAPIKey(ctx context.Context, h kb.KeyHash) (kb.APIKey, error) {
	k, err := findKey(ctx, s.queryPrepared, h) // at every request: prepared once
	if err != nil && kb.ErrorCode(err) != kb.CodeUnauthenticated {
		return kb.APIKey{}, fmt.Errorf("look up api key: %w", err)
	}
	return k, err
}

// AddProxy adds or replaces a customer proxy.
func (s *Store) AddProxy(ctx context.Context, custID string, p kb.Proxy) error {
	if p.ID == "" || p.ID == kb.NoProxyID {
		return kb.Errorf(kb.CodeInvalid, "proxy id %q is reserved or empty", p.ID)
	}
	if _, err := s.Customer(ctx, custID); err != nil {
		return fmt.Errorf("add proxy: %w", err)
	}
	_, err := s.w.ExecContext(ctx, `INSERT INTO proxies(customer_id, id, name, url_mask) VALUES (?, ?, ?, ?)
		ON CONFLICT (customer_id, id) DO UPDATE SET name = excluded.name, url_mask = excluded.url_mask`,
		custID, p.ID, p.Name, p.URLMask)
	if err != nil {
		return fmt.Errorf("add proxy: %w", err)
	}
	return nil
}

// Proxies lists the customer's proxies, the built-in "no proxy" entry first.
func (s *Store) Proxies(ctx context.Context, custID string) ([]kb.Proxy, error) {
	if _, err := s.Customer(ctx, custID); err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT id, name, url_mask FROM proxies WHERE customer_id = ? ORDER BY id`, custID)
	if err != nil {
		return nil, fmt.Errorf("proxies: %w", err)
	}
	defer rows.Close()
	ps := []kb.Proxy{{ID: kb.NoProxyID, Name: "None"}}
	for rows.Next() {
		var p kb.Proxy
		if err := rows.Scan(&p.ID, &p.Name, &p.URLMask); err != nil {
			return nil, fmt.Errorf("proxies: %w", err)
		}
		ps = append(ps, p)
	}
	return ps, rows.Err()
}

// storedLabel is the JSON form of a label in customers.labels.
type storedLabel = kbsql.StoredLabel

// Root returns the customer's root proxy and its five labels.
func (s *Store) Root(ctx context.Context, custID string) (kb.RootSettings, error) {
	var labels string
	rs := kb.RootSettings{}
	err := s.r.QueryRowContext(ctx, `SELECT root_proxy, labels FROM customers WHERE id = ?`, custID).Scan(&rs.ProxyID, &labels)
	if errors.Is(err, sql.ErrNoRows) {
		return rs, kb.NotFound("Customer")
	}
	if err != nil {
		return rs, fmt.Errorf("root settings: %w", err)
	}
	if rs.Labels, err = kbsql.DecodeLabels(labels); err != nil {
		return rs, fmt.Errorf("root settings: labels: %w", err)
	}
	return rs, nil
}
