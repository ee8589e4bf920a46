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

// DeferIndexes runs the import engine's DeferIndexes in a transaction
// that it rolls back, and returns the definitions of the indexes it
// dropped.
func DeferIndexes(s *Store, tables, keep []string) ([]string, error) {
	var defs []string
	errRollback := errors.New("roll back")
	err := engine{s}.Write(context.Background(), "", func(tx kbsql.Tx) error {
		var err error
		if defs, err = (importEngine{s}).DeferIndexes(context.Background(), tx, tables, keep); err != nil {
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
