package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

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
	err = s.customerTx(ctx, id, func(tx pgx.Tx) error {
		var exists bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM customers WHERE id = $1)`, id).Scan(&exists); err != nil {
			return err
		}
		if exists {
			return kb.Errorf(kb.CodeDuplicate, "customer %q already exists", id)
		}
		if err := tx.QueryRow(ctx, `INSERT INTO vendors(name, sort_name, customer_id) VALUES ($1, $2, $3) RETURNING id`,
			name, kbsql.Fold(name), id).Scan(&c.VendorID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO customers(id, name, vendor_id) VALUES ($1, $2, $3)`, id, name, c.VendorID)
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
	err := s.pool.QueryRow(ctx, `SELECT name, vendor_id FROM customers WHERE id = $1`, id).Scan(&c.Name, &c.VendorID)
	if noRows(err) {
		return c, kb.NotFound("Customer")
	}
	if err != nil {
		return c, fmt.Errorf("customer %s: %w", id, err)
	}
	return c, nil
}

// Root returns the customer's root proxy and its five labels.
func (s *Store) Root(ctx context.Context, custID string) (kb.RootSettings, error) {
	var labels string
	rs := kb.RootSettings{}
	err := s.pool.QueryRow(ctx, `SELECT root_proxy, labels FROM customers WHERE id = $1`, custID).Scan(&rs.ProxyID, &labels)
	if noRows(err) {
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

// AddAPIKey stores the hash of a key for a customer, bound to env.
func (s *Store) AddAPIKey(ctx context.Context, custID string, h kb.KeyHash, env kb.Environment) error {
	env, err := kb.ParseEnvironment(string(env))
	if err != nil {
		return fmt.Errorf("add api key: %w", err)
	}
	_, err = s.pool.Exec(ctx, `INSERT INTO api_keys(customer_id, prefix, hash, environment) VALUES ($1, $2, $3, $4)`,
		custID, kbsql.KeyPrefix(h), h[:], string(env))
	if isCode(err, codeForeignKeyViolation) {
		return fmt.Errorf("add api key: %w", kb.NotFound("Customer"))
	}
	if err != nil {
		return fmt.Errorf("add api key: %w", err)
	}
	return nil
}

// findKey returns the key with hash h, comparing full hashes in constant
// time.
func findKey(ctx context.Context, q interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
}, h kb.KeyHash) (kb.APIKey, error) {
	rows, err := q.Query(ctx, `SELECT id, customer_id, environment, hash FROM api_keys WHERE prefix = $1`, kbsql.KeyPrefix(h))
	if err != nil {
		return kb.APIKey{}, err
	}
	defer rows.Close()
	return kbsql.ScanKey(rows, h)
}

// RevokeAPIKey deletes the key with hash h.
func (s *Store) RevokeAPIKey(ctx context.Context, h kb.KeyHash) error {
	k, err := findKey(ctx, s.pool, h)
	if kb.ErrorCode(err) == kb.CodeUnauthenticated {
		return kb.Errorf(kb.CodeNotFound, "no such API key")
	}
	if err != nil {
		return fmt.Errorf("revoke api key: %w", err)
	}
	if _, err := s.pool.Exec(ctx, `DELETE FROM api_keys WHERE id = $1`, k.ID); err != nil {
		return fmt.Errorf("revoke api key: %w", err)
	}
	return nil
}

// LookupAPIKey returns the key with hash h. It runs at every request: pgx
// prepares its statement once a connection.
func (s *Store) LookupAPIKey(ctx context.Context, h kb.KeyHash) (kb.APIKey, error) {
	k, err := findKey(ctx, s.pool, h)
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
	err := s.customerTx(ctx, custID, func(tx pgx.Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO proxies(customer_id, id, name, url_mask) VALUES ($1, $2, $3, $4)
			ON CONFLICT (customer_id, id) DO UPDATE SET name = excluded.name, url_mask = excluded.url_mask`,
			custID, p.ID, p.Name, p.URLMask)
		if isCode(err, codeForeignKeyViolation) {
			return kb.NotFound("Customer")
		}
		return err
	})
	if err != nil {
		return fmt.Errorf("add proxy: %w", err)
	}
	return nil
}

// RemoveProxy deletes a customer proxy; the settings that named it fall
// back to no proxy.
func (s *Store) RemoveProxy(ctx context.Context, custID, proxyID string) error {
	return s.customerTx(ctx, custID, func(tx pgx.Tx) error {
		r, err := tx.Exec(ctx, `DELETE FROM proxies WHERE customer_id = $1 AND id = $2`, custID, proxyID)
		if err != nil {
			return fmt.Errorf("remove proxy: %w", err)
		}
		if r.RowsAffected() == 0 {
			return kb.Errorf(kb.CodeNotFound, "customer %s has no proxy %q", custID, proxyID)
		}
		b := &pgx.Batch{}
		for _, q := range []string{
			`UPDATE customers SET root_proxy = '<n>' WHERE id = $1 AND root_proxy = $2`,
			`UPDATE customer_vendors SET proxy_id = '<n>' WHERE customer_id = $1 AND proxy_id = $2`,
			`UPDATE customer_packages SET proxy_id = '<n>' WHERE customer_id = $1 AND proxy_id = $2`,
			`UPDATE customer_resources SET proxy_id = '<n>' WHERE customer_id = $1 AND proxy_id = $2`,
		} {
			b.Queue(q, custID, proxyID)
		}
		if err := tx.SendBatch(ctx, b).Close(); err != nil {
			return fmt.Errorf("remove proxy: %w", err)
		}
		return nil
	})
}

// Proxies lists the customer's proxies, the built-in "no proxy" entry first.
func (s *Store) Proxies(ctx context.Context, custID string) ([]kb.Proxy, error) {
	// The customer's row joined to its proxies: one round trip tells an
	// unknown customer from one without proxies. "C" orders ids by bytes,
	// as SQLite does.
	rows, err := s.pool.Query(ctx, `SELECT p.id, p.name, p.url_mask FROM customers c
		LEFT JOIN proxies p ON p.customer_id = c.id WHERE c.id = $1 ORDER BY p.id COLLATE "C"`, custID)
	if err != nil {
		return nil, fmt.Errorf("proxies: %w", err)
	}
	defer rows.Close()
	ps := []kb.Proxy{{ID: kb.NoProxyID, Name: "None"}}
	found := false
	for rows.Next() {
		var id, name, mask *string
		if err := rows.Scan(&id, &name, &mask); err != nil {
			return nil, fmt.Errorf("proxies: %w", err)
		}
		found = true
		if id != nil {
			ps = append(ps, kb.Proxy{ID: *id, Name: *name, URLMask: *mask})
		}
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("proxies: %w", err)
	}
	if !found {
		return nil, kb.NotFound("Customer")
	}
	return ps, nil
}
