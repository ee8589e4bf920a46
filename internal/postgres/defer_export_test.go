package postgres

import (
	"context"
	"errors"

	"github.com/kbserver/kbserver/internal/kbsql"
)

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
