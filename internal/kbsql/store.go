// Package kbsql is the store code that both SQL engines share: the
// holdings writes and their change history, customers, keys, proxies,
// profiles, notes, link-outs, resource management objects, the reads of
// one vendor, package or title, each written once over the small Engine
// interface that internal/sqlite and internal/postgres implement. The
// import (internal/kbimport), the search index's title feed
// (internal/kbfeed), holdings snapshots (internal/kbsnapshot) and holdings
// reports (internal/kbreport) are written over the same seam. The engines keep only what truly differs: opening and migrating
// the database, search, snapshot builds and the engine's own bulk paths.
package kbsql

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/kbserver/kbserver/internal/kb"
)

// Store implements the parts of kb.Store that do not depend on the engine.
// An engine's store embeds it.
type Store struct {
	e      Engine
	d      Dialect
	secret atomic.Pointer[[]byte] // the link-signing secret once read (linkout.go)
	// factCache keeps packages' facts for pages of titles
	// (resource_facts.go).
	factCache factCache
	// titles keeps the finished titles of pages lately read
	// (title_cache.go).
	titles titleCache
}

// New returns the shared store over an engine.
func New(e Engine) *Store {
	s := &Store{e: e, d: e.Dialect()}
	s.titles.max.Store(DefaultKeptTitles)
	return s
}

// Engine returns the engine the store runs on.
func (s *Store) Engine() Engine { return s.e }

// RootProxy returns the customer's root proxy id, or "Customer not found".
func (s *Store) RootProxy(ctx context.Context, custID string) (string, error) {
	var id string
	err := s.e.Read().QueryRow(ctx, `SELECT root_proxy FROM customers WHERE id = $1`, custID).Scan(&id)
	if NoRows(err) {
		return "", kb.NotFound("Customer")
	}
	if err != nil {
		return "", fmt.Errorf("customer %s: %w", custID, err)
	}
	return id, nil
}

// BumpVersion adds one to the named version counter, in the caller's
// transaction.
func BumpVersion(ctx context.Context, tx Tx, name string) error {
	_, err := tx.Exec(ctx, `INSERT INTO versions(name, n) VALUES ($1, 1) ON CONFLICT (name) DO UPDATE SET n = versions.n + 1`, name)
	if err != nil {
		return fmt.Errorf("bump version %s: %w", name, err)
	}
	return nil
}

// CollectionVersion returns a value that changes whenever the customer's
// collection, or any answer in the customer's context, may have: after any
// import, and after any write of the customer's holdings, root proxy,
// labels or proxies. It is one read of two rows of the versions table, so
// that every request may read it: the holdings service's cache of answers
// (holdingsapi) depends on it, on every instance over the same database.
func (s *Store) CollectionVersion(ctx context.Context, custID string) (string, error) {
	kbv, cv, err := s.versionsOf(ctx, custID)
	if err != nil {
		return "", err
	}
	return kb.CustomerAt{KB: kbv, Customer: cv}.CollectionVersion(), nil
}

// sqlCustomerAt reads a customer's root proxy and the versions of
// kb.CustomerAt, with the customer's id in the column (or parameter)
// custID; its FROM and WHERE are the caller's.
func sqlCustomerAt(custID string) string {
	return `COALESCE((SELECT n FROM versions WHERE name = '` + KBVersion + `'), 0),
	COALESCE((SELECT n FROM versions WHERE name = '` + TitlesVersion + `'), 0),
	COALESCE((SELECT n FROM versions WHERE name = '` + customerVersionPrefix + `' || ` + custID + `), 0)`
}

// CustomerVersions reads the customer's root proxy and versions in one
// statement, or "Customer not found"; see kb.SearchedStore.
func (s *Store) CustomerVersions(ctx context.Context, custID string) (kb.CustomerAt, error) {
	var c kb.CustomerAt
	err := s.e.Read().QueryRow(ctx, `SELECT c.root_proxy, `+sqlCustomerAt("c.id")+` FROM customers c WHERE c.id = $1`, custID).
		Scan(&c.Root, &c.KB, &c.Titles, &c.Customer)
	if NoRows(err) {
		return c, kb.NotFound("Customer")
	}
	if err != nil {
		return c, fmt.Errorf("customer %s: %w", custID, err)
	}
	return c, nil
}

// versionsOf returns the knowledge base's version and the customer's.
func (s *Store) versionsOf(ctx context.Context, custID string) (kbv, cv int64, err error) {
	return s.counterAndCustomer(ctx, KBVersion, custID)
}

// counterAndCustomer reads the version counter name (a constant) and the
// customer's version in one statement of two rows' reads; 0 for a
// counter never bumped.
func (s *Store) counterAndCustomer(ctx context.Context, name, custID string) (n, cv int64, err error) {
	err = s.e.Read().QueryRow(ctx, `SELECT COALESCE((SELECT n FROM versions WHERE name = '`+name+`'), 0),
		COALESCE((SELECT n FROM versions WHERE name = $1), 0)`, CustomerVersion(custID)).Scan(&n, &cv)
	if err != nil {
		return 0, 0, fmt.Errorf("read versions %s and %s's: %w", name, custID, err)
	}
	return n, cv, nil
}
