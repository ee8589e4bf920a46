package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// The bulk path of an import (kbsql.BulkWriter) on PostgreSQL: new titles,
// identifiers and resources are written with COPY, a batch in a fixed
// number of round trips whatever its size. A resource the package had is
// deleted and copied in again whole: one index lookup by key and one COPY
// row instead of an UPDATE a row. The hashes the rewritten resources had
// before the import go to a temporary table, which Finish compares with
// their new ones to count the updated resources (SQLite keeps them in
// resources.prev_hash; here that would write every listed resource twice).

// importBatch is how many rows an import matches and writes at a time:
// each batch costs a fixed number of round trips.
const importBatch = 4096

// Import runs fn in one transaction under the import lock, with a COPY
// bulk writer.
func (e engine) Import(ctx context.Context, fn func(kbsql.Tx, kbsql.BulkWriter) error) error {
	return e.s.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock(`+importLockSQL+`)`); err != nil {
			return fmt.Errorf("lock imports: %w", err)
		}
		if _, err := tx.Exec(ctx, `CREATE TEMP TABLE import_prev (title_id bigint NOT NULL, prev_hash bigint NOT NULL) ON COMMIT DROP`); err != nil {
			return fmt.Errorf("import table: %w", err)
		}
		return fn(txQuerier{querier{tx}}, bulk{tx})
	})
}

// ImportPackage imports a package (kbsql.Store.ImportPackage), then
// refreshes the planner's statistics when imports have changed enough
// rows since (analyze.go).
func (s *Store) ImportPackage(ctx context.Context, spec kb.PackageSpec, next func() (kb.ImportRow, error)) (kb.ImportResult, error) {
	res, err := s.Store.ImportPackage(ctx, spec, next)
	if err == nil {
		s.analyzeAfterImport(ctx, res)
	}
	return res, err
}

// bulk writes one import in its transaction.
type bulk struct{ tx pgx.Tx }

func (bulk) BatchSize() int { return importBatch }

// TitleIDs takes n new title ids from the titles' identity sequence.
func (w bulk) TitleIDs(ctx context.Context, n int) ([]int64, error) {
	rows, err := w.tx.Query(ctx, `SELECT nextval(pg_get_serial_sequence('titles', 'id')) FROM generate_series(1, $1)`, n)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, pgx.RowTo[int64])
}

var (
	titleColumns    = []string{"id", "name", "sort_name", "publisher", "sort_publisher", "sort_subjects", "pub_type", "description", "peer_reviewed", "subjects", "contributors", "match_hash"}
	identColumns    = []string{"title_id", "type", "subtype", "value", "norm", "valid"}
	resourceColumns = []string{"package_id", "title_id", "sort_name", "pub_type", "url", "coverage", "embargo_unit", "embargo_value", "kbart", "kbart_hash", "gen"}
)

// Write copies the batch in: titles first (identifiers and resources refer
// to them), then identifiers, then resources.
func (w bulk) Write(ctx context.Context, b *kbsql.ImportBatch) error {
	tx := w.tx
	if len(b.Titles) > 0 {
		rows := make([][]any, len(b.Titles))
		for i, t := range b.Titles {
			p := t.Row
			subjects, contributors := kbsql.TitleJSON(p.Row)
			rows[i] = []any{t.ID, p.Name, t.Sort, p.Publisher, kb.Fold(p.Publisher), kbsql.SortSubjects(p.Row.Subjects), int32(p.PubType),
				p.Row.Description, p.Row.PeerReviewed, subjects, contributors, p.Match}
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"titles"}, titleColumns, pgx.CopyFromRows(rows)); err != nil {
			return fmt.Errorf("create titles: %w", err)
		}
	}
	if len(b.Idents) > 0 {
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"title_identifiers"}, identColumns, pgx.CopyFromSlice(len(b.Idents), func(i int) ([]any, error) {
			x := b.Idents[i]
			return []any{x.TitleID, int32(x.Type), int32(x.Subtype), x.Value, x.Norm, x.Valid}, nil
		})); err != nil {
			return fmt.Errorf("add identifiers: %w", err)
		}
	}
	if len(b.Added) > 0 {
		var (
			tids          []int64
			types, subs   []int32
			values, norms []string
		)
		for _, i := range b.Added {
			tids, types, subs = append(tids, i.TitleID), append(types, int32(i.Type)), append(subs, int32(i.Subtype))
			values, norms = append(values, i.Value), append(norms, i.Norm)
		}
		// Added identifiers are valid ones; a title may have them already.
		if _, err := tx.Exec(ctx, `INSERT INTO title_identifiers(title_id, type, subtype, value, norm, valid)
			SELECT *, true FROM unnest($1::bigint[], $2::int[], $3::int[], $4::text[], $5::text[]) ON CONFLICT DO NOTHING`,
			tids, types, subs, values, norms); err != nil {
			return fmt.Errorf("add identifiers: %w", err)
		}
	}
	if len(b.Resources) == 0 {
		return nil
	}
	var rewrite []int64
	var prev [][]any
	rows := make([][]any, len(b.Resources))
	for i, r := range b.Resources {
		switch r.State {
		case kbsql.ResourcePrior:
			prev = append(prev, []any{r.TitleID, r.PrevHash})
			fallthrough
		case kbsql.ResourceAppend:
			rewrite = append(rewrite, r.TitleID)
		}
		rows[i] = []any{b.PackageID, r.TitleID, r.Sort, int32(r.PubType), r.URL, r.CoverageJSON(), int32(r.EmbargoUnit), int32(r.EmbargoValue),
			r.KBART, int64(r.Hash), int32(b.Gen)}
	}
	if len(rewrite) > 0 {
		if _, err := tx.Exec(ctx, `DELETE FROM resources WHERE package_id = $1 AND title_id = ANY($2)`, b.PackageID, rewrite); err != nil {
			return fmt.Errorf("rewrite resources: %w", err)
		}
	}
	if len(prev) > 0 {
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"import_prev"}, []string{"title_id", "prev_hash"}, pgx.CopyFromRows(prev)); err != nil {
			return fmt.Errorf("rewrite resources: %w", err)
		}
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{"resources"}, resourceColumns, pgx.CopyFromRows(rows)); err != nil {
		return fmt.Errorf("write resources: %w", err)
	}
	return nil
}

// Finish counts the resources whose rows changed and refreshes the
// package's snapshot marks.
func (w bulk) Finish(ctx context.Context, packageID int64) (int, error) {
	var updated int
	if err := w.tx.QueryRow(ctx, `SELECT count(*) FROM import_prev p JOIN resources r ON r.package_id = $1 AND r.title_id = p.title_id
		WHERE r.kbart_hash <> p.prev_hash`, packageID).Scan(&updated); err != nil {
		return 0, fmt.Errorf("count updated resources: %w", err)
	}
	return updated, kbsql.RefreshPackageMarks(ctx, txQuerier{querier{w.tx}}, packageID)
}
