package postgres

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// importResource is a resource as an import batch writes it.
type importResource struct {
	titleID  int64
	sort     string
	pubType  kb.ResourceType // the title's
	url      string
	coverage []json.RawMessage
	eu       kb.EmbargoUnit
	ev       int
	kbart    string
	hash     uint64
	prevHash int64 // resPrior: the hash before this import
	state    resImportState
}

// coverageJSON returns the resource's coverage column.
func (r *importResource) coverageJSON() string {
	if r.coverage == nil {
		return "[]"
	}
	b, _ := json.Marshal(r.coverage)
	return string(b)
}

type resImportState int

const (
	resNew    resImportState = iota // not in the package before this import
	resPrior                        // in the package before; first listed in this batch
	resAppend                       // already written by this import: more coverage rows
)

// priorResource is what a batch needs to know of a resource in the
// package: its generation and row hash, and for a resource this import
// already wrote (which the batch rewrites whole) its other columns.
type priorResource struct {
	gen      int64
	hash     int64
	kbart    string
	coverage string
	url      string
	eu, ev   int
}

// writeResources queues the batch's rows as the package's resources: the
// first row of a title in this import replaces the resource's data, later
// rows add coverage ranges; an exact duplicate row is skipped.
func (imp *importer) writeResources(ps []kbsql.ImportRow, refs []importTitleRef) error {
	existing, err := imp.existingResources(refs)
	if err != nil {
		return err
	}
	pending := map[int64]*importResource{}
	w := &imp.w
	for i := range ps {
		t, v := refs[i], &ps[i].Row.KBART
		line := strings.Join(v[:], "\t")
		cov := kbsql.CoverageJSON(v)
		r, ok := pending[t.id]
		if !ok {
			r = &importResource{titleID: t.id, sort: t.sort, pubType: t.pubType}
			pending[t.id] = r
			w.resources = append(w.resources, r)
			if ex, ok := existing[t.id]; ok && ex.gen == imp.gen {
				r.state, r.kbart, r.hash = resAppend, ex.kbart, kbsql.FNV64(0, ex.kbart)
				r.url, r.eu, r.ev = ex.url, kb.EmbargoUnit(ex.eu), ex.ev
				if err := json.Unmarshal([]byte(ex.coverage), &r.coverage); err != nil {
					return fmt.Errorf("resource coverage: %w", err)
				}
			} else {
				if ok {
					r.state, r.prevHash = resPrior, ex.hash
				}
				r.url = strings.TrimSpace(v[kbart.TitleURL])
				r.eu, r.ev = kbsql.RowEmbargo(v)
				r.kbart, r.hash = line, kbsql.FNV64(0, line)
				if cov != nil {
					r.coverage = append(r.coverage, cov)
				}
				continue
			}
		}
		if kbsql.HasLine(r.kbart, line) {
			continue // a duplicate row
		}
		r.kbart += "\n" + line
		r.hash = kbsql.FNV64(kbsql.FNV64(r.hash, "\n"), line)
		if cov != nil {
			r.coverage = append(r.coverage, cov)
		}
	}
	for _, r := range w.resources {
		if r.state == resNew {
			imp.res.ResourcesAdded++
		}
	}
	return nil
}

// existingResources returns the package's resources of the batch's titles.
func (imp *importer) existingResources(refs []importTitleRef) (map[int64]priorResource, error) {
	ids := make([]int64, len(refs))
	for i, r := range refs {
		ids[i] = r.id
	}
	rows, err := imp.tx.Query(imp.ctx, `SELECT title_id, gen, kbart_hash, CASE WHEN gen = $1 THEN kbart ELSE '' END,
		CASE WHEN gen = $1 THEN coverage ELSE '' END, url, embargo_unit, embargo_value
		FROM resources WHERE package_id = $2 AND title_id = ANY($3)`, imp.gen, imp.packageID, ids)
	if err != nil {
		return nil, fmt.Errorf("find resources: %w", err)
	}
	defer rows.Close()
	m := map[int64]priorResource{}
	for rows.Next() {
		var tid int64
		var e priorResource
		if err := rows.Scan(&tid, &e.gen, &e.hash, &e.kbart, &e.coverage, &e.url, &e.eu, &e.ev); err != nil {
			return nil, fmt.Errorf("find resources: %w", err)
		}
		m[tid] = e
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("find resources: %w", err)
	}
	return m, nil
}
