package kbimport

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
	"github.com/kbserver/kbserver/internal/kbsnapshot"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// The second phase of an import: the staged rows, title by title in title
// id order, are compared with the package's resources and with the titles
// the package owns, and what changes is staged in import_delta (with the
// change records to write), a chunk of titles at a time. The package's
// snapshot marks are computed on the way, since every title of the
// package after the import passes by in order.

// Kinds of import_delta rows.
const (
	deltaAdd      = 1 // a resource to insert
	deltaUpdate   = 2 // a resource to rewrite
	deltaRemove   = 3 // a resource to retire
	deltaTitle    = 4 // a title's name, publisher or type to change
	deltaUnident  = 5 // an identifier a title loses
	deltaMark     = 6 // a snapshot mark: title_id and its row offset (kbart_hash)
	deltaNoRecord = 7 // a change record only (a package's first import)
)

// diffChunk is how many staged rows the diff reads at a time.
const diffChunk = 4096

// stagedRow is a row of import_rows.
type stagedRow struct {
	title      int64
	seq        int64
	providerID string
	url        string
	name       string
	publisher  string
	pubType    kb.ResourceType
	kbart      string
	keep       bool
}

// liveResource is a resource of the package before the import.
type liveResource struct {
	title      int64
	url        string
	coverage   string
	unit, val  int
	kbart      string
	hash       int64
	providerID string
}

// liveTitle is what the diff reads of a title the rows matched.
type liveTitle struct {
	name, publisher string
	pubType         kb.ResourceType
	source          *int64
	idents          []Ident // all of them, valid or not
}

// differ holds the state of the diff.
type differ struct {
	imp    *importer
	delta  [][]any
	idents [][]any
	offset int64 // KBART rows of the package so far, in title id order
	count  int64 // resources of the package so far
	marks  bool  // the package's resources change
}

// diff compares the staged rows with the package and stages the delta.
func (imp *importer) diff(ctx context.Context) error {
	df := &differ{imp: imp}
	q := imp.s.e.Read()
	var after int64 = -1 << 62 // title ids are positive; staged rows of last chunk end here
	for {
		rows, err := kbsql.QueryAll(ctx, q, `SELECT title_id, seq, provider_id, url, name, publisher, pub_type, kbart, keep FROM import_rows
			WHERE import_id = $1 AND title_id > $2 ORDER BY title_id, seq LIMIT $3`, []any{imp.id, after, diffChunk + 1}, scanStagedRow)
		if err != nil {
			return fmt.Errorf("diff: %w", err)
		}
		last := len(rows) <= diffChunk
		if !last {
			// The chunk ends with whole titles: the last one's rows may
			// go on; read them with the next chunk, or all of them when
			// one title fills the chunk.
			end := rows[len(rows)-1].title
			cut := len(rows)
			for cut > 0 && rows[cut-1].title == end {
				cut--
			}
			if cut == 0 {
				rows, err = kbsql.QueryAll(ctx, q, `SELECT title_id, seq, provider_id, url, name, publisher, pub_type, kbart, keep FROM import_rows
					WHERE import_id = $1 AND title_id = $2 ORDER BY seq`, []any{imp.id, end}, scanStagedRow)
				if err != nil {
					return fmt.Errorf("diff: %w", err)
				}
			} else {
				rows = rows[:cut]
			}
		}
		hi := int64(1<<62 - 1)
		if !last {
			hi = rows[len(rows)-1].title
		}
		if err := df.chunk(ctx, rows, after, hi); err != nil {
			return err
		}
		if err := df.flush(ctx); err != nil {
			return err
		}
		if last {
			break
		}
		after = hi
	}
	return df.finish(ctx)
}

func scanStagedRow(r kbsql.Rows) (stagedRow, error) {
	var s stagedRow
	var pt int
	err := r.Scan(&s.title, &s.seq, &s.providerID, &s.url, &s.name, &s.publisher, &pt, &s.kbart, &s.keep)
	s.pubType = kb.ResourceType(pt)
	return s, err
}

// chunk diffs the titles with ids in (lo, hi]: the staged rows (of those
// titles) and the package's resources in that range.
func (df *differ) chunk(ctx context.Context, rows []stagedRow, lo, hi int64) error {
	imp := df.imp
	q, d, P := imp.s.e.Read(), imp.s.d, imp.packageID
	live := map[int64]liveResource{}
	var liveIDs []int64
	if P != 0 {
		err := kbsql.EachRow(ctx, q, `SELECT title_id, url, coverage, embargo_unit, embargo_value, kbart, kbart_hash, provider_id FROM resources
			WHERE package_id = $1 AND title_id > $2 AND title_id <= $3 ORDER BY title_id`, []any{P, lo, hi}, func(r kbsql.Rows) error {
			var l liveResource
			if err := r.Scan(&l.title, &l.url, &l.coverage, &l.unit, &l.val, &l.kbart, &l.hash, &l.providerID); err != nil {
				return err
			}
			live[l.title] = l
			liveIDs = append(liveIDs, l.title)
			return nil
		})
		if err != nil {
			return fmt.Errorf("diff: resources: %w", err)
		}
	}
	// The titles the rows matched (new ones are staged, and not read).
	var ids []int64
	for i, r := range rows {
		if i == 0 || r.title != rows[i-1].title {
			ids = append(ids, r.title)
		}
	}
	titles, err := readTitles(ctx, q, d, P, ids)
	if err != nil {
		return err
	}
	restorable := map[int64]bool{}
	if P != 0 && len(ids) > 0 {
		err := kbsql.EachRow(ctx, q, `SELECT DISTINCT title_id FROM retired_customer_resources WHERE package_id = $1 AND `+d.InIDs("title_id", "$2"),
			[]any{P, ids}, func(r kbsql.Rows) error {
				var id int64
				if err := r.Scan(&id); err != nil {
					return err
				}
				restorable[id] = true
				return nil
			})
		if err != nil {
			return fmt.Errorf("diff: retired state: %w", err)
		}
	}
	// Walk the staged titles and the package's resources in title order.
	i := 0
	li := 0
	for i < len(rows) || li < len(liveIDs) {
		switch {
		case li < len(liveIDs) && (i == len(rows) || liveIDs[li] < rows[i].title):
			df.unlisted(live[liveIDs[li]])
			li++
		default:
			j := i
			for j < len(rows) && rows[j].title == rows[i].title {
				j++
			}
			t := rows[i].title
			l, had := live[t]
			if had {
				li++
			}
			if err := df.title(rows[i:j], l, had, titles[t], restorable[t]); err != nil {
				return err
			}
			i = j
		}
	}
	return nil
}

// readTitles reads the managed titles among ids (new ones are staged, and
// not read), with the identifiers of those that package P owns.
func readTitles(ctx context.Context, q kbsql.Querier, d kbsql.Dialect, P int64, ids []int64) (map[int64]*liveTitle, error) {
	titles := map[int64]*liveTitle{}
	if len(ids) == 0 {
		return titles, nil
	}
	err := kbsql.EachRow(ctx, q, `SELECT id, name, publisher, pub_type, source_package_id FROM titles WHERE `+d.InIDs("id", "$1")+` AND customer_id IS NULL`,
		[]any{ids}, func(r kbsql.Rows) error {
			var id int64
			var pt int
			t := &liveTitle{}
			if err := r.Scan(&id, &t.name, &t.publisher, &pt, &t.source); err != nil {
				return err
			}
			t.pubType = kb.ResourceType(pt)
			titles[id] = t
			return nil
		})
	if err != nil {
		return nil, fmt.Errorf("diff: titles: %w", err)
	}
	var owned []int64
	for id, t := range titles {
		if owns, _ := kb.TitleSource(t.source, P); owns {
			owned = append(owned, id)
		}
	}
	if len(owned) > 0 {
		err := kbsql.EachRow(ctx, q, `SELECT title_id, type, subtype, value, norm, valid FROM title_identifiers WHERE `+d.InIDs("title_id", "$1"),
			[]any{owned}, func(r kbsql.Rows) error {
				var id int64
				var x Ident
				var t, st int
				if err := r.Scan(&id, &t, &st, &x.Value, &x.Norm, &x.Valid); err != nil {
					return err
				}
				x.Type, x.Subtype = kb.IdentifierType(t), kb.IdentifierSubtype(st)
				titles[id].idents = append(titles[id].idents, x)
				return nil
			})
		if err != nil {
			return nil, fmt.Errorf("diff: identifiers: %w", err)
		}
	}
	return titles, nil
}

// title diffs one title's staged rows with the package's resource l (had:
// the package has it) and with the title lt (nil for a new title).
func (df *differ) title(rows []stagedRow, l liveResource, had bool, lt *liveTitle, restorable bool) error {
	imp := df.imp
	t := rows[0].title
	var listed []stagedRow
	for _, r := range rows {
		if !r.keep {
			listed = append(listed, r)
		}
	}
	if len(listed) == 0 {
		// Only rejected rows stand for it: it stays as it is.
		if had {
			imp.res.ResourcesKept++
			df.mark(t, rowCount(l.kbart))
		}
		return nil
	}
	res := aggregate(listed)
	object := fmt.Sprintf("resource %d/%d", imp.packageID, t)
	switch {
	case !had:
		imp.res.ResourcesAdded++
		df.marks = true
		action, after := kb.ImportAdd, res.state()
		if restorable {
			imp.res.ResourcesRestored++
			action = kb.ImportRestore
		}
		if imp.firstGen {
			action, after = "", ""
		}
		df.delta = append(df.delta, res.deltaRow(imp.id, deltaAdd, t, object, action, "", after))
	case int64(res.hash) != l.hash || res.providerID != l.providerID:
		action, before, after := "", "", ""
		if int64(res.hash) != l.hash {
			imp.res.ResourcesUpdated++
			df.marks = df.marks || rowCount(l.kbart) != len(res.lines)
			action = kb.ImportUpdate
			before = importedState(l.url, json.RawMessage(l.coverage), l.unit, l.val, rowCount(l.kbart))
			after = res.state()
			after = after[:len(after)-1] + `,"fields":` + jsonStrings(changedFields(l.kbart, res.lines)) + `}`
		}
		df.delta = append(df.delta, res.deltaRow(imp.id, deltaUpdate, t, object, action, before, after))
	}
	df.mark(t, len(res.lines))
	if lt != nil {
		df.titleChanges(t, listed, lt)
	}
	return nil
}

// unlisted handles a resource of the package that no staged row lists: it
// leaves the package, unless a rejected row matched nothing (then every
// resource stays).
func (df *differ) unlisted(l liveResource) {
	imp := df.imp
	if imp.holdRemovals {
		imp.res.ResourcesKept++
		df.mark(l.title, rowCount(l.kbart))
		return
	}
	imp.res.ResourcesRemoved++
	df.marks = true
	before := importedState(l.url, json.RawMessage(l.coverage), l.unit, l.val, rowCount(l.kbart))
	df.delta = append(df.delta, []any{imp.id, deltaRemove, l.title, l.providerID, "", "", "", 0, l.url, l.coverage, l.unit, l.val, "", l.hash,
		"", int64(0), 0, 0, "", fmt.Sprintf("resource %d/%d", imp.packageID, l.title), kb.ImportRemove, before, ""})
}

// titleChanges stages the changes of a title the package owns: its name,
// publisher and type from its first row, its identifiers from all its rows.
func (df *differ) titleChanges(t int64, rows []stagedRow, lt *liveTitle) {
	imp := df.imp
	owns, _ := kb.TitleSource(lt.source, imp.packageID)
	if !owns {
		return
	}
	first := rows[0]
	object := fmt.Sprintf("title %d", t)
	if first.name != lt.name || first.publisher != lt.publisher || first.pubType != lt.pubType {
		imp.res.TitlesRenamed++
		before := kbsql.JSONObject("name", lt.name, "publisher", lt.publisher, "pubType", lt.pubType.String())
		after := kbsql.JSONObject("name", first.name, "publisher", first.publisher, "pubType", first.pubType.String())
		df.delta = append(df.delta, []any{imp.id, deltaTitle, t, "", kb.Fold(first.name), first.name, first.publisher, int(first.pubType),
			"", "[]", 0, 0, "", int64(0), kb.Fold(first.publisher), matchHash(first.name, first.publisher, first.pubType), 0, 0, "",
			object, kb.ImportRename, before, after})
	}
	// The identifiers of the rows, one for each matching form (the
	// first row's that has it), as a new title has them.
	var want []Ident
	for _, r := range rows {
		for _, id := range rowIdents(kbartFields(r.kbart)) {
			if !slices.ContainsFunc(want, id.sameNorm) {
				want = append(want, id)
			}
		}
	}
	var gone, added []Ident
	for _, id := range lt.idents {
		if !slices.ContainsFunc(want, id.sameNorm) {
			gone = append(gone, id)
		}
	}
	for _, id := range want {
		if !slices.ContainsFunc(lt.idents, id.sameNorm) {
			added = append(added, id)
		}
	}
	if len(gone) == 0 && len(added) == 0 {
		return
	}
	imp.res.TitlesReidentified++
	for i, id := range gone {
		action := ""
		if i == 0 {
			action = kb.ImportReidentify
		}
		df.delta = append(df.delta, []any{imp.id, deltaUnident, t, "", "", "", "", 0, "", "[]", 0, 0, "", int64(0), "", int64(0),
			int(id.Type), int(id.Subtype), id.Value, object, action, identsJSON(lt.idents), identsJSON(want)})
	}
	for _, id := range added {
		df.idents = append(df.idents, []any{imp.id, t, int(id.Type), int(id.Subtype), id.Value, id.Norm, id.Valid})
	}
	if len(gone) == 0 {
		// Identifiers only added: record the change on its own.
		df.delta = append(df.delta, []any{imp.id, deltaNoRecord, t, "", "", "", "", 0, "", "[]", 0, 0, "", int64(0), "", int64(0), 0, 0, "",
			object, kb.ImportReidentify, identsJSON(lt.idents), identsJSON(want)})
	}
}

// sameNorm reports whether two identifiers have one matching form (the
// same ISSN or ISBN however written).
func (x Ident) sameNorm(y Ident) bool { return x.Norm == y.Norm }

// identsJSON lists identifiers as a change records them.
func identsJSON(ids []Ident) string {
	var b strings.Builder
	b.WriteByte('[')
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(kbsql.JSONObject("type", int(id.Type), "subtype", int(id.Subtype), "value", id.Value))
	}
	b.WriteByte(']')
	return b.String()
}

// kbartFields splits a stored KBART row into its standard fields.
func kbartFields(line string) *[kb.KBARTFieldCount]string {
	var v [kb.KBARTFieldCount]string
	for i := range v {
		f, rest, _ := strings.Cut(line, "\t")
		v[i], line = f, rest
	}
	return &v
}

// mark counts a resource of the package after the import, with its n
// KBART rows, and stages a snapshot mark at every kbsnapshot.MarkEvery-th.
func (df *differ) mark(title int64, n int) {
	if df.count%kbsnapshot.MarkEvery == 0 {
		df.delta = append(df.delta, []any{df.imp.id, deltaMark, title, "", "", "", "", 0, "", "[]", 0, 0, "", df.offset, "", int64(0), 0, 0, "",
			"", "", "", ""})
	}
	df.count++
	df.offset += int64(n)
}

// flush writes the delta staged so far, in a short transaction.
func (df *differ) flush(ctx context.Context) error {
	if len(df.delta) == 0 && len(df.idents) == 0 {
		return nil
	}
	err := df.imp.s.e.Write(ctx, "", func(tx kbsql.Tx) error {
		if err := tx.CopyRows(ctx, "import_delta", deltaColumns, df.delta); err != nil {
			return err
		}
		return tx.CopyRows(ctx, "import_idents", []string{"import_id", "title_id", "type", "subtype", "value", "norm", "valid"}, df.idents)
	})
	if err != nil {
		return fmt.Errorf("diff: stage changes: %w", err)
	}
	df.delta, df.idents = df.delta[:0], df.idents[:0]
	return nil
}

// deltaColumns are the columns of an import_delta row, in the order the
// diff gives them.
var deltaColumns = []string{"import_id", "kind", "title_id", "provider_id", "sort_name", "name", "publisher", "pub_type", "url", "coverage",
	"embargo_unit", "embargo_value", "kbart", "kbart_hash", "sort_publisher", "match_hash", "ident_type", "ident_subtype", "ident_value",
	"object", "action", "before", "after"}

// finish counts the customers who had selected or customised the titles
// the import removes, and the package's rows after it.
func (df *differ) finish(ctx context.Context) error {
	imp := df.imp
	imp.kbartRows, imp.marksChange = df.offset, df.marks
	imp.res.RemovalsHeld = imp.holdRemovals
	if imp.res.ResourcesRemoved == 0 || imp.packageID == 0 {
		return nil
	}
	err := imp.s.e.Read().QueryRow(ctx, `SELECT count(*) FROM (
		SELECT cr.customer_id FROM customer_resources cr JOIN import_delta d ON d.import_id = $2 AND d.kind = `+strconv.Itoa(deltaRemove)+` AND d.title_id = cr.title_id
		WHERE cr.package_id = $1
		UNION SELECT customer_id FROM customer_packages WHERE package_id = $1 AND selected = TRUE) x`, imp.packageID, imp.id).Scan(&imp.res.CustomersAffected)
	if err != nil {
		return fmt.Errorf("diff: customers: %w", err)
	}
	return nil
}

// rowCount counts the KBART rows of a stored resource, as the snapshots
// do (sourceRowsExpr): one a line, one for none.
func rowCount(kbart string) int {
	if kbart == "" {
		return 1
	}
	return strings.Count(kbart, "\n") + 1
}

// importedState is a resource as an import's change records it.
func importedState(url string, coverage json.RawMessage, unit, value, rows int) string {
	if len(coverage) == 0 {
		coverage = json.RawMessage("[]")
	}
	return kbsql.JSONObject("url", url, "coverage", coverage, "embargo", []any{unit, value}, "rows", rows)
}

// changedFields names the KBART columns whose values differ between a
// resource's stored rows and its new ones, row by row.
func changedFields(old string, lines []string) []string {
	was := strings.Split(old, "\n")
	var names []string
	for i := 0; i < len(was) || i < len(lines); i++ {
		var a, b []string
		if i < len(was) {
			a = strings.Split(was[i], "\t")
		}
		if i < len(lines) {
			b = strings.Split(lines[i], "\t")
		}
		for f := range kb.KBARTFieldCount {
			if at(a, f) != at(b, f) && !slices.Contains(names, kbart.Header[f]) {
				names = append(names, kbart.Header[f])
			}
		}
	}
	return names
}

func at(fs []string, i int) string {
	if i < len(fs) {
		return fs[i]
	}
	return ""
}

// jsonStrings is the JSON array of ss.
func jsonStrings(ss []string) string {
	b, _ := json.Marshal(ss)
	if ss == nil {
		return "[]"
	}
	return string(b)
}
