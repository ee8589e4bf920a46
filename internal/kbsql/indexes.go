package kbsql

import (
	"context"
	"fmt"
)

// DeferUpkeep runs query, which lists what a load may build after its
// rows are in as rows of (name, the statement that drops it, the
// statement that builds it again), runs each drop in tx and returns the
// statements that build them, in the query's order: the shared half of
// ImportEngine.DeferUpkeep, whose engines differ only in how their
// catalogs are asked.
func DeferUpkeep(ctx context.Context, tx Tx, query string, args ...any) ([]string, error) {
	var names, drops, builds []string
	err := EachRow(ctx, tx, query, args, func(r Rows) error {
		var name, drop, build string
		if err := r.Scan(&name, &drop, &build); err != nil {
			return err
		}
		names, drops, builds = append(names, name), append(drops, drop), append(builds, build)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("defer upkeep: %w", err)
	}
	for i, d := range drops {
		if _, err := tx.Exec(ctx, d); err != nil {
			return nil, fmt.Errorf("defer %s: %w", names[i], err)
		}
	}
	return builds, nil
}
