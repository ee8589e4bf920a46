package kbsql

import "context"

// ImportEngine is an engine's part of an import.
type ImportEngine interface {
	// BatchSize is how many rows an import stages at a time: the
	// importer's memory is bounded by it, not by the package's size.
	BatchSize() int
	// TitleIDs reserves n new title ids, never given before, in
	// ascending order: in a transaction of its own when tx is nil (other
	// systems keep them); a bulk load gives its transaction, which an
	// engine that keeps the ids in a table row (SQLite) must write them in,
	// and one with a sequence (PostgreSQL) may ignore.
	TitleIDs(ctx context.Context, tx Tx, n int) ([]int64, error)
	// BulkBegin readies tx for a bulk load (SQLite: a larger page
	// cache); done undoes it, in tx, even when the load failed.
	BulkBegin(ctx context.Context, tx Tx) (done func(context.Context) error, err error)
	// Bulk says whether the bulk path (kbimport/bulk.go) can run at all (a
	// PostgreSQL pool of one connection cannot: the load reads through the
	// pool beside its transaction) and whether the engine has one writer,
	// which a bulk load holds from its first row to its last: then it runs
	// only when asked (kb.BulkOn), and renews the import lock's lease in
	// its own transaction.
	Bulk() (possible, oneWriter bool)
	// DeferUpkeep drops, in tx, what the database keeps up row by row
	// for tables and can build from all their rows at once: their
	// secondary indexes but those that enforce a key and, where the
	// engine checks them by a trigger a row (PostgreSQL), their foreign
	// keys. It returns the statements that build them again. A load into
	// an empty knowledge base runs them, in the same tx, once its rows
	// are in: a database builds an index from all its rows, sorted once,
	// and checks a foreign key with one join, far faster than it does
	// either row by row. Readers never see the tables without them:
	// SQLite's keep their snapshot until the commit, PostgreSQL's wait
	// for it (dropping a foreign key also locks the table it refers to).
	DeferUpkeep(ctx context.Context, tx Tx, tables []string) (rebuild []string, err error)
}
