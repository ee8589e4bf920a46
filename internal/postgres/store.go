// Package postgres is kbserver's store on PostgreSQL: a pgx connection pool,
// hand-written SQL, embedded numbered migrations applied under an advisory
// lock (several instances may start at once), and COPY for imports. It
// implements kb.Store and passes the same conformance suite
// (internal/storetest) as the SQLite store.
package postgres

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbfeed"
	"github.com/kbserver/kbserver/internal/kbimport"
	"github.com/kbserver/kbserver/internal/kbreport"
	"github.com/kbserver/kbserver/internal/kbsnapshot"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// Store is the PostgreSQL implementation of kb.Store.
type Store struct {
	*kbsql.Store          // what both engines share
	*kbimport.Importer    // the import of title lists, over the same engine
	*kbfeed.Feed          // the search index's title feed, over the same engine
	*kbsnapshot.Snapshots // holdings snapshots, built by snapshot.go
	*kbreport.Reports     // holdings reports

	pool *pgxpool.Pool
	name string // the database, without password, for messages

	life   context.Context // ends when the store closes: background builds stop
	stop   context.CancelFunc
	closed atomic.Bool
	builds sync.WaitGroup
	// buildStats counts the snapshot builds this process ran.
	buildStats kbsql.BuildCounters
	// rateSwept is when TakeToken last deleted the full buckets (rate.go),
	// in Unix nanoseconds.
	rateSwept atomic.Int64
	// buildSlots bounds the snapshot builds running at once: each holds a
	// pooled connection for its duration, and requests need the rest.
	buildSlots chan struct{}
	// disk is whether the last write found the disk full (disk.go).
	disk kbsql.DiskWatch
}

var _ kb.Store = (*Store)(nil)

var _ kb.FeedStore = (*Store)(nil)

// Open connects to the database the URL names (postgres://… or
// postgresql://…; a search_path parameter selects a schema) and brings its
// schema up to date.
func Open(ctx context.Context, url string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, fmt.Errorf("open postgres: %w", err)
	}
	cfg.ConnConfig.BuildContextWatcherHandler = newCancelWatcher
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("open postgres %s: %w", redact(cfg), err)
	}
	if err := pool.Ping(ctx); err != nil {
		pool.Close()
		return nil, fmt.Errorf("open postgres %s: %w", redact(cfg), err)
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("migrate postgres %s: %w", redact(cfg), err)
	}
	s := &Store{pool: pool, name: redact(cfg), buildSlots: make(chan struct{}, max(1, pool.Config().MaxConns/2))}
	s.Store = kbsql.New(engine{s})
	s.Importer = kbimport.New(engine{s})
	s.Feed = kbfeed.New(engine{s})
	s.Snapshots = kbsnapshot.New(engine{s})
	s.Reports = kbreport.New(engine{s}, s.Snapshots)
	s.life, s.stop = context.WithCancel(context.Background())
	return s, nil
}

// redact names the database of a configuration without its password.
func redact(cfg *pgxpool.Config) string {
	c := cfg.ConnConfig
	return fmt.Sprintf("%s@%s:%d/%s", c.User, c.Host, c.Port, c.Database)
}

// Close stops the background snapshot builds (a build stopped midway
// resumes when a store opens the database again) and closes the pool.
func (s *Store) Close() error {
	s.closed.Store(true)
	s.StopReports()
	s.stop()
	s.builds.Wait()
	s.pool.Close()
	return nil
}

// Pool returns the store's connection pool, for tests and tools that read
// the database beside the store.
func (s *Store) Pool() *pgxpool.Pool { return s.pool }

// inTx runs fn in one read-committed transaction, committing when it
// returns nil and rolling back otherwise. fn runs once: it is not retried.
func (s *Store) inTx(ctx context.Context, fn func(tx pgx.Tx) error) error {
	tx, err := s.pool.Begin(ctx)
	if err != nil {
		return s.wrote(fmt.Errorf("begin: %w", err))
	}
	if err := fn(tx); err != nil {
		tx.Rollback(context.Background())
		return s.wrote(err)
	}
	if err := tx.Commit(ctx); err != nil {
		return s.wrote(fmt.Errorf("commit: %w", err))
	}
	return s.wrote(nil)
}

// Advisory locks. PostgreSQL's advisory locks belong to the database, not
// to a schema, so every key mixes in current_schema(): stores in different
// schemas of one database (the test suites' way) never wait for each other,
// while every instance over the same schema shares the locks. The import lock
// serialises imports (two imports may otherwise both create the same new
// title); a customer's writes take the customer's lock (customerTx), so
// that one customer's requests apply one after another, as on SQLite's
// single writer, while different customers write at once.
const (
	// importLockSQL is the key of the import lock.
	importLockSQL = `hashtextextended('kbserver import ' || current_schema(), 0)`
	// migrateLockSQL is the key of the session lock migrations run under.
	migrateLockSQL = `hashtextextended('kbserver migrate ' || current_schema(), 0)`
	// customerLockSQL is the key of customer $1's write lock.
	customerLockSQL = `hashtextextended('kbserver customer ' || current_schema() || ' ' || $1, 0)`
)

// customerTx runs fn in one transaction that holds the customer's write
// lock from its start: the customer's other writes wait for it. Imports do
// not take customers' locks (they change every customer's state on the
// titles they remove), so a customer's write may meet an import's change
// between its reads and its writes; the writes that could then act on a
// resource or title an import removed say so (CodeNotFound).
func (s *Store) customerTx(ctx context.Context, custID string, fn func(tx pgx.Tx) error) error {
	return s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(`+customerLockSQL+`)`, custID); err != nil {
			return fmt.Errorf("lock customer %s: %w", custID, err)
		}
		return fn(tx)
	})
}

// SQLSTATE codes the store tells apart. The 22 codes are values
// PostgreSQL cannot store though Go and SQLite take them: a NUL character
// or invalid UTF-8 in text (character_not_in_repertoire), a character a
// jsonb body cannot hold (untranslatable_character). (JSON escapes jsonb
// refuses never reach it: kbsql.ERMBody refuses them on both engines.)
const (
	codeUniqueViolation     = "23505"
	codeForeignKeyViolation = "23503"
	codeNotInRepertoire     = "22021"
	codeUntranslatable      = "22P05"
)

// isCode reports whether err is a PostgreSQL error with the SQLSTATE code.
func isCode(err error, code string) bool {
	var pe *pgconn.PgError
	return errors.As(err, &pe) && pe.Code == code
}

// unstorableText turns PostgreSQL's refusal of a text value (a NUL
// character, invalid UTF-8) into CodeInvalid (kbsql.ErrUnstorableText):
// the HTTP layer refuses such text first, but other callers (the command
// line) reach the store directly. Other errors are returned as they are.
func unstorableText(err error) error {
	if isCode(err, codeNotInRepertoire) || isCode(err, codeUntranslatable) {
		return &kb.Error{Code: kb.CodeInvalid, Err: fmt.Errorf("%w: %w", kbsql.ErrUnstorableText, err),
			Message: "A text value holds a character the database cannot store (U+0000 or invalid UTF-8)."}
	}
	return err
}
