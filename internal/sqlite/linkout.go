package sqlite

import (
	"bytes"
	"context"
	"crypto/rand"
	"database/sql"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// linkSecretName is the server_secrets row of the link-signing secret.
const linkSecretName = "linkout"

// linkSecretLen is the length of a new link-signing secret.
const linkSecretLen = 32

// linkSecret caches the link-signing secret once read: it never changes
// while the file exists. The zero value is an empty cache.
type linkSecret struct {
	p atomic.Pointer[[]byte]
}

var _ kb.LinkStore = (*Store)(nil)

// LinkSecret returns the server's link-signing secret, creating 32 random
// bytes at first use. Two servers (or goroutines) creating it at once both
// end with the one row that won: the insert is INSERT OR IGNORE and the
// secret is read back in the same write transaction. The caller gets its
// own copy.
func (s *Store) LinkSecret(ctx context.Context) ([]byte, error) {
	if p := s.secret.p.Load(); p != nil {
		return bytes.Clone(*p), nil
	}
	var secret []byte
	err := s.r.QueryRowContext(ctx, `SELECT value FROM server_secrets WHERE name = ?`, linkSecretName).Scan(&secret)
	if errors.Is(err, sql.ErrNoRows) {
		err = s.inTx(ctx, func(tx *sql.Tx) error {
			fresh := make([]byte, linkSecretLen)
			rand.Read(fresh) // never fails (crypto/rand panics instead)
			if _, err := tx.ExecContext(ctx, `INSERT OR IGNORE INTO server_secrets(name, value) VALUES (?, ?)`, linkSecretName, fresh); err != nil {
				return err
			}
			return tx.QueryRowContext(ctx, `SELECT value FROM server_secrets WHERE name = ?`, linkSecretName).Scan(&secret)
		})
	}
	if err != nil {
		return nil, fmt.Errorf("link secret: %w", err)
	}
	if len(secret) < kb.MinLinkSecretLen {
		// Never the store's doing: someone edited the row.
		return nil, fmt.Errorf("link secret: stored secret has %d bytes, fewer than %d", len(secret), kb.MinLinkSecretLen)
	}
	s.secret.p.Store(&secret)
	return bytes.Clone(secret), nil
}

// ResourceLink returns the link of a resource in the customer's collection:
// selected (its title-level state, else its package's), neither it nor its
// package hidden, in a package (and of a title) the customer may see. Any
// other resource, or an unknown customer, is CodeNotFound "Title not
// found". The proxy mask is that of the resource's effective proxy (rule 4
// of the specification: its own, else its package's, else its vendor's,
// else the root's); "" for no proxy or for an id the customer has no proxy
// by.
func (s *Store) ResourceLink(ctx context.Context, custID string, key kb.ResourceKey) (kb.ResourceLink, error) {
	var l kb.ResourceLink
	var vFact, vValue, pFact, pValue, proxy sql.NullString
	var packageProxy, vendorProxy, root string
	var inCollection bool
	err := s.r.QueryRowContext(ctx, `SELECT r.url, v.token_fact, cv.token_value, p.token_fact, cp.token_value,
			COALESCE(cr.selected, cp.selected, 0) = 1 AND COALESCE(cp.hidden, 0) = 0 AND COALESCE(cr.hidden, 0) = 0,
			cr.proxy_id, COALESCE(cp.proxy_id, ''), COALESCE(cv.proxy_id, ''), c.root_proxy
		FROM resources r
		JOIN packages p ON p.id = r.package_id
		JOIN vendors v ON v.id = p.vendor_id
		JOIN titles t ON t.id = r.title_id
		JOIN customers c ON c.id = :cust
		LEFT JOIN customer_packages cp ON cp.customer_id = :cust AND cp.package_id = r.package_id
		LEFT JOIN customer_resources cr ON cr.customer_id = :cust AND cr.package_id = r.package_id AND cr.title_id = r.title_id
		LEFT JOIN customer_vendors cv ON cv.customer_id = :cust AND cv.vendor_id = p.vendor_id
		WHERE r.package_id = :pkg AND r.title_id = :title AND `+sqlPackageVisible+` AND `+sqlTitleVisible,
		sql.Named("cust", custID), sql.Named("pkg", key.PackageID), sql.Named("title", key.TitleID)).
		Scan(&l.URL, &vFact, &vValue, &pFact, &pValue, &inCollection, &proxy, &packageProxy, &vendorProxy, &root)
	if errors.Is(err, sql.ErrNoRows) {
		return kb.ResourceLink{}, kb.NotFound("Title")
	}
	if err != nil {
		return kb.ResourceLink{}, fmt.Errorf("resource link %d/%d: %w", key.PackageID, key.TitleID, err)
	}
	if !inCollection {
		return kb.ResourceLink{}, kb.NotFound("Title")
	}
	if vFact.Valid {
		l.VendorToken = &kb.Token{FactName: vFact.String, Value: vValue.String}
	}
	if pFact.Valid {
		l.PackageToken = &kb.Token{FactName: pFact.String, Value: pValue.String}
	}
	if id := effectiveProxy(proxy, packageProxy, vendorProxy, root).ID; id != kb.NoProxyID {
		err := s.r.QueryRowContext(ctx, `SELECT url_mask FROM proxies WHERE customer_id = ? AND id = ?`, custID, id).Scan(&l.ProxyMask)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return kb.ResourceLink{}, fmt.Errorf("resource link %d/%d: proxy %s: %w", key.PackageID, key.TitleID, id, err)
		}
	}
	return l, nil
}

// CountLinkOut adds one to the resource's link-out count and sets its last
// use to now, in one statement. It does not check that the resource
// exists: the caller has just resolved its link.
func (s *Store) CountLinkOut(ctx context.Context, custID string, key kb.ResourceKey) error {
	_, err := s.w.ExecContext(ctx, `INSERT INTO link_outs(customer_id, package_id, title_id, count, last) VALUES (?, ?, ?, 1, ?)
		ON CONFLICT (customer_id, package_id, title_id) DO UPDATE SET count = count + 1, last = excluded.last`,
		custID, key.PackageID, key.TitleID, time.Now().UTC().Format(time.RFC3339))
	if err != nil {
		return fmt.Errorf("count link-out %d/%d: %w", key.PackageID, key.TitleID, err)
	}
	return nil
}

// LinkOutCount returns the resource's link-out count, 0 when it has none.
func (s *Store) LinkOutCount(ctx context.Context, custID string, key kb.ResourceKey) (int64, error) {
	var n int64
	err := s.r.QueryRowContext(ctx, `SELECT count FROM link_outs WHERE customer_id = ? AND package_id = ? AND title_id = ?`,
		custID, key.PackageID, key.TitleID).Scan(&n)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("link-out count %d/%d: %w", key.PackageID, key.TitleID, err)
	}
	return n, nil
}
