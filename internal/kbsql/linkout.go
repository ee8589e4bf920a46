package kbsql

import (
	"bytes"
	"context"
	"crypto/rand"
	"fmt"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// linkSecretName is the server_secrets row of the link-signing secret.
const linkSecretName = "linkout"

// linkSecretLen is the length of a new link-signing secret.
const linkSecretLen = 32

// LinkSecret returns the server's link-signing secret, creating 32 random
// bytes at first use, and keeps it in memory: it never changes while the
// database lives. Every server over the database ends with the one row
// that won: a new secret is inserted with ON CONFLICT DO NOTHING (which on
// PostgreSQL waits for a concurrent insert to commit) and read back by a
// statement of its own in the same write transaction, which sees the
// winner. The caller gets its own copy.
func (s *Store) LinkSecret(ctx context.Context) ([]byte, error) {
	if p := s.secret.Load(); p != nil {
		return bytes.Clone(*p), nil
	}
	const read = `SELECT value FROM server_secrets WHERE name = $1`
	var secret []byte
	err := s.e.Read().QueryRow(ctx, read, linkSecretName).Scan(&secret)
	if NoRows(err) {
		err = s.e.Write(ctx, "", func(tx Tx) error {
			fresh := make([]byte, linkSecretLen)
			rand.Read(fresh) // never fails (crypto/rand panics instead)
			if _, err := tx.Exec(ctx, `INSERT INTO server_secrets(name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`,
				linkSecretName, fresh); err != nil {
				return err
			}
			return tx.QueryRow(ctx, read, linkSecretName).Scan(&secret)
		})
	}
	if err != nil {
		return nil, fmt.Errorf("link secret: %w", err)
	}
	if len(secret) < kb.MinLinkSecretLen {
		// Never the store's doing: someone edited the row.
		return nil, fmt.Errorf("link secret: stored secret has %d bytes, fewer than %d", len(secret), kb.MinLinkSecretLen)
	}
	s.secret.Store(&secret)
	return bytes.Clone(secret), nil
}

// ResourceLink returns the link of a resource in the customer's collection:
// selected (its title-level state, else its package's), neither it nor its
// package hidden, in a package (and of a title) the customer may see. Any
// other resource, or an unknown customer, is CodeNotFound "Title not
// found". The proxy mask is that of the resource's effective proxy
// (kb.EffectiveProxy); "" for no proxy or for an id the customer has no
// proxy by. One query: it reads the mask of every proxy setting that may
// be the effective one, and kb.EffectiveProxy picks.
func (s *Store) ResourceLink(ctx context.Context, custID string, key kb.ResourceKey) (kb.ResourceLink, error) {
	var l kb.ResourceLink
	var vFact, vValue, pFact, pValue, proxy *string
	var packageProxy, vendorProxy, root string
	var masks [4]string // of proxy, packageProxy, vendorProxy, root
	var inCollection bool
	mask := func(id string) string {
		return `COALESCE((SELECT px.url_mask FROM proxies px WHERE px.customer_id = $1 AND px.id = ` + id + `), '')`
	}
	err := s.e.Read().QueryRow(ctx, `SELECT r.url, v.token_fact, cv.token_value, p.token_fact, cp.token_value,
			COALESCE(cr.selected, cp.selected, FALSE) AND NOT COALESCE(cp.hidden, FALSE) AND NOT COALESCE(cr.hidden, FALSE),
			cr.proxy_id, COALESCE(cp.proxy_id, ''), COALESCE(cv.proxy_id, ''), c.root_proxy,
			`+mask("cr.proxy_id")+`, `+mask("cp.proxy_id")+`, `+mask("cv.proxy_id")+`, `+mask("c.root_proxy")+`
		FROM resources r
		JOIN packages p ON p.id = r.package_id
		JOIN vendors v ON v.id = p.vendor_id
		JOIN titles t ON t.id = r.title_id
		JOIN customers c ON c.id = $1
		LEFT JOIN customer_packages cp ON cp.customer_id = $1 AND cp.package_id = r.package_id
		LEFT JOIN customer_resources cr ON cr.customer_id = $1 AND cr.package_id = r.package_id AND cr.title_id = r.title_id
		LEFT JOIN customer_vendors cv ON cv.customer_id = $1 AND cv.vendor_id = p.vendor_id
		WHERE r.package_id = $2 AND r.title_id = $3 AND `+sqlPackageVisible+` AND `+sqlTitleVisible,
		custID, key.PackageID, key.TitleID).
		Scan(&l.URL, &vFact, &vValue, &pFact, &pValue, &inCollection, &proxy, &packageProxy, &vendorProxy, &root,
			&masks[0], &masks[1], &masks[2], &masks[3])
	if NoRows(err) {
		return kb.ResourceLink{}, kb.NotFound("Title")
	}
	if err != nil {
		return kb.ResourceLink{}, fmt.Errorf("resource link %d/%d: %w", key.PackageID, key.TitleID, err)
	}
	if !inCollection {
		return kb.ResourceLink{}, kb.NotFound("Title")
	}
	if vFact != nil {
		l.VendorToken = &kb.Token{FactName: *vFact, Value: str(vValue)}
	}
	if pFact != nil {
		l.PackageToken = &kb.Token{FactName: *pFact, Value: str(pValue)}
	}
	if id := effectiveProxy(proxy, packageProxy, vendorProxy, root).ID; id != kb.NoProxyID {
		for i, candidate := range []string{str(proxy), packageProxy, vendorProxy, root} {
			if candidate == id {
				l.ProxyMask = masks[i]
				break
			}
		}
	}
	return l, nil
}

// CountLinkOut adds one to the resource's link-out count and sets its last
// use to now, and adds one to its clicks of the month (UTC, this server's
// clock) made for via: two upserts sent together (Engine.Exec: one round
// trip, one transaction). It does not check that the resource exists: the
// caller has just resolved its link. A count is statistics, not holdings:
// it takes no customer's lock, and an upsert cannot lose a concurrent one.
func (s *Store) CountLinkOut(ctx context.Context, custID string, key kb.ResourceKey, via kb.LinkVia) error {
	if via == "" {
		via = kb.ViaAZ
	}
	err := s.e.Exec(ctx,
		Stmt{`INSERT INTO link_outs(customer_id, package_id, title_id, count, last) VALUES ($1, $2, $3, 1, ` + s.d.Now() + `)
			ON CONFLICT (customer_id, package_id, title_id) DO UPDATE SET count = link_outs.count + 1, last = excluded.last`,
			[]any{custID, key.PackageID, key.TitleID}},
		Stmt{`INSERT INTO link_out_months(customer_id, month, package_id, title_id, via, count) VALUES ($1, $2, $3, $4, $5, 1)
			ON CONFLICT (customer_id, month, package_id, title_id, via) DO UPDATE SET count = link_out_months.count + 1`,
			[]any{custID, string(kb.MonthOf(time.Now())), key.PackageID, key.TitleID, string(via)}})
	if err != nil {
		return fmt.Errorf("count link-out %d/%d: %w", key.PackageID, key.TitleID, err)
	}
	return nil
}

// LinkOutCount returns the resource's link-out count, 0 when it has none.
func (s *Store) LinkOutCount(ctx context.Context, custID string, key kb.ResourceKey) (int64, error) {
	var n int64
	err := s.e.Read().QueryRow(ctx, `SELECT count FROM link_outs WHERE customer_id = $1 AND package_id = $2 AND title_id = $3`,
		custID, key.PackageID, key.TitleID).Scan(&n)
	if NoRows(err) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("link-out count %d/%d: %w", key.PackageID, key.TitleID, err)
	}
	return n, nil
}

// ResourceKBART returns the KBART rows the resources were imported with,
// by resource; resources without rows (custom titles, titles added to a
// custom package) are left out. One query, as the notes' read: the rows
// of the keys' titles in the keys' packages, the keys kept.
func (s *Store) ResourceKBART(ctx context.Context, keys []kb.ResourceKey) (map[kb.ResourceKey]string, error) {
	out := make(map[kb.ResourceKey]string, len(keys))
	if len(keys) == 0 {
		return out, nil
	}
	want := make(map[kb.ResourceKey]bool, len(keys))
	var pkgs, titles []int64
	for _, k := range keys {
		if !want[k] {
			want[k] = true
			pkgs, titles = append(pkgs, k.PackageID), append(titles, k.TitleID)
		}
	}
	err := EachRow(ctx, s.e.Read(), `SELECT package_id, title_id, kbart FROM resources
		WHERE `+s.d.InIDs("title_id", "$1")+` AND `+s.d.InIDs("package_id", "$2"), []any{titles, pkgs}, func(r Rows) error {
		var k kb.ResourceKey
		var rows *string
		if err := r.Scan(&k.PackageID, &k.TitleID, &rows); err != nil {
			return err
		}
		if want[k] && rows != nil && *rows != "" {
			out[k] = *rows
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("KBART rows of %d resources: %w", len(want), err)
	}
	return out, nil
}
