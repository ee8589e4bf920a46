package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/kbserver/kbserver/internal/kbsql"
)

// SQLite's part of an import (kbsql.ImportEngine): batch size, title ids
// from the AUTOINCREMENT sequence, and the titles' full-text indexes.

// importBatch is how many rows an import matches and stages at a time.
const importBatch = 2000

func (e engine) Import() kbsql.ImportEngine { return importEngine{e.s} }

// importEngine is SQLite's part of an import.
type importEngine struct{ s *Store }

func (importEngine) BatchSize() int { return importBatch }

// TitleIDs reserves ids above every id ever given (the largest title's and
// the one AUTOINCREMENT remembers) by moving AUTOINCREMENT's past them, so
// that a custom title a customer creates meanwhile takes another.
func (ie importEngine) TitleIDs(ctx context.Context, n int) ([]int64, error) {
	var last int64
	err := ie.s.inTx(ctx, func(tx *sql.Tx) error {
		if err := tx.QueryRowContext(ctx, `SELECT max(COALESCE((SELECT MAX(id) FROM titles), 0),
			COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'titles'), 0))`).Scan(&last); err != nil {
			return err
		}
		res, err := tx.ExecContext(ctx, `UPDATE sqlite_sequence SET seq = ? WHERE name = 'titles'`, last+int64(n))
		if err != nil {
			return err
		}
		if k, _ := res.RowsAffected(); k == 0 {
			_, err = tx.ExecContext(ctx, `INSERT INTO sqlite_sequence(name, seq) VALUES ('titles', ?)`, last+int64(n))
		}
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("reserve title ids: %w", err)
	}
	ids := make([]int64, n)
	for i := range ids {
		ids[i] = last + 1 + int64(i)
	}
	return ids, nil
}
