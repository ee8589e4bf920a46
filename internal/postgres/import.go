package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// PostgreSQL's part of an import (kbsql.ImportEngine): batch size, title
// ids from the titles' identity sequence, and the bulk path for every new
// package.

// importBatch is how many rows an import matches and stages at a time:
// each batch costs a fixed number of round trips.
const importBatch = 4096

func (e engine) Import() kbsql.ImportEngine { return importEngine{e.s} }

// importEngine is PostgreSQL's part of an import.
type importEngine struct{ s *Store }

func (importEngine) BatchSize() int { return importBatch }

// BulkBegin does nothing: the server's settings serve a bulk load.
func (importEngine) BulkBegin(context.Context, kbsql.Tx) (func(context.Context) error, error) {
	return func(context.Context) error { return nil }, nil
}

// Bulk: the bulk path runs when the pool has the two connections it uses
// (its transaction's and its reads'; with pool_max_conns=1 every import
// stages), and other writers go on beside its transaction.
func (ie importEngine) Bulk() (possible, oneWriter bool) {
	return ie.s.pool.Config().MaxConns >= 2, false
}

// TitleIDs takes n new title ids from the titles' identity sequence, which
// no transaction rolls back: tx is not needed.
func (ie importEngine) TitleIDs(ctx context.Context, _ kbsql.Tx, n int) ([]int64, error) {
	rows, err := ie.s.pool.Query(ctx, `SELECT nextval(pg_get_serial_sequence('titles', 'id')) FROM generate_series(1, $1) ORDER BY 1`, n)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int64])
}

// ImportPackage imports a package (kbimport.Importer.ImportPackage), then
// refreshes the planner's statistics when imports have changed enough
// rows since (analyze.go).
func (s *Store) ImportPackage(ctx context.Context, spec kb.PackageSpec, next func() (kb.ImportRow, error)) (kb.ImportResult, error) {
	res, err := s.Importer.ImportPackage(ctx, spec, next)
	if err == nil && !spec.DryRun {
		s.analyzeAfterImport(ctx, res)
	}
	return res, err
}

// DeferUpkeep drops the tables' indexes but those that enforce a key or
// a constraint, then their foreign keys, which PostgreSQL checks by a
// trigger a row, and returns the statements that build the indexes and
// then add the foreign keys again (each checked by one join).
func (importEngine) DeferUpkeep(ctx context.Context, tx kbsql.Tx, tables []string) ([]string, error) {
	return kbsql.DeferUpkeep(ctx, tx, `SELECT name, drop, build FROM (
		SELECT 1 AS kind, c.relname AS name, 'DROP INDEX ' || quote_ident(c.relname) AS drop, pg_get_indexdef(i.indexrelid) AS build
		FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
		WHERE t.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema()) AND t.relname = ANY($1::text[])
		AND NOT i.indisunique AND NOT i.indisprimary AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)
		UNION ALL
		SELECT 2, k.conname, 'ALTER TABLE ' || quote_ident(t.relname) || ' DROP CONSTRAINT ' || quote_ident(k.conname),
		'ALTER TABLE ' || quote_ident(t.relname) || ' ADD CONSTRAINT ' || quote_ident(k.conname) || ' ' || pg_get_constraintdef(k.oid)
		FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid
		WHERE k.contype = 'f' AND t.relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema()) AND t.relname = ANY($1::text[])
	) d ORDER BY kind, name`, tables)
}

// LoadPackages loads packages (kbimport.Importer.Load), each imported by
// ImportPackage into a knowledge base that is not empty; after one load it
// refreshes the planner's statistics, as after an import that changed as
// many rows (analyze.go).
func (s *Store) LoadPackages(ctx context.Context, fn func(kb.ImportFunc) error) (bool, error) {
	var res kb.ImportResult
	one, err := s.Importer.Load(ctx, func(importPackage kb.ImportFunc) error {
		return fn(func(ctx context.Context, spec kb.PackageSpec, next func() (kb.ImportRow, error)) (kb.ImportResult, error) {
			r, err := importPackage(ctx, spec, next)
			res.TitlesCreated += r.TitlesCreated
			res.ResourcesAdded += r.ResourcesAdded
			return r, err
		})
	}, s.ImportPackage)
	if one && err == nil {
		s.analyzeAfterImport(ctx, res)
	}
	return one, err
}
