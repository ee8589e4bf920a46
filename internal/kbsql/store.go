// Package kbsql is the store code that both SQL engines share: the
// holdings writes and their change history, customers, keys, proxies,
// profiles, notes, link-outs, resource management objects, the reads of
// one vendor, package or title, and the import flow, each written once
// over the small Engine interface that internal/sqlite and
// internal/postgres implement. Those packages keep only what truly
// differs: opening and migrating the database, search, snapshot builds
// and the engine's own bulk paths.
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
	secret atomic.Pointer[[]byte]        // the link-signing secret once read (linkout.go)
	jobs   *reportJobs                   // the holdings reports' background work (report_jobs.go)
	index  atomic.Pointer[kb.TitleIndex] // the title index in use, if any (title_index.go)
	// factCache keeps packages' facts for pages of titles
	// (resource_facts.go).
	factCache factCache
	// titles keeps the finished titles of pages lately read
	// (title_cache.go).
	titles titleCache
}

// New returns the shared store over an engine.
func New(e Engine) *Store {
	s := &Store{e: e, d: e.Dialect(), jobs: newReportJobs()}
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

// bumpVersion adds one to the named version counter, in the caller's
// transaction.
func bumpVersion(ctx context.Context, tx Tx, name string) error {
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
// (rmapi) and the publication search's collections (pubsearch) depend on
// it, on every instance over the same database.
func (s *Store) CollectionVersion(ctx context.Context, custID string) (string, error) {
	kbv, cv, err := s.versionsOf(ctx, custID)
	if err != nil {
		return "", err
	}
	return collectionVersion(kbv, cv), nil
}

// customerAt is a customer's root proxy and the versions of the knowledge
// base and of the customer, read in one statement (so the root proxy is
// the one of those versions).
type customerAt struct {
	root    string
	kbv, cv int64
}

// customerAt reads the customer's root proxy and versions, or "Customer
// not found".
func (s *Store) customerAt(ctx context.Context, custID string) (customerAt, error) {
	var c customerAt
	err := s.e.Read().QueryRow(ctx, `SELECT root_proxy, COALESCE((SELECT n FROM versions WHERE name = '`+KBVersion+`'), 0),
		COALESCE((SELECT n FROM versions WHERE name = $2), 0) FROM customers WHERE id = $1`, custID, CustomerVersion(custID)).Scan(&c.root, &c.kbv, &c.cv)
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
