package sqlite

import (
	"context"
	"database/sql"
	"embed"
	"fmt"
	"math"

	"github.com/kbserver/kbserver/internal/kbsql"
)

//go:embed migrations/*.sql
var migrationFS embed.FS

// migrate applies the migrations the database has not seen yet, each in its
// own transaction.
func migrate(ctx context.Context, db *sql.DB) error { return migrateUpTo(ctx, db, math.MaxInt) }

// migrateUpTo applies the migrations up to version last that the database
// has not seen yet (tests make databases of earlier versions with it).
func migrateUpTo(ctx context.Context, db *sql.DB, last int) error {
	if _, err := db.ExecContext(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied TEXT NOT NULL)`); err != nil {
		return fmt.Errorf("create schema_migrations: %w", err)
	}
	ms, err := kbsql.Migrations(migrationFS, "migrations")
	if err != nil {
		return err
	}
	for _, m := range ms {
		if m.Version > last {
			break
		}
		// The writer's transactions take the write lock at BEGIN, so two
		// processes opening a new file apply each migration once.
		tx, err := db.BeginTx(ctx, nil)
		if err != nil {
			return err
		}
		var current int
		if err := tx.QueryRowContext(ctx, `SELECT COALESCE(MAX(version), 0) FROM schema_migrations`).Scan(&current); err != nil {
			tx.Rollback()
			return fmt.Errorf("read schema version: %w", err)
		}
		if m.Version <= current {
			tx.Rollback()
			continue
		}
		if _, err := tx.ExecContext(ctx, m.SQL); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %s: %w", m.Name, err)
		}
		if _, err := tx.ExecContext(ctx, `INSERT INTO schema_migrations(version, name, applied) VALUES (?, ?, datetime('now'))`, m.Version, m.Name); err != nil {
			tx.Rollback()
			return fmt.Errorf("migration %s: %w", m.Name, err)
		}
		if err := tx.Commit(); err != nil {
			return fmt.Errorf("migration %s: %w", m.Name, err)
		}
	}
	return nil
}
