package postgres

import (
	"context"
	"embed"
	"fmt"
	"math"

	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/kbserver/kbserver/internal/kbsql"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// migrate applies the migrations the database has not seen yet, each in its
// own transaction, holding a session advisory lock throughout: instances
// that start at once wait for the first to finish, then find nothing left
// to do.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	return migrateUpTo(ctx, pool, math.MaxInt)
}

// migrateUpTo applies the migrations up to version last that the database
// has not seen yet (tests make databases of earlier versions with it).
func migrateUpTo(ctx context.Context, pool *pgxpool.Pool, last int) error {
	conn, err := pool.Acquire(ctx)
	if err != nil {
		return err
	}
	defer conn.Release()
	if _, err := conn.Exec(ctx, `SELECT pg_advisory_lock(`+migrateLockSQL+`)`); err != nil {
		return fmt.Errorf("migration lock: %w", err)
	}
	defer conn.Exec(context.Background(), `SELECT pg_advisory_unlock(`+migrateLockSQL+`)`)
	if _, err := conn.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version integer PRIMARY KEY, name text NOT NULL, applied timestamptz NOT NULL DEFAULT now())`); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	ms, err := kbsql.Migrations(migrationFS, "migrations")
	if err != nil {
		return err
	}
	var current int
	if err := conn.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&current); err != nil {
		return fmt.Errorf("read schema version: %w", err)
	}
	for _, m := range ms {
		if m.Version > last {
			break
		}
		if m.Version <= current {
			continue
		}
		tx, err := conn.Begin(ctx)
		if err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, m.SQL); err != nil {
			tx.Rollback(context.Background())
			return fmt.Errorf("migration %s: %w", m.Name, err)
		}
		if _, err := tx.Exec(ctx, `INSERT INTO schema_migrations(version, name) VALUES ($1, $2)`, m.Version, m.Name); err != nil {
			tx.Rollback(context.Background())
			return fmt.Errorf("migration %s: %w", m.Name, err)
		}
		if err := tx.Commit(ctx); err != nil {
			return fmt.Errorf("migration %s: %w", m.Name, err)
		}
	}
	return nil
}

// SchemaVersion returns the newest migration applied and the newest this
// build knows: a store is current when they are equal.
func (s *Store) SchemaVersion(ctx context.Context) (applied, known int, err error) {
	ms, err := kbsql.Migrations(migrationFS, "migrations")
	if err != nil {
		return 0, 0, err
	}
	if len(ms) > 0 {
		known = ms[len(ms)-1].Version
	}
	err = s.pool.QueryRow(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&applied)
	return applied, known, err
}
