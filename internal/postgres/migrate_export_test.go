package postgres

import (
	"context"

	"github.com/jackc/pgx/v5/pgxpool"
)

// MigrateUpTo applies the migrations up to version last, for tests that
// make databases of earlier versions.
func MigrateUpTo(ctx context.Context, pool *pgxpool.Pool, last int) error {
	return migrateUpTo(ctx, pool, last)
}
