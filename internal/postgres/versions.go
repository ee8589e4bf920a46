package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"
)

// bumpVersion adds one to the named version counter, in the caller's
// transaction.
func bumpVersion(ctx context.Context, tx pgx.Tx, name string) error {
	_, err := tx.Exec(ctx, `INSERT INTO versions(name, n) VALUES ($1, 1) ON CONFLICT (name) DO UPDATE SET n = versions.n + 1`, name)
	if err != nil {
		return fmt.Errorf("bump version %s: %w", name, err)
	}
	return nil
}

// customerVersion is the name of a customer's version counter.
func customerVersion(custID string) string { return "c:" + custID }

// CollectionVersion returns a value that changes whenever the customer's
// collection may have: after any import, and after any change of the
// customer's holdings.
func (s *Store) CollectionVersion(ctx context.Context, custID string) (string, error) {
	var kbv, cv int64
	err := s.pool.QueryRow(ctx, `SELECT COALESCE((SELECT n FROM versions WHERE name = 'kb'), 0),
		COALESCE((SELECT n FROM versions WHERE name = $1), 0)`, customerVersion(custID)).Scan(&kbv, &cv)
	if err != nil {
		return "", fmt.Errorf("collection version of %s: %w", custID, err)
	}
	return fmt.Sprintf("%d.%d", kbv, cv), nil
}
