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

// importIdent is an identifier an import batch adds to a title.
type importIdent struct {
	titleID int64
	id      kbsql.Ident
}

// importWriter holds what one import batch writes: new titles, their and
// known titles' new identifiers, and the package's resources.
type importWriter struct {
	titles    []importTitle
	idents    []importIdent
	resources []*importResource
}

func (w *importWriter) reset() {
	w.titles, w.idents, w.resources = w.titles[:0], w.idents[:0], w.resources[:0]
}

func (w *importWriter) title(id int64, sort string, p *kbsql.ImportRow) {
	w.titles = append(w.titles, importTitle{id: id, sort: sort, p: p})
}

func (w *importWriter) ident(titleID int64, id kbsql.Ident) {
	w.idents = append(w.idents, importIdent{titleID: titleID, id: id})
}

// begin readies the transaction for the import's batches.
func (imp *importer) begin() error { return nil }

// flush writes the batch: titles first (identifiers and resources refer to
// them), in one round trip.
func (w *importWriter) flush(imp *importer) error {
	b := &pgx.Batch{}
	for _, t := range w.titles {
		p := t.p
		subjects, contributors := kbsql.TitleJSON(p.Row)
		b.Queue(`INSERT INTO titles(id, name, sort_name, publisher, sort_publisher, sort_subjects, pub_type, description, peer_reviewed, subjects, contributors, match_hash)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
			t.id, p.Name, t.sort, p.Publisher, kbsql.Fold(p.Publisher), kbsql.SortSubjects(p.Row.Subjects), int(p.PubType),
			p.Row.Description, p.Row.PeerReviewed, subjects, contributors, p.Match)
	}
	for _, i := range w.idents {
		b.Queue(`INSERT INTO title_identifiers(title_id, type, subtype, value, norm, valid) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
			i.titleID, int(i.id.Type), int(i.id.Subtype), i.id.Value, i.id.Norm, i.id.Valid)
	}
	for _, r := range w.resources {
		cov := r.coverageJSON()
		switch r.state {
		case resNew:
			b.Queue(`INSERT INTO resources(package_id, title_id, sort_name, pub_type, url, coverage, embargo_unit, embargo_value, kbart, kbart_hash, gen)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
				imp.packageID, r.titleID, r.sort, int(r.pubType), r.url, cov, int(r.eu), r.ev, r.kbart, int64(r.hash), imp.gen)
		case resPrior:
			b.Queue(`UPDATE resources SET sort_name = $1, url = $2, coverage = $3, embargo_unit = $4, embargo_value = $5,
				kbart = $6, prev_hash = kbart_hash, kbart_hash = $7, gen = $8 WHERE package_id = $9 AND title_id = $10`,
				r.sort, r.url, cov, int(r.eu), r.ev, r.kbart, int64(r.hash), imp.gen, imp.packageID, r.titleID)
		case resAppend:
			b.Queue(`UPDATE resources SET kbart = $1, kbart_hash = $2, coverage = $3 WHERE package_id = $4 AND title_id = $5`,
				r.kbart, int64(r.hash), cov, imp.packageID, r.titleID)
		}
	}
	if b.Len() == 0 {
		return nil
	}
	if err := imp.tx.SendBatch(imp.ctx, b).Close(); err != nil {
		return fmt.Errorf("write titles and resources: %w", err)
	}
	return nil
}
