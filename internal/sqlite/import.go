package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
)

// ImportPackage implements kb.Importer in one write transaction.
func (s *Store) ImportPackage(ctx context.Context, spec kb.PackageSpec, next func() (kb.ImportRow, error)) (kb.ImportResult, error) {
	var res kb.ImportResult
	if strings.TrimSpace(spec.VendorName) == "" || strings.TrimSpace(spec.PackageName) == "" {
		return res, kb.Errorf(kb.CodeMissing, "import: vendor and package names are required")
	}
	if spec.PackageType == kb.PackageCustom {
		return res, kb.Errorf(kb.CodeInvalid, "import: package type Custom is reserved for customers' own packages")
	}
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		imp := &importer{ctx: ctx, tx: tx, res: &res}
		defer imp.close()
		return imp.run(spec, next)
	})
	if err != nil {
		return kb.ImportResult{}, fmt.Errorf("import %s / %s: %w", spec.VendorName, spec.PackageName, err)
	}
	return res, nil
}

// titleRef is a title found or created during an import.
type titleRef struct {
	id   int64
	sort string
}

// seenResource is a resource written by this import.
type seenResource struct {
	id      int64
	hash    uint64   // hash of the kbart text written so far
	oldHash uint64   // hash before the import; 0 for a new resource
	pre     bool     // existed before the import
	lines   []uint64 // hashes of the rows written, to skip duplicate rows
}

// importer holds the state of one ImportPackage call.
type importer struct {
	ctx       context.Context
	tx        *sql.Tx
	res       *kb.ImportResult
	packageID int64

	byNorm  map[string]titleRef // identifier norm → title, cache
	byKey   map[string]titleRef // match key → title, cache
	seen    map[int64]*seenResource
	prior   map[int64]seenResource // title id → resource before the import
	stmts   map[string]*sql.Stmt
	lineBuf strings.Builder
}

const (
	qFindNorm = `SELECT t.id, t.sort_name FROM title_identifiers ti JOIN titles t ON t.id = ti.title_id
		WHERE ti.norm = ? AND ti.valid = 1 AND t.customer_id IS NULL LIMIT 1`
	qFindKey  = `SELECT id, sort_name FROM titles WHERE match_key = ? AND customer_id IS NULL LIMIT 1`
	qInsTitle = `INSERT INTO titles(name, sort_name, publisher, sort_publisher, pub_type, description, peer_reviewed, subjects, contributors, match_key)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`
	qInsIdent = `INSERT OR IGNORE INTO title_identifiers(title_id, type, subtype, value, norm, valid) VALUES (?, ?, ?, ?, ?, ?)`
	qInsRes   = `INSERT INTO resources(package_id, title_id, sort_name, url, coverage, embargo_unit, embargo_value, kbart, kbart_hash)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`
	qUpdRes = `UPDATE resources SET sort_name = ?, url = ?, coverage = ?, embargo_unit = ?, embargo_value = ?, kbart = ?, kbart_hash = ?
		WHERE id = ?`
	qAppendRes = `UPDATE resources SET kbart = kbart || char(10) || ?, kbart_hash = ?,
		coverage = CASE WHEN ? = '' THEN coverage ELSE json_insert(coverage, '$[#]', json(?)) END WHERE id = ?`
)

func (imp *importer) stmt(q string) (*sql.Stmt, error) {
	if st, ok := imp.stmts[q]; ok {
		return st, nil
	}
	st, err := imp.tx.PrepareContext(imp.ctx, q)
	if err != nil {
		return nil, err
	}
	imp.stmts[q] = st
	return st, nil
}

func (imp *importer) close() {
	for _, st := range imp.stmts {
		st.Close()
	}
}

func (imp *importer) run(spec kb.PackageSpec, next func() (kb.ImportRow, error)) error {
	imp.stmts = map[string]*sql.Stmt{}
	imp.byNorm = map[string]titleRef{}
	imp.byKey = map[string]titleRef{}
	imp.seen = map[int64]*seenResource{}
	if err := imp.ensurePackage(spec); err != nil {
		return err
	}
	if err := imp.loadPrior(); err != nil {
		return err
	}
	var maxTitle int64
	if err := imp.tx.QueryRowContext(imp.ctx, `SELECT COALESCE(MAX(id), 0) FROM titles`).Scan(&maxTitle); err != nil {
		return err
	}
	for {
		if err := imp.ctx.Err(); err != nil {
			return err
		}
		row, err := next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		imp.res.Rows++
		if err := imp.row(&row); err != nil {
			return fmt.Errorf("line %d: %w", row.Line, err)
		}
	}
	if err := imp.removeUnlisted(); err != nil {
		return err
	}
	for _, sr := range imp.seen {
		if sr.pre && sr.hash != sr.oldHash {
			imp.res.ResourcesUpdated++
		}
	}
	return imp.finish(maxTitle)
}

// ensurePackage finds or creates the vendor and the package by name.
func (imp *importer) ensurePackage(spec kb.PackageSpec) error {
	ctx, tx := imp.ctx, imp.tx
	vname, pname := strings.TrimSpace(spec.VendorName), strings.TrimSpace(spec.PackageName)
	err := tx.QueryRowContext(ctx, `SELECT id FROM vendors WHERE customer_id IS NULL AND sort_name = ?`, fold(vname)).Scan(&imp.res.VendorID)
	if errors.Is(err, sql.ErrNoRows) {
		r, err := tx.ExecContext(ctx, `INSERT INTO vendors(name, sort_name) VALUES (?, ?)`, vname, fold(vname))
		if err != nil {
			return fmt.Errorf("create vendor: %w", err)
		}
		imp.res.VendorID, _ = r.LastInsertId()
		if _, err := tx.ExecContext(ctx, `INSERT INTO vendor_fts(rowid, name) VALUES (?, ?)`, imp.res.VendorID, vname); err != nil {
			return fmt.Errorf("index vendor: %w", err)
		}
	} else if err != nil {
		return fmt.Errorf("find vendor: %w", err)
	}
	ct := spec.ContentType
	if ct == kb.ContentAll {
		ct = kb.ContentUnknown
	}
	err = tx.QueryRowContext(ctx, `SELECT id FROM packages WHERE vendor_id = ? AND sort_name = ?`, imp.res.VendorID, fold(pname)).Scan(&imp.packageID)
	switch {
	case errors.Is(err, sql.ErrNoRows):
		r, err := tx.ExecContext(ctx, `INSERT INTO packages(vendor_id, name, sort_name, content_type, package_type) VALUES (?, ?, ?, ?, ?)`,
			imp.res.VendorID, pname, fold(pname), int(ct), int(spec.PackageType))
		if err != nil {
			return fmt.Errorf("create package: %w", err)
		}
		imp.packageID, _ = r.LastInsertId()
		if _, err := tx.ExecContext(ctx, `INSERT INTO package_fts(rowid, name) VALUES (?, ?)`, imp.packageID, pname); err != nil {
			return fmt.Errorf("index package: %w", err)
		}
	case err != nil:
		return fmt.Errorf("find package: %w", err)
	default:
		if _, err := tx.ExecContext(ctx, `UPDATE packages SET content_type = ?, package_type = ? WHERE id = ?`, int(ct), int(spec.PackageType), imp.packageID); err != nil {
			return fmt.Errorf("update package: %w", err)
		}
	}
	imp.res.PackageID = imp.packageID
	return nil
}

// loadPrior reads the package's resources as they were before the import.
func (imp *importer) loadPrior() error {
	rows, err := imp.tx.QueryContext(imp.ctx, `SELECT title_id, id, kbart_hash FROM resources WHERE package_id = ?`, imp.packageID)
	if err != nil {
		return fmt.Errorf("load package resources: %w", err)
	}
	defer rows.Close()
	imp.prior = map[int64]seenResource{}
	for rows.Next() {
		var tid int64
		var r seenResource
		var h int64
		if err := rows.Scan(&tid, &r.id, &h); err != nil {
			return err
		}
		r.oldHash, r.pre = uint64(h), true
		imp.prior[tid] = r
	}
	return rows.Err()
}

// ident is one identifier of an import row.
type ident struct {
	typ     kb.IdentifierType
	subtype kb.IdentifierSubtype
	value   string
	norm    string
	valid   bool
}

// rowIdents reads the print and online identifiers of a row. Values that
// are neither ISSN- nor ISBN-shaped (DOIs, free text) are not identifiers;
// they stay in the stored KBART row.
func rowIdents(v *[kb.KBARTFieldCount]string) []ident {
	var ids []ident
	for _, f := range []struct {
		field   kbart.Field
		subtype kb.IdentifierSubtype
	}{{kbart.PrintIdentifier, kb.SubtypePrint}, {kbart.OnlineIdentifier, kb.SubtypeOnline}} {
		s := strings.TrimSpace(v[f.field])
		if s == "" {
			continue
		}
		id := ident{subtype: f.subtype, value: s}
		switch {
		case kb.ISSNShaped(s):
			id.typ = kb.IdentISSN
			id.norm, id.valid = kb.NormalizeISSN(s)
		case kb.ISBNShaped(s):
			id.typ = kb.IdentISBN
			id.norm, id.valid = kb.NormalizeISBN(s)
		default:
			continue
		}
		if !id.valid {
			id.norm = strings.ToUpper(s)
		}
		ids = append(ids, id)
	}
	return ids
}

func matchKey(name, publisher string, t kb.ResourceType) string {
	return fold(name) + "|" + fold(publisher) + "|" + t.String()
}

// row imports one row.
func (imp *importer) row(row *kb.ImportRow) error {
	v := &row.KBART
	for i := range v {
		if strings.ContainsAny(v[i], "\t\r\n") {
			v[i] = strings.NewReplacer("\t", " ", "\r", " ", "\n", " ").Replace(v[i])
		}
	}
	name := strings.TrimSpace(v[kbart.PublicationTitle])
	if name == "" {
		return kb.Errorf(kb.CodeMissing, "publication_title is empty")
	}
	pubType := row.PubType
	if pubType == kb.ResourceAll {
		pubType = kb.ResourceTypeFromKBART(v[kbart.PublicationType])
	}
	publisher := strings.TrimSpace(v[kbart.PublisherName])
	ids := rowIdents(v)
	t, err := imp.findTitle(ids, name, publisher, pubType)
	if err != nil {
		return err
	}
	if t.id == 0 {
		if t, err = imp.createTitle(row, ids, name, publisher, pubType); err != nil {
			return err
		}
		imp.res.TitlesCreated++
	} else {
		imp.res.TitlesMatched++
		// Identifiers this row adds to a known title.
		st, err := imp.stmt(qInsIdent)
		if err != nil {
			return err
		}
		for _, id := range ids {
			if id.valid {
				if _, ok := imp.byNorm[id.norm]; ok {
					continue
				}
				imp.byNorm[id.norm] = t
			}
			if _, err := st.ExecContext(imp.ctx, t.id, int(id.typ), int(id.subtype), id.value, id.norm, boolInt(id.valid)); err != nil {
				return fmt.Errorf("add identifier: %w", err)
			}
		}
	}
	return imp.writeResource(t, v)
}

// findTitle matches a row to an existing managed title: by any valid
// identifier, or, for a row without one, by name, publisher and type.
func (imp *importer) findTitle(ids []ident, name, publisher string, pt kb.ResourceType) (titleRef, error) {
	hasValid := false
	for _, id := range ids {
		if !id.valid {
			continue
		}
		hasValid = true
		if t, ok := imp.byNorm[id.norm]; ok {
			return t, nil
		}
		st, err := imp.stmt(qFindNorm)
		if err != nil {
			return titleRef{}, err
		}
		var t titleRef
		err = st.QueryRowContext(imp.ctx, id.norm).Scan(&t.id, &t.sort)
		if err == nil {
			imp.byNorm[id.norm] = t
			return t, nil
		}
		if !errors.Is(err, sql.ErrNoRows) {
			return titleRef{}, fmt.Errorf("match identifier: %w", err)
		}
	}
	if hasValid {
		return titleRef{}, nil
	}
	key := matchKey(name, publisher, pt)
	if t, ok := imp.byKey[key]; ok {
		return t, nil
	}
	st, err := imp.stmt(qFindKey)
	if err != nil {
		return titleRef{}, err
	}
	var t titleRef
	err = st.QueryRowContext(imp.ctx, key).Scan(&t.id, &t.sort)
	if err == nil {
		imp.byKey[key] = t
		return t, nil
	}
	if !errors.Is(err, sql.ErrNoRows) {
		return titleRef{}, fmt.Errorf("match title: %w", err)
	}
	return titleRef{}, nil
}

func pairsJSON[T any](xs []T, pair func(T) [2]string) string {
	if len(xs) == 0 {
		return ""
	}
	ps := make([][2]string, len(xs))
	for i, x := range xs {
		ps[i] = pair(x)
	}
	b, _ := json.Marshal(ps)
	return string(b)
}

func (imp *importer) createTitle(row *kb.ImportRow, ids []ident, name, publisher string, pt kb.ResourceType) (titleRef, error) {
	st, err := imp.stmt(qInsTitle)
	if err != nil {
		return titleRef{}, err
	}
	t := titleRef{sort: fold(name)}
	key := matchKey(name, publisher, pt)
	subjects := pairsJSON(row.Subjects, func(s kb.Subject) [2]string { return [2]string{s.Type, s.Name} })
	contributors := pairsJSON(row.Contributors, func(c kb.Contributor) [2]string { return [2]string{c.Type, c.Name} })
	if len(row.Contributors) == 0 {
		if a := strings.TrimSpace(row.KBART[kbart.FirstAuthor]); a != "" {
			contributors = pairsJSON([]string{a}, func(s string) [2]string { return [2]string{"Author", s} })
		}
	}
	r, err := st.ExecContext(imp.ctx, name, t.sort, publisher, fold(publisher), int(pt), row.Description,
		boolInt(row.PeerReviewed), subjects, contributors, key)
	if err != nil {
		return titleRef{}, fmt.Errorf("create title: %w", err)
	}
	if t.id, err = r.LastInsertId(); err != nil {
		return titleRef{}, err
	}
	imp.byKey[key] = t
	ist, err := imp.stmt(qInsIdent)
	if err != nil {
		return titleRef{}, err
	}
	for _, id := range ids {
		if id.valid {
			imp.byNorm[id.norm] = t
		}
		if _, err := ist.ExecContext(imp.ctx, t.id, int(id.typ), int(id.subtype), id.value, id.norm, boolInt(id.valid)); err != nil {
			return titleRef{}, fmt.Errorf("add identifier: %w", err)
		}
	}
	return t, nil
}

// fnv64 extends an FNV-1a hash with s.
func fnv64(h uint64, s string) uint64 {
	if h == 0 {
		h = 14695981039346656037
	}
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return h
}

// writeResource writes the row into the title's resource in the package:
// the first row of a title in this import replaces the resource's data,
// later rows add coverage ranges.
func (imp *importer) writeResource(t titleRef, v *[kb.KBARTFieldCount]string) error {
	imp.lineBuf.Reset()
	for i, s := range v {
		if i > 0 {
			imp.lineBuf.WriteByte('\t')
		}
		imp.lineBuf.WriteString(s)
	}
	line := imp.lineBuf.String()
	lh := fnv64(0, line)
	cov := ""
	if c, ok := kb.CoverageFromKBART(v[kbart.DateFirstIssueOnline], v[kbart.DateLastIssueOnline]); ok {
		b, _ := json.Marshal([2]string{c.Begin, c.End})
		cov = string(b)
	}
	if sr, ok := imp.seen[t.id]; ok {
		for _, h := range sr.lines {
			if h == lh {
				return nil // a duplicate row
			}
		}
		sr.lines = append(sr.lines, lh)
		sr.hash = fnv64(fnv64(sr.hash, "\n"), line)
		st, err := imp.stmt(qAppendRes)
		if err != nil {
			return err
		}
		_, err = st.ExecContext(imp.ctx, line, int64(sr.hash), cov, cov, sr.id)
		return err
	}
	coverage := "[]"
	if cov != "" {
		coverage = "[" + cov + "]"
	}
	var eu kb.EmbargoUnit
	var ev int
	if e, ok := kbart.ParseEmbargo(v[kbart.EmbargoInfo]); ok && e.Period.Value > 0 {
		eu, ev = embargoUnit(e.Period.Unit), e.Period.Value
	}
	url := strings.TrimSpace(v[kbart.TitleURL])
	sr := &seenResource{hash: lh, lines: []uint64{lh}}
	if p, ok := imp.prior[t.id]; ok {
		sr.id, sr.pre, sr.oldHash = p.id, true, p.oldHash
		st, err := imp.stmt(qUpdRes)
		if err != nil {
			return err
		}
		if _, err := st.ExecContext(imp.ctx, t.sort, url, coverage, int(eu), ev, line, int64(lh), p.id); err != nil {
			return fmt.Errorf("update resource: %w", err)
		}
	} else {
		st, err := imp.stmt(qInsRes)
		if err != nil {
			return err
		}
		r, err := st.ExecContext(imp.ctx, imp.packageID, t.id, t.sort, url, coverage, int(eu), ev, line, int64(lh))
		if err != nil {
			return fmt.Errorf("add resource: %w", err)
		}
		sr.id, _ = r.LastInsertId()
		imp.res.ResourcesAdded++
	}
	imp.seen[t.id] = sr
	return nil
}

func embargoUnit(u byte) kb.EmbargoUnit {
	switch u {
	case 'D', 'd':
		return kb.EmbargoDays
	case 'W', 'w':
		return kb.EmbargoWeeks
	case 'M', 'm':
		return kb.EmbargoMonths
	case 'Y', 'y':
		return kb.EmbargoYears
	}
	return kb.EmbargoNone
}

// removeUnlisted deletes the package's resources that the import did not
// list, the customers' state on them, and titles left in no package.
func (imp *importer) removeUnlisted() error {
	for tid, p := range imp.prior {
		if _, ok := imp.seen[tid]; ok {
			continue
		}
		if _, err := imp.tx.ExecContext(imp.ctx, `DELETE FROM resources WHERE id = ?`, p.id); err != nil {
			return fmt.Errorf("remove resource: %w", err)
		}
		if _, err := imp.tx.ExecContext(imp.ctx, `DELETE FROM customer_resources WHERE package_id = ? AND title_id = ?`, imp.packageID, tid); err != nil {
			return fmt.Errorf("remove resource state: %w", err)
		}
		imp.res.ResourcesRemoved++
		if err := deleteOrphanTitle(imp.ctx, imp.tx, tid); err != nil {
			return err
		}
	}
	return nil
}

// deleteOrphanTitle deletes a managed title that is in no package any more.
func deleteOrphanTitle(ctx context.Context, tx *sql.Tx, tid int64) error {
	r, err := tx.ExecContext(ctx, `DELETE FROM titles WHERE id = ? AND customer_id IS NULL
		AND NOT EXISTS (SELECT 1 FROM resources WHERE title_id = ?)`, tid, tid)
	if err != nil {
		return fmt.Errorf("remove title: %w", err)
	}
	if n, _ := r.RowsAffected(); n == 0 {
		return nil
	}
	for _, q := range []string{`DELETE FROM title_fts WHERE rowid = ?`, `DELETE FROM title_tri WHERE rowid = ?`} {
		if _, err := tx.ExecContext(ctx, q, tid); err != nil {
			return fmt.Errorf("unindex title: %w", err)
		}
	}
	return nil
}

// finish indexes the titles the import created (one set-based statement per
// index, much faster than a row at a time) and updates the title count.
func (imp *importer) finish(maxTitle int64) error {
	ctx, tx := imp.ctx, imp.tx
	if _, err := tx.ExecContext(ctx, `INSERT INTO title_fts(rowid, name, publisher, subjects)
		SELECT id, name, publisher, COALESCE((SELECT group_concat(json_extract(value, '$[1]'), ' ; ') FROM json_each(CASE WHEN subjects = '' THEN '[]' ELSE subjects END)), '')
		FROM titles WHERE id > ?`, maxTitle); err != nil {
		return fmt.Errorf("index titles: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `INSERT INTO title_tri(rowid, name, publisher) SELECT id, name, publisher FROM titles WHERE id > ?`, maxTitle); err != nil {
		return fmt.Errorf("index titles: %w", err)
	}
	if _, err := tx.ExecContext(ctx, `UPDATE packages SET title_count = (SELECT count(*) FROM resources WHERE package_id = ?) WHERE id = ?`,
		imp.packageID, imp.packageID); err != nil {
		return fmt.Errorf("count titles: %w", err)
	}
	return nil
}
