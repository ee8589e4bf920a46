package sqlite

import (
	"context"
	"database/sql"
	"fmt"
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
