package postgres

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"

	"github.com/kbserver/kbserver/internal/kbsql"
)

// engine is the PostgreSQL engine of the shared store (kbsql.Engine): reads
// go to the pool, writes are transactions holding the customer's lock
// (customerTx).
type engine struct{ s *Store }

var _ kbsql.Engine = engine{}

func (e engine) Read() kbsql.Querier { return querier{e.s.pool} }

// ReadTx runs fn in one read-only repeatable read transaction.
func (e engine) ReadTx(ctx context.Context, fn func(kbsql.Querier) error) error {
	tx, err := e.s.pool.BeginTx(ctx, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly})
	if err != nil {
		return err
	}
	defer tx.Rollback(context.Background())
	return fn(querier{tx})
}

// Exec sends the statements to the pool as one batch, which PostgreSQL
// runs in one implicit transaction.
func (e engine) Exec(ctx context.Context, stmts ...kbsql.Stmt) error {
	return e.s.wrote(kbsql.ExecAll(ctx, querier{e.s.pool}, stmts...))
}

func (e engine) Write(ctx context.Context, custID string, fn func(kbsql.Tx) error) error {
	run := func(tx pgx.Tx) error { return fn(txQuerier{querier{tx}}) }
	if custID == "" {
		return e.s.inTx(ctx, run)
	}
	return e.s.customerTx(ctx, custID, run)
}

func (engine) Dialect() kbsql.Dialect { return dialect{} }

// pgxQuerier is what pgx's pool and transactions have in common.
type pgxQuerier interface {
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// querier runs the shared store's statements with pgx, which caches each
// statement prepared on its connection.
type querier struct{ q pgxQuerier }

func (x querier) Query(ctx context.Context, q string, args ...any) (kbsql.Rows, error) {
	rows, err := x.q.Query(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	return rows, nil
}

func (x querier) QueryRow(ctx context.Context, q string, args ...any) kbsql.Row {
	return row{x.q.QueryRow(ctx, q, args...)}
}

func (x querier) Exec(ctx context.Context, q string, args ...any) (int64, error) {
	tag, err := x.q.Exec(ctx, q, args...)
	return tag.RowsAffected(), err
}

func (x querier) Batch(ctx context.Context, stmts ...kbsql.Stmt) kbsql.Results {
	b := &pgx.Batch{}
	for _, st := range stmts {
		b.Queue(st.SQL, st.Args...)
	}
	return results{x.q.SendBatch(ctx, b)}
}

// row is a pgx row whose Scan says kbsql.ErrNoRows when there is none.
type row struct{ r pgx.Row }

func (r row) Scan(dest ...any) error {
	err := r.r.Scan(dest...)
	if errors.Is(err, pgx.ErrNoRows) {
		return kbsql.ErrNoRows
	}
	return err
}

// results are a batch's results as kbsql.Results.
type results struct{ br pgx.BatchResults }

func (r results) Query() (kbsql.Rows, error) {
	rows, err := r.br.Query()
	if err != nil {
		return nil, err
	}
	return rows, nil
}

func (r results) Exec() (int64, error) {
	tag, err := r.br.Exec()
	return tag.RowsAffected(), err
}

func (r results) Close() error { return r.br.Close() }

// txQuerier is a write transaction.
type txQuerier struct{ querier }

func (txQuerier) Dialect() kbsql.Dialect { return dialect{} }

// CopyRows copies the rows in with COPY.
func (t txQuerier) CopyRows(ctx context.Context, table string, columns []string, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	tx, ok := t.q.(pgx.Tx)
	if !ok {
		return fmt.Errorf("copy rows into %s: not a transaction", table)
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{table}, columns, pgx.CopyFromRows(rows)); err != nil {
		return fmt.Errorf("copy rows into %s: %w", table, err)
	}
	return nil
}

// dialect is PostgreSQL's SQL for what the engines write differently.
type dialect struct{}

func (dialect) InIDs(col, param string) string { return col + ` = ANY(` + param + `::bigint[])` }

func (dialect) InTexts(col, param string) string { return col + ` = ANY(` + param + `::text[])` }

// ERMField reads the member from the body parsed once on write (doc);
// the path's keys are constants of kbsql: plain names, safe in a literal.
func (dialect) ERMField(path []string) string {
	return `(o.doc #>> '{` + strings.Join(path, ",") + `}')`
}

// FoldASCII folds in the "C" collation, whose lower() changes ASCII
// letters only whatever the database's locale, and whose comparisons are
// byte by byte, as SQLite's.
func (dialect) FoldASCII(expr string) string { return `lower(` + expr + ` COLLATE "C")` }

// Now is the time at the statement, not the transaction's start.
func (dialect) Now() string { return `clock_timestamp()` }

func (dialect) JSONArrayLength(expr string) string { return `json_array_length(` + expr + `::json)` }

// IdentifiersJSON aggregates in SQLite's (byte) order of the values.
func (dialect) IdentifiersJSON(title string) string {
	return `COALESCE((SELECT json_agg(json_build_array(i.subtype, i.value) ORDER BY i.type, i.subtype, i.value COLLATE "C")
		FROM title_identifiers i WHERE i.title_id = ` + title + `)::text, '[]')`
}

func (dialect) IdentifierTriplesJSON(title string) string {
	return `COALESCE((SELECT json_agg(json_build_array(i.type::text, i.subtype::text, i.value) ORDER BY i.type, i.subtype, i.value COLLATE "C")
		FROM title_identifiers i WHERE i.title_id = ` + title + `)::text, '[]')`
}

// FixedJoin is a plain JOIN: PostgreSQL's planner orders joins by its
// statistics.
func (dialect) FixedJoin() string { return "JOIN" }

// IndexedBy is the table alone: PostgreSQL's planner chooses the index by
// its statistics.
func (dialect) IndexedBy(table, index string) string { return table }

func (dialect) IsForeignKeyViolation(err error) bool { return isCode(err, codeForeignKeyViolation) }

// ForShare locks the rows a query reads against their writers until the
// transaction ends.
func (dialect) ForShare() string { return " FOR SHARE" }
