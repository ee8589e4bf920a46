package kbsql

import (
	"context"
	"fmt"
	"slices"
)

// KBVersion is the name of the version counter every import bumps: the
// knowledge base's own data changed.
const KBVersion = "kb"

// TitlesVersion is the name of the version counter of what the title
// index holds (kb.TitleFeed): every import bumps it, and so does every
// write of a custom title's fields or of a custom package's titles.
const TitlesVersion = "titles"

// NamesVersion is the name of the version counter of the vendors' and
// packages' names, which the search index matches (search.Live's
// MatchNames): every write that creates, renames or deletes a vendor or a
// package bumps it.
const NamesVersion = "names"

// CustomerVersion is the name of a customer's version counter, which
// every write of the customer's own data that an answer shows bumps: its
// holdings (selections, customisations, custom packages and titles,
// vendor and package tokens and proxies), its root proxy and labels, and
// its proxies. Notes, ERM objects, profiles, keys, link-out counts and
// holdings snapshots do not: no answer that is kept by version shows them.
func CustomerVersion(custID string) string { return customerVersionPrefix + custID }

// customerVersionPrefix begins the name of every customer's version.
const customerVersionPrefix = "c:"

// titleChangesKept is the number of the titles counter's latest moves
// whose changed titles title_changes keeps; an index older than that
// rebuilds instead of catching up.
const titleChangesKept = 10000

// TitleChangesListed is the most titles one move of the titles counter
// lists; a move that changes more is marked as changing everything.
const TitleChangesListed = 10000

// BumpTitles moves the titles counter (TitlesVersion) on and records in
// title_changes which titles the move changed: ids, or everything when
// ids is empty (an import) or too long. It prunes the records of moves
// too old to be read.
func BumpTitles(ctx context.Context, tx Tx, ids ...int64) error {
	var n int64
	if err := tx.QueryRow(ctx, `INSERT INTO versions(name, n) VALUES ($1, 1)
		ON CONFLICT (name) DO UPDATE SET n = versions.n + 1 RETURNING n`, TitlesVersion).Scan(&n); err != nil {
		return fmt.Errorf("bump version %s: %w", TitlesVersion, err)
	}
	ids = slices.Clone(ids)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	if len(ids) == 0 || len(ids) > TitleChangesListed {
		ids = []int64{0}
	}
	rows := make([][]any, len(ids))
	for i, id := range ids {
		rows[i] = []any{n, id}
	}
	if err := tx.CopyRows(ctx, "title_changes", []string{"version", "title_id"}, rows); err != nil {
		return fmt.Errorf("record title changes: %w", err)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM title_changes WHERE version <= $1`, n-titleChangesKept); err != nil {
		return fmt.Errorf("prune title changes: %w", err)
	}
	return nil
}
