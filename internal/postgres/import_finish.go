package postgres

import (
	"fmt"
)

// removeUnlisted deletes the package's resources that the import did not
// list, the customers' state on them, and the managed titles left in no
// package (their identifiers go with them: ON DELETE CASCADE).
func (imp *importer) removeUnlisted() error {
	ctx, tx := imp.ctx, imp.tx
	rows, err := tx.Query(ctx, `DELETE FROM resources WHERE package_id = $1 AND gen <> $2 RETURNING title_id`, imp.packageID, imp.gen)
	if err != nil {
		return fmt.Errorf("remove resources: %w", err)
	}
	var gone []int64
	for rows.Next() {
		var tid int64
		if err := rows.Scan(&tid); err != nil {
			rows.Close()
			return fmt.Errorf("remove resources: %w", err)
		}
		gone = append(gone, tid)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("remove resources: %w", err)
	}
	if len(gone) == 0 {
		return nil
	}
	imp.res.ResourcesRemoved = len(gone)
	if _, err := tx.Exec(ctx, `DELETE FROM customer_resources cr WHERE cr.package_id = $1 AND cr.title_id = ANY($2)`,
		imp.packageID, gone); err != nil {
		return fmt.Errorf("remove resource state: %w", err)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM titles t WHERE t.id = ANY($1) AND t.customer_id IS NULL
		AND NOT EXISTS (SELECT 1 FROM resources r WHERE r.title_id = t.id)`, gone); err != nil {
		return fmt.Errorf("remove orphan titles: %w", err)
	}
	return nil
}

// finish counts the resources the import changed and updates the
// package's title count and snapshot marks.
func (imp *importer) finish() error {
	ctx, tx := imp.ctx, imp.tx
	if err := tx.QueryRow(ctx, `SELECT count(*) FROM import_prev p JOIN resources r ON r.package_id = $1 AND r.title_id = p.title_id
		WHERE r.kbart_hash <> p.prev_hash`, imp.packageID).Scan(&imp.res.ResourcesUpdated); err != nil {
		return fmt.Errorf("count updated resources: %w", err)
	}
	if _, err := tx.Exec(ctx, `UPDATE packages SET title_count = (SELECT count(*) FROM resources WHERE package_id = $1) WHERE id = $1`,
		imp.packageID); err != nil {
		return fmt.Errorf("count titles: %w", err)
	}
	return refreshPackageMarks(ctx, tx, imp.packageID)
}
