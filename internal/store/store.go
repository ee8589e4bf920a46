// Package store opens the store a --db value names: a postgres:// or
// postgresql:// URL opens the PostgreSQL store, anything else is the path of
// a SQLite file.
package store

import (
	"context"
	"errors"
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

// Open opens (and migrates) the store dsn names.
func Open(ctx context.Context, dsn string) (kb.Store, error) {
	if strings.TrimSpace(dsn) == "" {
		return nil, errors.New("empty database name: give a SQLite file path or a postgres:// URL")
	}
	if IsPostgres(dsn) {
		return postgres.Open(ctx, strings.TrimSpace(dsn))
	}
	return sqlite.Open(ctx, dsn)
}
