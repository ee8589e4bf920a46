package postgres

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
)

// linkSecretName is the server_secrets row of the link-signing secret.
const linkSecretName = "linkout"

// linkSecretLen is the length of a new link-signing secret.
const linkSecretLen = 32

var _ kb.LinkStore = (*Store)(nil)

// LinkSecret returns the server's link-signing secret, creating 32 random
// bytes at first use, and keeps it in memory: it never changes while the
// database lives. Every server over the database ends with the one row
// that won: a new secret is inserted with ON CONFLICT DO NOTHING, which
// waits for a concurrent insert to commit, and the row is read back in a
// statement of its own, whose snapshot sees the winner. The caller gets
// its own copy.
func (s *Store) LinkSecret(ctx context.Context) ([]byte, error) {
	s.secretMu.Lock()
	defer s.secretMu.Unlock()
	if s.secret != nil {
		return bytes.Clone(s.secret), nil
	}
	const read = `SELECT value FROM server_secrets WHERE name = $1`
	var secret []byte
	err := s.pool.QueryRow(ctx, read, linkSecretName).Scan(&secret)
	if noRows(err) {
		fresh := make([]byte, linkSecretLen)
		rand.Read(fresh) // never fails (crypto/rand panics instead)
		_, err = s.pool.Exec(ctx, `INSERT INTO server_secrets(name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`,
			linkSecretName, fresh)
		if err == nil {
			err = s.pool.QueryRow(ctx, read, linkSecretName).Scan(&secret)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("link secret: %w", err)
	}
	if len(secret) < kb.MinLinkSecretLen {
		// Never the store's doing: someone edited the row.
		return nil, fmt.Errorf("link secret: stored secret has %d bytes, fewer than %d", len(secret), kb.MinLinkSecretLen)
	}
	s.secret = secret
	return bytes.Clone(secret), nil
}

// sqlResourceLink reads the link of the resource ($2, $3) for the customer
// ($1): its URL, the vendor's and package's token fact names with the
// customer's values, whether it is in the customer's collection, and the
// URL mask of its effective proxy (rule 4 of the specification: its own,
// else its package's, else its vendor's, else the root's; ” for no proxy
// or for an id the customer has no proxy by). No row: no such resource
// the customer may see, or no such customer.
const sqlResourceLink = `SELECT r.url, v.token_fact, COALESCE(cv.token_value, ''), p.token_fact, COALESCE(cp.token_value, ''),
		COALESCE(cr.selected, cp.selected, false) AND NOT COALESCE(cp.hidden, false) AND NOT COALESCE(cr.hidden, false),
		COALESCE((SELECT px.url_mask FROM proxies px WHERE px.customer_id = c.id AND px.id = e.proxy AND e.proxy <> '` + kb.NoProxyID + `'), '')
	FROM resources r
	JOIN packages p ON p.id = r.package_id
	JOIN vendors v ON v.id = p.vendor_id
	JOIN titles t ON t.id = r.title_id
	JOIN customers c ON c.id = $1
	LEFT JOIN customer_packages cp ON cp.customer_id = $1 AND cp.package_id = r.package_id
	LEFT JOIN customer_resources cr ON cr.customer_id = $1 AND cr.package_id = r.package_id AND cr.title_id = r.title_id
	LEFT JOIN customer_vendors cv ON cv.customer_id = $1 AND cv.vendor_id = p.vendor_id
	CROSS JOIN LATERAL (SELECT COALESCE(cr.proxy_id, NULLIF(cp.proxy_id, ''), NULLIF(cv.proxy_id, ''),
		NULLIF(c.root_proxy, ''), '` + kb.NoProxyID + `') AS proxy) e
	WHERE r.package_id = $2 AND r.title_id = $3
		AND (p.customer_id IS NULL OR p.customer_id = $1) AND (t.customer_id IS NULL OR t.customer_id = $1)`

// ResourceLink returns the link of a resource in the customer's collection:
// selected (its title-level state, else its package's), neither it nor its
// package hidden, in a package (and of a title) the customer may see. Any
// other resource, or an unknown customer, is CodeNotFound "Title not
// found". The proxy mask is that of the resource's effective proxy; "" for
// no proxy or for an id the customer has no proxy by. One query.
func (s *Store) ResourceLink(ctx context.Context, custID string, key kb.ResourceKey) (kb.ResourceLink, error) {
	var l kb.ResourceLink
	var vFact, pFact *string
	var vValue, pValue string
	var inCollection bool
	err := s.pool.QueryRow(ctx, sqlResourceLink, custID, key.PackageID, key.TitleID).
		Scan(&l.URL, &vFact, &vValue, &pFact, &pValue, &inCollection, &l.ProxyMask)
	if noRows(err) {
		return kb.ResourceLink{}, kb.NotFound("Title")
	}
	if err != nil {
		return kb.ResourceLink{}, fmt.Errorf("resource link %d/%d: %w", key.PackageID, key.TitleID, err)
	}
	if !inCollection {
		return kb.ResourceLink{}, kb.NotFound("Title")
	}
	if vFact != nil {
		l.VendorToken = &kb.Token{FactName: *vFact, Value: vValue}
	}
	if pFact != nil {
		l.PackageToken = &kb.Token{FactName: *pFact, Value: pValue}
	}
	return l, nil
}

// CountLinkOut adds one to the resource's link-out count and sets its last
// use to now, in one atomic upsert. It does not check that the resource
// exists: the caller has just resolved its link. It takes no customer
// lock: a count is statistics, not holdings, and the upsert cannot lose a
// concurrent one.
func (s *Store) CountLinkOut(ctx context.Context, custID string, key kb.ResourceKey) error {
	_, err := s.pool.Exec(ctx, `INSERT INTO link_outs(customer_id, package_id, title_id, count, last) VALUES ($1, $2, $3, 1, now())
		ON CONFLICT (customer_id, package_id, title_id) DO UPDATE SET count = link_outs.count + 1, last = excluded.last`,
		custID, key.PackageID, key.TitleID)
	if err != nil {
		return fmt.Errorf("count link-out %d/%d: %w", key.PackageID, key.TitleID, err)
	}
	return nil
}

// LinkOutCount returns the resource's link-out count, 0 when it has none.
func (s *Store) LinkOutCount(ctx context.Context, custID string, key kb.ResourceKey) (int64, error) {
	var n int64
	err := s.pool.QueryRow(ctx, `SELECT count FROM link_outs WHERE customer_id = $1 AND package_id = $2 AND title_id = $3`,
		custID, key.PackageID, key.TitleID).Scan(&n)
	if noRows(err) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("link-out count %d/%d: %w", key.PackageID, key.TitleID, err)
	}
	return n, nil
}
