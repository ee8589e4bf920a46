package kbsql

import (
	"context"
	"database/sql"
	"errors"
)

// The shared store (Store) runs its SQL through these interfaces, which
// each engine implements over its driver (database/sql for SQLite, pgx for
// PostgreSQL). A statement is written once for both engines, with
// PostgreSQL's numbered parameters ($1, $2, …), which SQLite reads as well,
// and with TRUE and FALSE for flags (SQLite stores them as 1 and 0). What
// an engine must do its own way is a method of Engine or Tx, or a fragment
// of Dialect.

// Querier runs statements.
type Querier interface {
	// Query runs a statement that returns rows.
	Query(ctx context.Context, sql string, args ...any) (Rows, error)
	// QueryRow runs a statement that returns at most one row; its Scan
	// returns ErrNoRows when there is none.
	QueryRow(ctx context.Context, sql string, args ...any) Row
	// Exec runs a statement and returns the number of rows it changed.
	Exec(ctx context.Context, sql string, args ...any) (int64, error)
	// Batch runs the statements in order and returns their results, which
	// the caller reads in the same order and then closes. PostgreSQL sends
	// them in one round trip; SQLite runs each when its result is read.
	Batch(ctx context.Context, stmts ...Stmt) Results
}

// Stmt is one statement of a Batch.
type Stmt struct {
	SQL  string
	Args []any
}

// Results are the results of a Batch, read in order.
type Results interface {
	// Query returns the rows of the next statement.
	Query() (Rows, error)
	// Exec runs the next statement, which returns no rows, and returns the
	// number of rows it changed.
	Exec() (int64, error)
	// Close finishes the batch: it returns the first error of a statement
	// not read.
	Close() error
}

// Rows are the rows of a query, read with Next and Scan and then closed.
type Rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
	Close()
}

// Row is the one row of QueryRow.
type Row interface{ Scan(dest ...any) error }

// ErrNoRows is the error of Row.Scan when the query returned no row.
var ErrNoRows = sql.ErrNoRows

// NoRows reports whether err says a query returned no row.
func NoRows(err error) bool { return errors.Is(err, ErrNoRows) }

// Tx is one write transaction.
type Tx interface {
	Querier
	// Dialect returns the engine's SQL fragments.
	Dialect() Dialect
	// CopyRows inserts rows into the columns of table, one value per
	// column in each row, by the engine's bulk path (SQLite's prepared
	// single-row inserts, PostgreSQL's COPY).
	CopyRows(ctx context.Context, table string, columns []string, rows [][]any) error
}

// Engine is what the shared store needs of a database engine.
type Engine interface {
	// Read returns where the reads outside a transaction go.
	Read() Querier
	// ReadTx runs fn in one read-only transaction: every read of fn sees
	// one state of the database.
	ReadTx(ctx context.Context, fn func(Querier) error) error
	// Exec runs statements that change no customer's holdings (counts
	// of statistics) in one transaction of their own, taking no
	// customer's lock, in one round trip (PostgreSQL runs a batch as one
	// implicit transaction).
	Exec(ctx context.Context, stmts ...Stmt) error
	// Write runs fn in one write transaction, committing when fn returns
	// nil and rolling back otherwise. custID names the customer whose
	// state fn changes ("" for none): the customer's writes run one after
	// another (on SQLite all writes do).
	Write(ctx context.Context, custID string, fn func(Tx) error) error
	// Import returns the engine's part of an import (import_engine.go).
	Import() ImportEngine
	// Dialect returns the SQL fragments the engine writes its own way.
	Dialect() Dialect
}

// Dialect gives the SQL fragments whose text differs between the engines,
// and tells the engine's errors apart.
type Dialect interface {
	// InIDs returns the condition that the integer expression col is one of
	// the ids of the parameter param, whose argument is an []int64.
	InIDs(col, param string) string
	// InTexts is InIDs for a text expression and an []string.
	InTexts(col, param string) string
	// ERMField returns the text of the member at path of the JSON body of
	// the ERM object o (NULL when it has none).
	ERMField(path []string) string
	// Now is the database's clock as a time value to store: one clock for
	// every instance over the database.
	Now() string
	// FoldASCII returns the text expression expr with its ASCII letters in
	// lower case and every other byte as it is, to be compared and ordered
	// byte by byte.
	FoldASCII(expr string) string
	// JSONArrayLength returns the length of the JSON array held as text in
	// expr.
	JSONArrayLength(expr string) string
	// IdentifiersJSON returns the identifiers of the title whose id is the
	// expression title, as JSON text [[subtype,value],...] in type,
	// subtype, value order ("[]" for none).
	IdentifiersJSON(title string) string
	// IdentifierTriplesJSON is IdentifiersJSON with each identifier as
	// [type,subtype,value], all three strings (DecodeIdentifiers reads
	// it).
	IdentifierTriplesJSON(title string) string
	// FixedJoin returns the inner join keyword that keeps the table on its
	// left the outer loop (SQLite's CROSS JOIN; PostgreSQL's planner
	// chooses: JOIN).
	FixedJoin() string
	// IndexedBy returns table read through its index index (SQLite's
	// INDEXED BY, for an index its planner would not choose without
	// statistics; PostgreSQL's planner chooses: the table alone).
	IndexedBy(table, index string) string
	// ForShare returns the clause that ends a SELECT whose rows other
	// transactions may not change until this one ends (PostgreSQL's FOR
	// SHARE; nothing on SQLite, whose one writer excludes the others).
	ForShare() string
	// IsForeignKeyViolation reports whether err is the engine's refusal of
	// a row whose foreign key names no row.
	IsForeignKeyViolation(err error) bool
}
