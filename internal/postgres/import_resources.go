package postgres

import (
	"fmt"

	"github.com/kbserver/kbserver/internal/kbsql"
)

// writeResources queues the batch's rows as the package's resources
// (kbsql.ImportResources).
func (imp *importer) writeResources(ps []kbsql.ImportRow, refs []kbsql.ImportTitle) error {
	existing, err := imp.existingResources(refs)
	if err != nil {
		return err
	}
	rs, err := kbsql.ImportResources(ps, refs, existing, imp.gen)
	if err != nil {
		return err
	}
	imp.w.resources = append(imp.w.resources, rs...)
	for _, r := range rs {
		if r.State == kbsql.ResourceNew {
			imp.res.ResourcesAdded++
		}
	}
	return nil
}

// existingResources returns the package's resources of the batch's titles.
func (imp *importer) existingResources(refs []kbsql.ImportTitle) (map[int64]kbsql.PriorResource, error) {
	ids := kbsql.TitleIDs(refs)
	rows, err := imp.tx.Query(imp.ctx, `SELECT title_id, gen, kbart_hash, CASE WHEN gen = $1 THEN kbart ELSE '' END,
		CASE WHEN gen = $1 THEN coverage ELSE '' END, url, embargo_unit, embargo_value
		FROM resources WHERE package_id = $2 AND title_id = ANY($3)`, imp.gen, imp.packageID, ids)
	if err != nil {
		return nil, fmt.Errorf("find resources: %w", err)
	}
	defer rows.Close()
	m := map[int64]kbsql.PriorResource{}
	for rows.Next() {
		var tid int64
		var e kbsql.PriorResource
		if err := rows.Scan(&tid, &e.Gen, &e.Hash, &e.KBART, &e.Coverage, &e.URL, &e.EmbargoUnit, &e.EmbargoValue); err != nil {
			return nil, fmt.Errorf("find resources: %w", err)
		}
		m[tid] = e
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("find resources: %w", err)
	}
	return m, nil
}
