// Package store opens the store a --db value names: a postgres:// or
// postgresql:// URL opens the PostgreSQL store, anything else is the path of
// a SQLite file.
package store

import (
	"context"
	"errors"
	"net/url"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/postgres"
	"github.com/kbserver/kbserver/internal/sqlite"
)

// IsPostgres reports whether dsn names a PostgreSQL database.
func IsPostgres(dsn string) bool {
	lower := strings.ToLower(strings.TrimSpace(dsn))
	return strings.HasPrefix(lower, "postgres://") || strings.HasPrefix(lower, "postgresql://")
}

// IndexFile returns the file the search index of the store dsn names is
// kept in by default: beside a SQLite file, as FILE.search-index; none
// ("") for PostgreSQL.
func IndexFile(dsn string) string {
	if IsPostgres(dsn) {
		return ""
	}
	return dsn + ".search-index"
}

// Open opens (and migrates) the store dsn names.
func Open(ctx context.Context, dsn string) (kb.Store, error) {
	return open(ctx, dsn)
}

// OpenToLoad opens the store dsn names for import kbart: a SQLite file
// is read through memory-mapped I/O (sqlite.MemoryMapped).
func OpenToLoad(ctx context.Context, dsn string) (kb.Store, error) {
	return open(ctx, dsn, sqlite.MemoryMapped())
}

func open(ctx context.Context, dsn string, opts ...sqlite.Option) (kb.Store, error) {
	if strings.TrimSpace(dsn) == "" {
		return nil, errors.New("empty database name: give a SQLite file path or a postgres:// URL")
	}
	if IsPostgres(dsn) {
		return postgres.Open(ctx, strings.TrimSpace(dsn))
	}
	return sqlite.Open(ctx, dsn, opts...)
}

// Redact returns dsn as it may be shown or logged: a PostgreSQL URL without
// its password (a file path is returned as it is).
func Redact(dsn string) string {
	if !IsPostgres(dsn) {
		return dsn
	}
	u, err := url.Parse(strings.TrimSpace(dsn))
	if err != nil {
		return "postgres://(unparsable URL)"
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "xxxxx")
	}
	q := u.Query()
	if q.Has("password") {
		q.Set("password", "xxxxx")
		u.RawQuery = q.Encode()
	}
	return u.String()
}
