package sqlite

import (
	"context"
	"database/sql"
	"errors"

	"github.com/kbserver/kbserver/internal/kbsql"
)

// Writer returns the store's writer connection, with the pragmas it was
// opened with, for the benchmarks that write around the store's code.
func (s *Store) Writer() *sql.DB { return s.w }

// DeferUpkeep runs the import engine's DeferUpkeep in a transaction
// that it rolls back, and returns the statements that would build what it
// dropped.
func DeferUpkeep(s *Store, tables []string) ([]string, error) {
	var defs []string
	errRollback := errors.New("roll back")
	err := engine{s}.Write(context.Background(), "", func(tx kbsql.Tx) error {
		var err error
		if defs, err = (importEngine{s}).DeferUpkeep(context.Background(), tx, tables); err != nil {
			return err
		}
		return errRollback
	})
	if errors.Is(err, errRollback) {
		err = nil
	}
	return defs, err
}

// Reader returns the store's pool of reader connections.
func (s *Store) Reader() *sql.DB { return s.r }
