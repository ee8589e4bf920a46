package kbsql

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// AddCustomer creates a customer and its own vendor, which will hold the
// customer's custom packages.
func (s *Store) AddCustomer(ctx context.Context, id, name string) (kb.Customer, error) {
	id, name, err := kb.NewCustomer(id, name)
	if err != nil {
		return kb.Customer{}, err
	}
	c := kb.Customer{ID: id, Name: name}
	err = s.e.Write(ctx, id, func(tx Tx) error {
		taken, err := exists(ctx, tx, `SELECT 1 FROM customers WHERE id = $1`, id)
		if err != nil {
			return err
		}
		if taken {
			return kb.Errorf(kb.CodeDuplicate, "customer %q already exists", id)
		}
		if err := tx.QueryRow(ctx, `INSERT INTO vendors(name, sort_name, customer_id) VALUES ($1, $2, $3) RETURNING id`,
			name, kb.Fold(name), id).Scan(&c.VendorID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO customers(id, name, vendor_id) VALUES ($1, $2, $3)`, id, name, c.VendorID); err != nil {
			return err
		}
		return BumpVersion(ctx, tx, NamesVersion)
	})
	if err != nil {
		return kb.Customer{}, fmt.Errorf("add customer %s: %w", id, err)
	}
	return c, nil
}

// Customer returns a customer by id.
func (s *Store) Customer(ctx context.Context, id string) (kb.Customer, error) {
	c := kb.Customer{ID: id}
	err := s.e.Read().QueryRow(ctx, `SELECT name, vendor_id FROM customers WHERE id = $1`, id).Scan(&c.Name, &c.VendorID)
	if NoRows(err) {
		return c, kb.NotFound("Customer")
	}
	if err != nil {
		return c, fmt.Errorf("customer %s: %w", id, err)
	}
	return c, nil
}

// checkCustomer returns "Customer not found" unless the customer exists.
func checkCustomer(ctx context.Context, q Querier, custID string) error {
	ok, err := exists(ctx, q, `SELECT 1 FROM customers WHERE id = $1`, custID)
	if err != nil {
		return fmt.Errorf("customer %s: %w", custID, err)
	}
	if !ok {
		return kb.NotFound("Customer")
	}
	return nil
}

// Root returns the customer's root proxy and its five labels.
func (s *Store) Root(ctx context.Context, custID string) (kb.RootSettings, error) {
	var labels string
	rs := kb.RootSettings{}
	err := s.e.Read().QueryRow(ctx, `SELECT root_proxy, labels, vendor_id FROM customers WHERE id = $1`, custID).Scan(&rs.ProxyID, &labels, &rs.VendorID)
	if NoRows(err) {
		return rs, kb.NotFound("Customer")
	}
	if err != nil {
		return rs, fmt.Errorf("root settings: %w", err)
	}
	if rs.Labels, err = DecodeLabels(labels); err != nil {
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
	err = s.e.Write(ctx, custID, func(tx Tx) error {
		if err := checkCustomer(ctx, tx, custID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO api_keys(customer_id, prefix, hash, created, environment) VALUES ($1, $2, $3, $4, $5)`,
			custID, KeyPrefix(h), h[:], time.Now().UTC(), string(env))
		return err
	})
	if err != nil {
		return fmt.Errorf("add api key: %w", err)
	}
	return nil
}

// sqlKeyCandidates reads the keys of a hash prefix ($1) with each key's
// customer's root proxy and versions (kb.CustomerAt): the answer cache and
// the search service need them at every request the key admits, and one
// statement costs less than two (on SQLite, each is a read transaction).
var sqlKeyCandidates = `SELECT k.id, k.customer_id, k.environment, k.hash, c.root_proxy, ` + sqlCustomerAt("k.customer_id") + `
	FROM api_keys k JOIN customers c ON c.id = k.customer_id WHERE k.prefix = $1`

// findKey returns the key with hash h, comparing full hashes in constant
// time, with its customer's root proxy and versions.
func findKey(ctx context.Context, q Querier, h kb.KeyHash) (kb.APIKey, error) {
	rows, err := q.Query(ctx, sqlKeyCandidates, KeyPrefix(h))
	if err != nil {
		return kb.APIKey{}, err
	}
	defer rows.Close()
	return ScanKey(rows, h)
}

// RevokeAPIKey deletes the key with hash h.
func (s *Store) RevokeAPIKey(ctx context.Context, h kb.KeyHash) error {
	return s.e.Write(ctx, "", func(tx Tx) error {
		k, err := findKey(ctx, tx, h)
		if kb.ErrorCode(err) == kb.CodeUnauthenticated {
			return kb.Errorf(kb.CodeNotFound, "no such API key")
		}
		if err != nil {
			return fmt.Errorf("revoke api key: %w", err)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM api_keys WHERE id = $1`, k.ID); err != nil {
			return fmt.Errorf("revoke api key: %w", err)
		}
		// Its console sessions end with it (SQLite may give its id to the
		// next key, which must not inherit them).
		if _, err := tx.Exec(ctx, `DELETE FROM console_sessions WHERE key_id = $1`, k.ID); err != nil {
			return fmt.Errorf("revoke api key: end its sessions: %w", err)
		}
		return nil
	})
}

// LookupAPIKey returns the key with hash h. It runs at every request: its
// statement is prepared once a connection.
func (s *Store) LookupAPIKey(ctx context.Context, h kb.KeyHash) (kb.APIKey, error) {
	k, err := findKey(ctx, s.e.Read(), h)
	if err != nil && kb.ErrorCode(err) != kb.CodeUnauthenticated {
		return kb.APIKey{}, fmt.Errorf("look up api key: %w", err)
	}
	return k, err
}

// AddProxy adds or replaces a customer proxy. It bumps the customer's
// version: the proxied URLs of its answers are made with the proxy's mask.
func (s *Store) AddProxy(ctx context.Context, custID string, p kb.Proxy) error {
	if err := kb.CheckNewProxy(p); err != nil {
		return err
	}
	err := s.e.Write(ctx, custID, func(tx Tx) error {
		if err := checkCustomer(ctx, tx, custID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO proxies(customer_id, id, name, url_mask) VALUES ($1, $2, $3, $4)
			ON CONFLICT (customer_id, id) DO UPDATE SET name = excluded.name, url_mask = excluded.url_mask`,
			custID, p.ID, p.Name, p.URLMask)
		if err != nil {
			return err
		}
		return BumpVersion(ctx, tx, CustomerVersion(custID))
	})
	if err != nil {
		return fmt.Errorf("add proxy: %w", err)
	}
	return nil
}

// RemoveProxy deletes a customer proxy; the settings that named it fall
// back to no proxy. It bumps the customer's version.
func (s *Store) RemoveProxy(ctx context.Context, custID, proxyID string) error {
	return s.e.Write(ctx, custID, func(tx Tx) error {
		n, err := tx.Exec(ctx, `DELETE FROM proxies WHERE customer_id = $1 AND id = $2`, custID, proxyID)
		if err != nil {
			return fmt.Errorf("remove proxy: %w", err)
		}
		if n == 0 {
			return kb.Errorf(kb.CodeNotFound, "customer %s has no proxy %q", custID, proxyID)
		}
		var fallBack []Stmt
		for _, q := range []string{
			`UPDATE customers SET root_proxy = '` + kb.NoProxyID + `' WHERE id = $1 AND root_proxy = $2`,
			`UPDATE customer_vendors SET proxy_id = '` + kb.NoProxyID + `' WHERE customer_id = $1 AND proxy_id = $2`,
			`UPDATE customer_packages SET proxy_id = '` + kb.NoProxyID + `' WHERE customer_id = $1 AND proxy_id = $2`,
			`UPDATE customer_resources SET proxy_id = '` + kb.NoProxyID + `' WHERE customer_id = $1 AND proxy_id = $2`,
		} {
			fallBack = append(fallBack, Stmt{q, []any{custID, proxyID}})
		}
		if err := ExecAll(ctx, tx, fallBack...); err != nil {
			return fmt.Errorf("remove proxy: %w", err)
		}
		return BumpVersion(ctx, tx, CustomerVersion(custID))
	})
}

// Proxies lists the customer's proxies, the built-in "no proxy" entry
// first, then by id in byte order.
func (s *Store) Proxies(ctx context.Context, custID string) ([]kb.Proxy, error) {
	if err := checkCustomer(ctx, s.e.Read(), custID); err != nil {
		return nil, err
	}
	ps, err := QueryAll(ctx, s.e.Read(), `SELECT id, name, url_mask FROM proxies WHERE customer_id = $1`, []any{custID},
		func(r Rows) (kb.Proxy, error) {
			var p kb.Proxy
			return p, r.Scan(&p.ID, &p.Name, &p.URLMask)
		})
	if err != nil {
		return nil, fmt.Errorf("proxies: %w", err)
	}
	slices.SortFunc(ps, func(a, b kb.Proxy) int { return cmp.Compare(a.ID, b.ID) })
	return append([]kb.Proxy{{ID: kb.NoProxyID, Name: "None"}}, ps...), nil
}

// Customers lists the customers in the order of their ids.
func (s *Store) Customers(ctx context.Context) ([]kb.Customer, error) {
	out := []kb.Customer{}
	err := EachRow(ctx, s.e.Read(), `SELECT id, name, vendor_id FROM customers ORDER BY id`, nil, func(r Rows) error {
		var c kb.Customer
		if err := r.Scan(&c.ID, &c.Name, &c.VendorID); err != nil {
			return err
		}
		out = append(out, c)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list customers: %w", err)
	}
	return out, nil
}

// APIKeys lists the customer's API keys, oldest first: ids, environments
// and creation times.
func (s *Store) APIKeys(ctx context.Context, custID string) ([]kb.APIKey, error) {
	if err := checkCustomer(ctx, s.e.Read(), custID); err != nil {
		return nil, err
	}
	out := []kb.APIKey{}
	err := EachRow(ctx, s.e.Read(), `SELECT id, environment, created FROM api_keys WHERE customer_id = $1 ORDER BY id`, []any{custID}, func(r Rows) error {
		k := kb.APIKey{CustomerID: custID}
		var env string
		var created any
		if err := r.Scan(&k.ID, &env, &created); err != nil {
			return err
		}
		k.Environment = kb.Environment(env)
		var err error
		if k.Created, err = storedTime(created); err != nil {
			return fmt.Errorf("api key %d: %w", k.ID, err)
		}
		out = append(out, k)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list api keys of %s: %w", custID, err)
	}
	return out, nil
}

// storedTime reads a time column: PostgreSQL's timestamptz arrives as a
// time, SQLite's text in the form the driver wrote a time.Time in.
func storedTime(v any) (time.Time, error) {
	switch t := v.(type) {
	case time.Time:
		return t.UTC(), nil
	case string:
		for _, layout := range []string{"2006-01-02 15:04:05.999999999 -0700 MST", time.RFC3339Nano, "2006-01-02 15:04:05.999999999-07:00", "2006-01-02 15:04:05"} {
			if p, err := time.Parse(layout, t); err == nil {
				return p.UTC(), nil
			}
		}
		return time.Time{}, fmt.Errorf("unreadable time %q", t)
	case []byte:
		return storedTime(string(t))
	}
	return time.Time{}, fmt.Errorf("unreadable time of type %T", v)
}
