package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/kbserver/kbserver/internal/kbsql"
)

// engine is the SQLite engine of the shared store (kbsql.Engine): reads go
// to the reader pool as prepared statements, writes to the one writer
// connection.
type engine struct{ s *Store }

var _ kbsql.Engine = engine{}

func (e engine) Read() kbsql.Querier { return querier{q: e.s.r, s: e.s} }

// ReadTx runs fn in a read transaction of the reader pool, whose queries
// are prepared once a transaction (a snapshot page runs the same few
// queries for chunk after chunk).
func (e engine) ReadTx(ctx context.Context, fn func(kbsql.Querier) error) error {
	tx, err := e.s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		return err
	}
	defer tx.Rollback()
	q := &txStatements{tx: tx, stmts: map[string]*sql.Stmt{}}
	defer q.close()
	return fn(querier{q: q})
}

// Exec runs the statements on the writer connection: one alone commits
// itself, several run in one transaction.
func (e engine) Exec(ctx context.Context, stmts ...kbsql.Stmt) error {
	if len(stmts) == 1 {
		_, err := querier{q: e.s.w}.Exec(ctx, stmts[0].SQL, stmts[0].Args...)
		return e.s.wrote(err)
	}
	return e.s.inTx(ctx, func(tx *sql.Tx) error { return kbsql.ExecAll(ctx, querier{q: tx}, stmts...) })
}

func (e engine) Write(ctx context.Context, _ string, fn func(kbsql.Tx) error) error {
	return e.s.inTx(ctx, func(tx *sql.Tx) error { return fn(txQuerier{querier{q: tx}}) })
}

func (engine) Dialect() kbsql.Dialect { return dialect{} }

// sqlQuerier is what database/sql's *DB and *Tx have in common.
type sqlQuerier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
	QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

// querier runs the shared store's statements on a database/sql handle.
// When s is set (the reader pool), queries run as statements prepared once
// (statements.go).
type querier struct {
	q sqlQuerier
	s *Store
}

func (x querier) Query(ctx context.Context, q string, args ...any) (kbsql.Rows, error) {
	var rows *sql.Rows
	var err error
	if x.s != nil {
		rows, err = x.s.queryPrepared(ctx, q, sqlArgs(args)...)
	} else {
		rows, err = x.q.QueryContext(ctx, q, sqlArgs(args)...)
	}
	if err != nil {
		return nil, err
	}
	return sqlRows{rows}, nil
}

func (x querier) QueryRow(ctx context.Context, q string, args ...any) kbsql.Row {
	if x.s != nil {
		rows, err := x.s.queryPrepared(ctx, q, sqlArgs(args)...)
		return &sqlRow{rows: rows, err: err}
	}
	return x.q.QueryRowContext(ctx, q, sqlArgs(args)...)
}

func (x querier) Exec(ctx context.Context, q string, args ...any) (int64, error) {
	res, err := x.q.ExecContext(ctx, q, sqlArgs(args)...)
	if err != nil {
		return 0, err
	}
	return res.RowsAffected()
}

func (x querier) Batch(ctx context.Context, stmts ...kbsql.Stmt) kbsql.Results {
	return &results{ctx: ctx, q: x, stmts: stmts}
}

// txStatements runs a transaction's statements prepared once each.
type txStatements struct {
	tx    *sql.Tx
	stmts map[string]*sql.Stmt
}

func (t *txStatements) stmt(ctx context.Context, q string) (*sql.Stmt, error) {
	if st, ok := t.stmts[q]; ok {
		return st, nil
	}
	st, err := t.tx.PrepareContext(ctx, q)
	if err == nil {
		t.stmts[q] = st
	}
	return st, err
}

func (t *txStatements) QueryContext(ctx context.Context, q string, args ...any) (*sql.Rows, error) {
	st, err := t.stmt(ctx, q)
	if err != nil {
		return nil, err
	}
	return st.QueryContext(ctx, args...)
}

func (t *txStatements) QueryRowContext(ctx context.Context, q string, args ...any) *sql.Row {
	st, err := t.stmt(ctx, q)
	if err != nil {
		return t.tx.QueryRowContext(ctx, q, args...) // gives the preparation's error
	}
	return st.QueryRowContext(ctx, args...)
}

func (t *txStatements) ExecContext(ctx context.Context, q string, args ...any) (sql.Result, error) {
	return t.tx.ExecContext(ctx, q, args...)
}

func (t *txStatements) close() {
	for _, st := range t.stmts {
		st.Close()
	}
}

// txQuerier is a write transaction.
type txQuerier struct{ querier }

func (txQuerier) Dialect() kbsql.Dialect { return dialect{} }

// CopyRows inserts the rows with one statement prepared for them.
// (Multi-row VALUES statements measured slower: SQLite keeps a statement
// journal for them.)
func (t txQuerier) CopyRows(ctx context.Context, table string, columns []string, rows [][]any) error {
	if len(rows) == 0 {
		return nil
	}
	tx, ok := t.q.(*sql.Tx)
	if !ok {
		return fmt.Errorf("copy rows into %s: not a transaction", table)
	}
	st, err := tx.PrepareContext(ctx, `INSERT INTO `+table+`(`+strings.Join(columns, ", ")+`) VALUES (?`+strings.Repeat(", ?", len(columns)-1)+`)`)
	if err != nil {
		return fmt.Errorf("copy rows into %s: %w", table, err)
	}
	defer st.Close()
	for _, r := range rows {
		if _, err := st.ExecContext(ctx, sqlArgs(r)...); err != nil {
			return fmt.Errorf("copy rows into %s: %w", table, err)
		}
	}
	return nil
}

// sqlArgs converts the shared store's arguments to what the driver binds:
// a time as RFC 3339 UTC text with nine fraction digits (fixed width, so
// that text order is time order; kbsql.Time reads it back), a list of ids
// or texts as a JSON array (for json_each).
// The caller's slice is left as it is.
func sqlArgs(args []any) []any {
	out := args
	for i, a := range args {
		var v any
		switch a := a.(type) {
		case time.Time:
			v = a.UTC().Format(timeLayout)
		case []int64, []string:
			b, _ := json.Marshal(a)
			v = string(b)
		default:
			continue
		}
		if &out[0] == &args[0] {
			out = append([]any(nil), args...)
		}
		out[i] = v
	}
	return out
}

// timeLayout is the text of a time argument.
const timeLayout = "2006-01-02T15:04:05.000000000Z07:00"

// sqlRows are database/sql rows as kbsql.Rows.
type sqlRows struct{ *sql.Rows }

func (r sqlRows) Close() { r.Rows.Close() }

// sqlRow is the first row of a prepared query, as kbsql.Row.
type sqlRow struct {
	rows *sql.Rows
	err  error
}

func (r *sqlRow) Scan(dest ...any) error {
	if r.err != nil {
		return r.err
	}
	defer r.rows.Close()
	if !r.rows.Next() {
		if err := r.rows.Err(); err != nil {
			return err
		}
		return sql.ErrNoRows
	}
	if err := r.rows.Scan(dest...); err != nil {
		return err
	}
	return r.rows.Close()
}

// results runs a batch's statements one at a time, as they are read.
type results struct {
	ctx   context.Context
	q     querier
	stmts []kbsql.Stmt
	next  int
}

func (r *results) Query() (kbsql.Rows, error) {
	if r.next >= len(r.stmts) {
		return nil, errors.New("batch: no more statements")
	}
	st := r.stmts[r.next]
	r.next++
	return r.q.Query(r.ctx, st.SQL, st.Args...)
}

func (r *results) Exec() (int64, error) {
	if r.next >= len(r.stmts) {
		return 0, errors.New("batch: no more statements")
	}
	st := r.stmts[r.next]
	r.next++
	return r.q.Exec(r.ctx, st.SQL, st.Args...)
}

func (r *results) Close() error { return nil }

// dialect is SQLite's SQL for what the engines write differently.
type dialect struct{}

func (dialect) InIDs(col, param string) string {
	return col + ` IN (SELECT value FROM json_each(` + param + `))`
}

func (dialect) InTexts(col, param string) string { return dialect{}.InIDs(col, param) }

func (dialect) ERMField(path []string) string {
	return `json_extract(o.body, '$.` + strings.Join(path, ".") + `')`
}

func (dialect) FoldASCII(expr string) string { return `lower(` + expr + `)` }

// Now is UTC with milliseconds, fixed width, as kbsql.Time reads it.
func (dialect) Now() string { return `strftime('%Y-%m-%dT%H:%M:%fZ', 'now')` }

func (dialect) JSONArrayLength(expr string) string { return `json_array_length(` + expr + `)` }

func (dialect) IdentifiersJSON(title string) string {
	return `(SELECT json_group_array(json_array(subtype, value)) FROM
		(SELECT subtype, value FROM title_identifiers WHERE title_id = ` + title + ` ORDER BY type, subtype, value))`
}

func (dialect) IdentifierTriplesJSON(title string) string {
	return `(SELECT json_group_array(json_array(CAST(i.type AS TEXT), CAST(i.subtype AS TEXT), i.value)
		ORDER BY i.type, i.subtype, i.value) FROM title_identifiers i WHERE i.title_id = ` + title + `)`
}

// FixedJoin is CROSS JOIN, which SQLite's planner never reorders.
func (dialect) FixedJoin() string { return "CROSS JOIN" }

// IndexedBy is INDEXED BY: SQLite refuses the query if the index cannot
// serve it, so a query and its index cannot drift apart unseen.
func (dialect) IndexedBy(table, index string) string { return table + " INDEXED BY " + index }

// sqliteConstraintForeignKey is SQLITE_CONSTRAINT_FOREIGNKEY, the extended
// result code of a foreign key violation.
const sqliteConstraintForeignKey = 787

func (dialect) IsForeignKeyViolation(err error) bool {
	var e interface{ Code() int }
	return errors.As(err, &e) && e.Code() == sqliteConstraintForeignKey
}

// ForShare is nothing: SQLite's one writer holds every row a write reads.
func (dialect) ForShare() string { return "" }
