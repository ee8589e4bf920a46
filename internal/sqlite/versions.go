package sqlite

import (
	"context"
	"database/sql"
	"fmt"

	"github.com/kbserver/kbserver/internal/kbsql"
)

// bumpVersion adds one to the named version counter, in the caller's
// transaction.
func bumpVersion(ctx context.Context, tx *sql.Tx, name string) error {
	_, err := tx.ExecContext(ctx, `INSERT INTO versions(name, n) VALUES (?, 1) ON CONFLICT (name) DO UPDATE SET n = n + 1`, name)
	if err != nil {
		return fmt.Errorf("bump version %s: %w", name, err)
	}
	return nil
}

// CollectionVersion returns a value that changes whenever the customer's
// collection may have: after any import, and after any change of the
// customer's holdings.
func (s *Store) CollectionVersion(ctx context.Context, custID string) (string, error) {
	var kbv, cv int64
	err := s.r.QueryRowContext(ctx, `SELECT COALESCE((SELECT n FROM versions WHERE name = '`+kbsql.KBVersion+`'), 0),
		COALESCE((SELECT n FROM versions WHERE name = ?), 0)`, kbsql.CustomerVersion(custID)).Scan(&kbv, &cv)
	if err != nil {
		return "", fmt.Errorf("collection version of %s: %w", custID, err)
	}
	return kbsql.CollectionVersion(kbv, cv), nil
}
