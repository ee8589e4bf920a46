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
