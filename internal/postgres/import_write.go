package postgres

import (
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/kbserver/kbserver/internal/kbsql"
)

// importTitle is a title an import batch creates.
type importTitle struct {
	id   int64
	sort string
	p    *kbsql.ImportRow
}

// importIdent is an identifier an import batch gives a title.
type importIdent struct {
	titleID int64
	id      kbsql.Ident
}

// importWriter holds what one import batch writes: new titles with their
// identifiers, identifiers added to titles, and the package's resources.
type importWriter struct {
	titles    []importTitle
	idents    []importIdent // of the new titles: none can exist yet
	added     []importIdent // added to titles by later rows: may exist
	resources []*kbsql.ImportResource
}

func (w *importWriter) reset() {
	w.titles, w.idents, w.added, w.resources = w.titles[:0], w.idents[:0], w.added[:0], w.resources[:0]
}

func (w *importWriter) title(id int64, sort string, p *kbsql.ImportRow) {
	w.titles = append(w.titles, importTitle{id: id, sort: sort, p: p})
}

func (w *importWriter) ident(titleID int64, id kbsql.Ident) {
	w.idents = append(w.idents, importIdent{titleID: titleID, id: id})
}

func (w *importWriter) addIdent(titleID int64, id kbsql.Ident) {
	w.added = append(w.added, importIdent{titleID: titleID, id: id})
}

// begin creates the import's temporary table: the hashes the resources
// this import rewrites had before it, which finish compares with their new
// ones to count the updated resources. (SQLite keeps them in
// resources.prev_hash; here that would write every listed resource twice.)
func (imp *importer) begin() error {
	_, err := imp.tx.Exec(imp.ctx, `CREATE TEMP TABLE import_prev (title_id bigint NOT NULL, prev_hash bigint NOT NULL) ON COMMIT DROP`)
	if err != nil {
		return fmt.Errorf("import table: %w", err)
	}
	return nil
}

var (
	titleColumns    = []string{"id", "name", "sort_name", "publisher", "sort_publisher", "sort_subjects", "pub_type", "description", "peer_reviewed", "subjects", "contributors", "match_hash"}
	identColumns    = []string{"title_id", "type", "subtype", "value", "norm", "valid"}
	resourceColumns = []string{"package_id", "title_id", "sort_name", "pub_type", "url", "coverage", "embargo_unit", "embargo_value", "kbart", "kbart_hash", "gen"}
)

// flush writes the batch with COPY: titles first (identifiers and
// resources refer to them), then identifiers, then resources. A resource
// the package had is deleted and copied in again whole: one index lookup
// by key and one COPY row instead of an UPDATE a row.
func (w *importWriter) flush(imp *importer) error {
	ctx, tx := imp.ctx, imp.tx
	if len(w.titles) > 0 {
		rows := make([][]any, len(w.titles))
		for i, t := range w.titles {
			p := t.p
			subjects, contributors := kbsql.TitleJSON(p.Row)
			rows[i] = []any{t.id, p.Name, t.sort, p.Publisher, kbsql.Fold(p.Publisher), kbsql.SortSubjects(p.Row.Subjects), int32(p.PubType),
				p.Row.Description, p.Row.PeerReviewed, subjects, contributors, p.Match}
		}
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"titles"}, titleColumns, pgx.CopyFromRows(rows)); err != nil {
			return fmt.Errorf("create titles: %w", err)
		}
	}
	if len(w.idents) > 0 {
		if _, err := tx.CopyFrom(ctx, pgx.Identifier{"title_identifiers"}, identColumns, identRows(w.idents)); err != nil {
			return fmt.Errorf("add identifiers: %w", err)
		}
	}
	if len(w.added) > 0 {
		var (
			tids          []int64
			types, subs   []int32
			values, norms []string
		)
		for _, i := range w.added {
			tids, types, subs = append(tids, i.titleID), append(types, int32(i.id.Type)), append(subs, int32(i.id.Subtype))
			values, norms = append(values, i.id.Value), append(norms, i.id.Norm)
		}
		// Only valid identifiers are added, as SQLite's INSERT OR IGNORE.
		if _, err := tx.Exec(ctx, `INSERT INTO title_identifiers(title_id, type, subtype, value, norm, valid)
			SELECT *, true FROM unnest($1::bigint[], $2::int[], $3::int[], $4::text[], $5::text[]) ON CONFLICT DO NOTHING`,
			tids, types, subs, values, norms); err != nil {
			return fmt.Errorf("add identifiers: %w", err)
		}
	}
	if len(w.resources) == 0 {
		return nil
	}
	var rewrite []int64
	var prev [][]any
	rows := make([][]any, len(w.resources))
	for i, r := range w.resources {
		switch r.State {
		case kbsql.ResourcePrior:
			prev = append(prev, []any{r.TitleID, r.PrevHash})
			fallthrough
		case kbsql.ResourceAppend:
			rewrite = append(rewrite, r.TitleID)
		}
		rows[i] = []any{imp.packageID, r.TitleID, r.Sort, int32(r.PubType), r.URL, r.CoverageJSON(), int32(r.EmbargoUnit), int32(r.EmbargoValue), r.KBART, int64(r.Hash), int32(imp.gen)}
	}
	if len(rewrite) > 0 {
		if _, err := tx.Exec(ctx, `DELETE FROM resources WHERE package_id = $1 AND title_id = ANY($2)`, imp.packageID, rewrite); err != nil {
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

// identRows is a COPY source of identifiers.
func identRows(ids []importIdent) pgx.CopyFromSource {
	return pgx.CopyFromSlice(len(ids), func(i int) ([]any, error) {
		x := ids[i]
		return []any{x.titleID, int32(x.id.Type), int32(x.id.Subtype), x.id.Value, x.id.Norm, x.id.Valid}, nil
	})
}
