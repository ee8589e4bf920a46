// Package sqlite is kbserver's embedded store: one SQLite file (WAL mode)
// with one writer connection and a pool of readers, embedded numbered
// migrations. It implements kb.Store.
package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbfeed"
	"github.com/kbserver/kbserver/internal/kbimport"
	"github.com/kbserver/kbserver/internal/kbreport"
	"github.com/kbserver/kbserver/internal/kbsnapshot"
	"github.com/kbserver/kbserver/internal/kbsql"

	_ "modernc.org/sqlite" // registers the "sqlite" driver
)

// Store is the SQLite implementation of kb.Store.
type Store struct {
	*kbsql.Store          // what both engines share
	*kbimport.Importer    // the import of title lists, over the same engine
	*kbfeed.Feed          // the search index's title feed, over the same engine
	*kbsnapshot.Snapshots // holdings snapshots, built by snapshot.go
	*kbreport.Reports     // holdings reports

	w *sql.DB // the one writer connection
	r *sql.DB // readers

	path  string      // the database file
	file  os.FileInfo // the file opened, to tell it was replaced (ops.go); nil for none
	known int         // the newest migration this build knows

	life       context.Context // ends when the store closes: background builds stop
	stop       context.CancelFunc
	closed     atomic.Bool
	builds     sync.WaitGroup
	buildStats kbsql.BuildCounters // the snapshot builds this process ran
	disk       kbsql.DiskWatch     // whether the last write found the disk full (disk.go)
	reads      statementCache      // the reader pool's prepared statements (statements.go)
}

var _ kb.Store = (*Store)(nil)

var _ kb.FeedStore = (*Store)(nil)

// mmapBytes is how much of the database file each connection reads
// through memory-mapped I/O with MemoryMapped: the most this build of
// SQLite maps (its SQLITE_MAX_MMAP_SIZE, just under 2 GiB).
const mmapBytes = 2147418112

// An Option changes how Open opens a store.
type Option func(*options)

type options struct{ mmap bool }

// MemoryMapped has every connection read the file through memory-mapped
// I/O (up to mmapBytes): a page read from the map costs no system call,
// where each page a connection's cache missed cost a pread. It makes an
// update's import 1.7x as fast, and a server's title searches slower
// (the connections' page faults; BENCHMARKS.md, issue 39), and gen's
// thousands of imports 10% slower (the file grows; each connection maps
// it again): import kbart takes it, serve and gen do not. Pages are still written with
// write(2), and the WAL's are read from the WAL. The mapped pages count
// in the process's RSS as file pages, once for each connection that
// touched them. An I/O error while a page is read through the map stops
// the process rather than fail the query: keep the database on a local
// disk.
func MemoryMapped() Option { return func(o *options) { o.mmap = true } }

// Open opens (creating when needed) the database file at path and brings
// its schema up to date.
func Open(ctx context.Context, path string, opts ...Option) (*Store, error) {
	if path == "" {
		return nil, errors.New("open sqlite: empty database path")
	}
	common := []string{
		"busy_timeout(10000)",
		"foreign_keys(1)",
		"synchronous(NORMAL)",
		"temp_store(MEMORY)",
	}
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	if o.mmap {
		common = append(common, fmt.Sprintf("mmap_size(%d)", mmapBytes))
	}
	// Page caches are allocated as used: 64 MiB for the writer (a large
	// import's index inserts; a bulk load's, 256 MiB while it runs),
	// 16 MiB for each reader: larger reader caches cost the server's
	// memory at the same throughput (BENCHMARKS.md), since the operating
	// system's file cache holds the pages either way.
	w, err := sql.Open("sqlite", dsn(path, append(common, "journal_mode(WAL)", fmt.Sprintf("cache_size(-%d)", writerCacheKiB)), "immediate"))
	if err != nil {
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	if err := w.PingContext(ctx); err != nil {
		w.Close()
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	if err := migrate(ctx, w); err != nil {
		w.Close()
		return nil, fmt.Errorf("migrate %s: %w", path, err)
	}
	r, err := sql.Open("sqlite", dsn(path, append(common, "query_only(1)", "cache_size(-16384)"), ""))
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("open sqlite %s: %w", path, err)
	}
	n := max(4, 2*runtime.NumCPU())
	r.SetMaxOpenConns(n)
	r.SetMaxIdleConns(n)
	known, err := kbsql.LatestMigration(migrationFS, "migrations")
	if err != nil {
		r.Close()
		w.Close()
		return nil, err
	}
	s := &Store{w: w, r: r, path: path, known: known}
	s.Store = kbsql.New(engine{s})
	s.Importer = kbimport.New(engine{s})
	s.Feed = kbfeed.New(engine{s})
	s.Snapshots = kbsnapshot.New(engine{s})
	s.Reports = kbreport.New(engine{s}, s.Snapshots)
	// Ready compares the file at path with this one. A database without a
	// file of its own (":memory:") has nothing to compare.
	if fi, err := os.Stat(path); err == nil {
		s.file = fi
	}
	s.life, s.stop = context.WithCancel(context.Background())
	return s, nil
}

func dsn(path string, pragmas []string, txlock string) string {
	q := url.Values{}
	for _, p := range pragmas {
		q.Add("_pragma", p)
	}
	if txlock != "" {
		q.Set("_txlock", txlock)
	}
	// The driver reads the path up to '?' and unescapes %XX in it.
	return "file:" + strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23").Replace(path) + "?" + q.Encode()
}

// Close stops the background snapshot builds (a build stopped midway
// resumes when the store opens again) and closes the database.
func (s *Store) Close() error {
	s.closed.Store(true)
	s.StopReports()
	s.stop()
	s.builds.Wait()
	return errors.Join(s.reads.close(), s.r.Close(), s.w.Close())
}

// inTx runs fn in one write transaction, committing when it returns nil.
func (s *Store) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.w.BeginTx(ctx, nil)
	if err != nil {
		return s.wrote(fmt.Errorf("begin: %w", err))
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return s.wrote(err)
	}
	if err := tx.Commit(); err != nil {
		return s.wrote(fmt.Errorf("commit: %w", err))
	}
	return s.wrote(nil)
}

// SQLite's result codes of a database another connection holds (the
// primary codes; extended codes keep them in their low byte).
const (
	sqliteBusy   = 5
	sqliteLocked = 6
)

// busy turns SQLite's "database is locked" (another process writing for
// longer than the busy timeout: an import being applied) into
// kb.CodeUnavailable, which the API answers 503 with Retry-After.
func busy(err error) error {
	var e interface{ Code() int }
	if errors.As(err, &e) && kb.ErrorCode(err) == kb.CodeInternal {
		if c := e.Code() & 0xff; c == sqliteBusy || c == sqliteLocked {
			return &kb.Error{Code: kb.CodeUnavailable, Message: "The database is busy; retry shortly.", Err: err}
		}
	}
	return err
}
