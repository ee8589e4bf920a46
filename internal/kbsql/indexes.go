package kbsql

import (
	"context"
	"fmt"
	"strings"
)

// DeferIndexes runs query, which lists indexes as rows of (name,
// definition), drops each in tx and returns their definitions: the
// shared half of ImportEngine.DeferIndexes, whose engines differ only in
// how their catalogs are asked.
func DeferIndexes(ctx context.Context, tx Tx, query string, args ...any) ([]string, error) {
	var names, defs []string
	err := EachRow(ctx, tx, query, args, func(r Rows) error {
		var name, def string
		if err := r.Scan(&name, &def); err != nil {
			return err
		}
		names, defs = append(names, name), append(defs, def)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("defer indexes: %w", err)
	}
	for _, n := range names {
		if _, err := tx.Exec(ctx, `DROP INDEX "`+strings.ReplaceAll(n, `"`, `""`)+`"`); err != nil {
			return nil, fmt.Errorf("defer index %s: %w", n, err)
		}
	}
	return defs, nil
}
