package kbimport

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// The first phase of an import: each batch of rows is matched to titles
// (kb's identity rules, import_rules.go) and staged.

// holder is the item that the package holds (or held) as a title: the key
// of its rows, and whether those rows are this import's.
type holder struct {
	key    kb.ItemKey
	staged bool
}

// batchMatch is what a batch knows of the titles its rows may be.
type batchMatch struct {
	byPID   map[string]int64   // provider title_id → title, this import's rows first, then the package's, then its retired
	byNorm  map[string][]int64 // valid identifier → candidate titles, in order
	byHash  map[int64][]int64  // match hash → candidate titles, in order
	has     map[string]bool    // "title id|norm": the title has the identifier (live or staged)
	holders map[int64]holder   // title → the item the package holds as it
	gone    map[int64]bool     // retired titles that no longer exist: recreated with their id
	created map[int64]bool     // titles this import creates, staged by an earlier batch
}

// stagedBatch is what a batch writes to the staging tables.
type stagedBatch struct {
	titles [][]any // import_titles
	idents [][]any // import_idents
	rows   [][]any // import_rows
}

// readyBatch is a batch of an import's rows made ready for matching
// (readyRows), before the import sees it.
type readyBatch struct {
	rows     int
	rejected []kb.ImportRow // the rows the reader rejected
	ps       []ImportRow    // the others, ready
}

// readyRows readies a batch's rows (ImportBatches' prepare): it needs
// nothing of the import, so it runs beside the import's work on the
// batch before.
func readyRows(rows []kb.ImportRow) (readyBatch, error) {
	var valid, rejected []kb.ImportRow
	for _, r := range rows {
		if r.Rejected {
			rejected = append(rejected, r)
		} else {
			valid = append(valid, r)
		}
	}
	ps, err := PrepareRows(valid)
	if err != nil {
		return readyBatch{}, err
	}
	return readyBatch{rows: len(rows), rejected: rejected, ps: ps}, nil
}

// stage matches a batch of rows and stages it.
func (imp *importer) stage(ctx context.Context, rb readyBatch) error {
	if rb.rows == 0 {
		return nil
	}
	rejected, ps := rb.rejected, rb.ps
	imp.res.Rows += rb.rows
	imp.res.RowsRejected += len(rejected)
	m, err := imp.lookup(ctx, ps)
	if err != nil {
		return err
	}
	var b stagedBatch
	type newTitle struct {
		p  *ImportRow
		id int64 // 0 until reserved
	}
	var created []*newTitle
	refs := make([]*newTitle, len(ps)) // the new title of ps[i], or nil
	titleOf := make([]int64, len(ps))
	for i := range ps {
		p := &ps[i]
		if t, ok := imp.match(p, m); ok {
			imp.res.TitlesMatched++
			titleOf[i] = t
			if m.gone[t] {
				// A retired title that no longer exists comes back with its id.
				delete(m.gone, t)
				imp.res.TitlesMatched--
				imp.res.TitlesCreated++
				refs[i] = &newTitle{p: p, id: t}
				created = append(created, refs[i])
			}
			imp.noteRow(p, t, m, &b)
			continue
		}
		nt := &newTitle{p: p}
		refs[i] = nt
		created = append(created, nt)
		imp.res.TitlesCreated++
		// A provisional id, unique in the batch, until ids are reserved.
		titleOf[i] = -int64(len(created))
		imp.noteRow(p, titleOf[i], m, &b)
	}
	need := 0
	for _, nt := range created {
		if nt.id == 0 {
			need++
		}
	}
	if need > 0 {
		ids, err := imp.ie.TitleIDs(ctx, imp.bulkTx(), need)
		if err != nil {
			return fmt.Errorf("new title ids: %w", err)
		}
		k := 0
		for _, nt := range created {
			if nt.id == 0 {
				nt.id, k = ids[k], k+1
			}
		}
	}
	real := func(t int64) int64 {
		if t < 0 {
			return created[-t-1].id
		}
		return t
	}
	for i := range b.idents {
		b.idents[i][1] = real(b.idents[i][1].(int64))
	}
	for _, nt := range created {
		p := nt.p
		subjects, contributors := TitleJSON(p.Row)
		b.titles = append(b.titles, []any{imp.id, nt.id, p.Name, p.SortName, p.Publisher, p.SortPublisher,
			int(p.PubType), p.Row.Description, p.Row.PeerReviewed, subjects, contributors, p.Match})
	}
	for i := range ps {
		p := &ps[i]
		imp.seq++
		b.rows = append(b.rows, []any{imp.id, imp.seq, real(titleOf[i]), p.ProviderID, p.URL, p.Name, p.Publisher, int(p.PubType), p.Line(), false})
	}
	if err := imp.keep(ctx, rejected, &b); err != nil {
		return err
	}
	if err := imp.write(ctx, &b); err != nil {
		return err
	}
	// What the batch wrote, the later batches' rows may match.
	for _, nt := range created {
		imp.own.addTitle(nt.id, nt.p.Match)
	}
	for _, x := range b.idents {
		if x[6].(bool) {
			imp.own.addNorm(x[1].(int64), x[5].(string))
		}
	}
	for i := range ps {
		imp.own.addRow(real(titleOf[i]), ps[i].ProviderID)
	}
	return nil
}

// write writes a matched batch: staged, or on the bulk path into the
// final tables.
func (imp *importer) write(ctx context.Context, b *stagedBatch) error {
	if imp.bulk != nil {
		return imp.bulk.write(ctx, imp, b)
	}
	return imp.s.e.Write(ctx, "", func(tx kbsql.Tx) error {
		for _, t := range []struct {
			table string
			cols  []string
			rows  [][]any
		}{
			{"import_titles", []string{"import_id", "id", "name", "sort_name", "publisher", "sort_publisher", "pub_type",
				"description", "peer_reviewed", "subjects", "contributors", "match_hash"}, b.titles},
			{"import_idents", []string{"import_id", "title_id", "type", "subtype", "value", "norm", "valid"}, b.idents},
			{"import_rows", []string{"import_id", "seq", "title_id", "provider_id", "url", "name", "publisher", "pub_type", "kbart", "keep"}, b.rows},
		} {
			if err := tx.CopyRows(ctx, t.table, t.cols, t.rows); err != nil {
				return fmt.Errorf("stage rows: %w", err)
			}
		}
		return nil
	})
}

// match returns the title of row p (kb's identity rules): the title of
// its provider title_id in the package, else the first candidate by
// identifier (or, without a valid one, by name, publisher and type) that
// the package does not hold as another item.
func (imp *importer) match(p *ImportRow, m *batchMatch) (int64, bool) {
	if p.ProviderID != "" {
		if t, ok := m.byPID[p.ProviderID]; ok {
			return t, true
		}
	}
	var cands []int64
	if p.HasValid {
		for _, id := range p.Idents {
			if id.Valid {
				cands = append(cands, m.byNorm[id.Norm]...)
			}
		}
	} else {
		cands = m.byHash[p.Match]
	}
	for _, t := range cands {
		if h, ok := m.holders[t]; ok && !kb.SameItem(h.key, p.Key(), h.staged) {
			continue
		}
		return t, true
	}
	return 0, false
}

// noteRow records that row p is title t, so that later rows of the batch
// see it: the package now holds t as p's item (unless this import's rows
// already did), p's title_id, identifiers and hash lead to t, and p's
// identifiers that t lacks are staged for it.
func (imp *importer) noteRow(p *ImportRow, t int64, m *batchMatch, b *stagedBatch) {
	if h, ok := m.holders[t]; !ok || !h.staged {
		m.holders[t] = holder{key: p.Key(), staged: true}
	}
	if p.ProviderID != "" {
		if _, ok := m.byPID[p.ProviderID]; !ok {
			m.byPID[p.ProviderID] = t
		}
	}
	newTitle := t < 0 || m.created[t]
	for _, id := range p.Idents {
		if !id.Valid && !newTitle {
			continue // a new title takes its rows' invalid identifiers; the diff gives them to a title the package owns
		}
		k := hasKey(t, id.Norm)
		if m.has[k] {
			continue
		}
		m.has[k] = true
		b.idents = append(b.idents, []any{imp.id, t, int(id.Type), int(id.Subtype), id.Value, id.Norm, id.Valid})
		if id.Valid {
			m.byNorm[id.Norm] = append(m.byNorm[id.Norm], t)
		}
	}
	if newTitle && !p.HasValid {
		m.byHash[p.Match] = append(m.byHash[p.Match], t)
	}
}

func hasKey(t int64, norm string) string { return fmt.Sprint(t) + "|" + norm }

// lookup reads what the batch's rows may match: by provider title_id the
// titles this import staged, the package's and its retired ones; by
// identifier and by hash the knowledge base's managed titles, this
// import's new titles and the package's retired ones; and for every
// candidate, the item the package holds as it. What this import staged
// (or a bulk load wrote) comes from its keys in memory (ownKeys), in its
// place in that order.
func (imp *importer) lookup(ctx context.Context, ps []ImportRow) (*batchMatch, error) {
	m := &batchMatch{byPID: map[string]int64{}, byNorm: map[string][]int64{}, byHash: map[int64][]int64{},
		has: map[string]bool{}, holders: map[int64]holder{}, gone: map[int64]bool{}, created: map[int64]bool{}}
	var pids, norms []string
	var hashes []int64
	for _, p := range ps {
		if p.ProviderID != "" {
			pids = append(pids, p.ProviderID)
		}
		for _, id := range p.Idents {
			if id.Valid {
				norms = append(norms, id.Norm)
			}
		}
		if !p.HasValid {
			hashes = append(hashes, p.Match)
		}
	}
	q, d, P, I, own := imp.s.e.Read(), imp.s.d, imp.packageID, imp.id, imp.own
	// A bulk load's package is new: all it holds is this import's; it
	// has no retired titles.
	bulk := imp.bulk != nil
	// The staged path of an importer set to read the import's keys back
	// from the staging tables, as a reference for tests (SetReference).
	ref := imp.s.reference && !bulk
	held := P != 0 && !bulk
	// The knowledge base's titles, but in a first load, which created
	// every title its rows can match. (A first load on PostgreSQL has
	// the titles locked: a read of them through the pool would wait for
	// the load's own commit.)
	store := !bulk || !imp.bulk.first
	retiredCands := map[int64]bool{}
	var pid string
	var norm string
	var hash, t int64
	var key kb.ItemKey
	addPID := func(r kbsql.Rows) error {
		if err := r.Scan(&pid, &t); err != nil {
			return err
		}
		if _, ok := m.byPID[pid]; !ok {
			m.byPID[pid] = t
		}
		return nil
	}
	addNorm := func(r kbsql.Rows) error {
		if err := r.Scan(&norm, &t); err != nil {
			return err
		}
		m.byNorm[norm] = append(m.byNorm[norm], t)
		m.has[hasKey(t, norm)] = true
		return nil
	}
	addHash := func(r kbsql.Rows) error {
		if err := r.Scan(&hash, &t); err != nil {
			return err
		}
		m.byHash[hash] = append(m.byHash[hash], t)
		return nil
	}
	steps := []lookupStep{
		{on: len(pids) > 0 && !ref, mem: func() { own.pids(m, pids) }},
		{on: len(pids) > 0 && ref, sql: `SELECT provider_id, title_id FROM import_rows WHERE import_id = $1 AND provider_id <> '' AND keep = FALSE AND ` +
			d.InTexts("provider_id", "$2") + ` ORDER BY seq`, args: []any{I, pids}, scan: addPID},
		{on: len(pids) > 0 && held, sql: `SELECT provider_id, title_id FROM resources WHERE package_id = $1 AND provider_id <> '' AND ` + d.InTexts("provider_id", "$2"),
			args: []any{P, pids}, scan: addPID},
		{on: len(pids) > 0 && held, sql: `SELECT provider_id, title_id, url FROM retired_resources WHERE package_id = $1 AND provider_id <> '' AND ` + d.InTexts("provider_id", "$2"),
			args: []any{P, pids}, scan: func(r kbsql.Rows) error {
				if err := r.Scan(&pid, &t, &key.URL); err != nil {
					return err
				}
				retiredCands[t] = true
				if _, ok := m.byPID[pid]; !ok {
					m.byPID[pid] = t
				}
				return nil
			}},
		// In a load, the titles of the packages it loaded before this
		// one, as the store would hold them had each been committed.
		{on: len(norms) > 0 && imp.load != nil, mem: func() { imp.load.keys.norms(m, norms) }},
		{on: len(norms) > 0 && store, sql: `SELECT ti.norm, t.id FROM title_identifiers ti JOIN titles t ON t.id = ti.title_id
			WHERE ` + d.InTexts("ti.norm", "$1") + ` AND ti.valid = TRUE AND t.customer_id IS NULL ORDER BY t.id`, args: []any{norms}, scan: addNorm},
		// This import's candidates in title order, after the store's (the
		// oldest first, as there).
		{on: len(norms) > 0 && !ref, mem: func() { own.norms(m, norms) }},
		{on: len(norms) > 0 && ref, sql: `SELECT DISTINCT norm, title_id FROM import_idents WHERE import_id = $1 AND valid = TRUE AND ` + d.InTexts("norm", "$2") +
			` ORDER BY title_id`, args: []any{I, norms}, scan: addNorm},
		{on: len(norms) > 0 && held, sql: `SELECT norm, title_id, provider_id, url FROM retired_resources WHERE package_id = $1 AND norm <> '' AND ` + d.InTexts("norm", "$2"),
			args: []any{P, norms}, scan: func(r kbsql.Rows) error {
				if err := r.Scan(&norm, &t, &key.ProviderID, &key.URL); err != nil {
					return err
				}
				retiredCands[t] = true
				m.byNorm[norm] = append(m.byNorm[norm], t)
				if _, ok := m.holders[t]; !ok {
					m.holders[t] = holder{key: key}
				}
				return nil
			}},
		{on: len(hashes) > 0 && imp.load != nil, mem: func() { imp.load.keys.hashes(m, hashes) }},
		{on: len(hashes) > 0 && store, sql: `SELECT match_hash, id FROM titles WHERE ` + d.InIDs("match_hash", "$1") + ` AND customer_id IS NULL ORDER BY id`,
			args: []any{hashes}, scan: addHash},
		{on: len(hashes) > 0 && !ref, mem: func() { own.hashes(m, hashes) }},
		{on: len(hashes) > 0 && ref, sql: `SELECT match_hash, id FROM import_titles WHERE import_id = $1 AND ` + d.InIDs("match_hash", "$2") +
			` ORDER BY id`, args: []any{I, hashes}, scan: addHash},
		{on: len(hashes) > 0 && held, sql: `SELECT match_hash, title_id, provider_id, url FROM retired_resources WHERE package_id = $1 AND ` + d.InIDs("match_hash", "$2"),
			args: []any{P, hashes}, scan: func(r kbsql.Rows) error {
				if err := r.Scan(&hash, &t, &key.ProviderID, &key.URL); err != nil {
					return err
				}
				retiredCands[t] = true
				m.byHash[hash] = append(m.byHash[hash], t)
				if _, ok := m.holders[t]; !ok {
					m.holders[t] = holder{key: key}
				}
				return nil
			}},
	}
	if err := runLookups(ctx, q, steps); err != nil {
		return nil, err
	}
	// The items the package holds as the candidates: this import's rows
	// first (read last, so they win), then the package's resources (a
	// bulk load's package has none but its rows).
	var cands []int64
	seen := map[int64]bool{}
	for _, ts := range m.byNorm {
		cands = appendNew(cands, seen, ts)
	}
	for _, ts := range m.byHash {
		cands = appendNew(cands, seen, ts)
	}
	if len(cands) > 0 {
		if held {
			err := kbsql.EachRow(ctx, q, `SELECT title_id, provider_id, url FROM resources WHERE package_id = $1 AND `+d.InIDs("title_id", "$2"),
				[]any{P, cands}, func(r kbsql.Rows) error {
					if err := r.Scan(&t, &key.ProviderID, &key.URL); err != nil {
						return err
					}
					m.holders[t] = holder{key: key}
					return nil
				})
			if err != nil {
				return nil, fmt.Errorf("match rows: %w", err)
			}
		}
		// The first row's key of each candidate this import has rows of:
		// a bulk load's resources keep it, as the staged rows would give
		// it.
		sql, args := `SELECT title_id, provider_id, url FROM import_rows WHERE import_id = $1 AND keep = FALSE AND `+d.InIDs("title_id", "$2")+
			` ORDER BY title_id, seq`, []any{I, cands}
		rq := q
		if bulk {
			sql, args, rq = `SELECT title_id, provider_id, url FROM resources WHERE package_id = $1 AND `+d.InIDs("title_id", "$2"), []any{P, cands}, imp.bulk.tx
		}
		first := map[int64]bool{}
		err := kbsql.EachRow(ctx, rq, sql, args, func(r kbsql.Rows) error {
			if err := r.Scan(&t, &key.ProviderID, &key.URL); err != nil {
				return err
			}
			if !first[t] {
				first[t] = true
				m.holders[t] = holder{key: key, staged: true}
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("match rows: %w", err)
		}
	}
	// The titles the rows may be, and which of them the import created.
	mayBe := slices.AppendSeq(slices.Clone(cands), maps.Values(m.byPID))
	created := own.created
	if ref {
		// Read from its staging tables instead.
		created = map[int64]bool{}
		ids := slices.AppendSeq(slices.Clone(mayBe), maps.Keys(retiredCands))
		if len(ids) > 0 {
			err := kbsql.EachRow(ctx, q, `SELECT id FROM import_titles WHERE import_id = $1 AND `+d.InIDs("id", "$2"), []any{I, ids}, func(r kbsql.Rows) error {
				if err := r.Scan(&t); err != nil {
					return err
				}
				created[t] = true
				return nil
			})
			if err != nil {
				return nil, fmt.Errorf("match rows: %w", err)
			}
		}
	}
	// Retired titles that no longer exist come back with their ids.
	if len(retiredCands) > 0 {
		ids := make([]int64, 0, len(retiredCands))
		for id := range retiredCands {
			ids = append(ids, id)
			if !created[id] {
				m.gone[id] = true
			}
		}
		err := kbsql.EachRow(ctx, q, `SELECT id FROM titles WHERE `+d.InIDs("id", "$1"), []any{ids}, func(r kbsql.Rows) error {
			if err := r.Scan(&t); err != nil {
				return err
			}
			delete(m.gone, t)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("match rows: %w", err)
		}
	}
	for _, t := range mayBe {
		if created[t] {
			m.created[t] = true
		}
	}
	return m, nil
}

// lookupStep is one step of lookup, run when on: a query, or mem,
// which reads the import's own keys.
type lookupStep struct {
	on   bool
	sql  string
	args []any
	scan func(kbsql.Rows) error
	mem  func()
}

// runLookups runs the steps that are on, in order.
func runLookups(ctx context.Context, q kbsql.Querier, steps []lookupStep) error {
	for _, s := range steps {
		if !s.on {
			continue
		}
		if s.mem != nil {
			s.mem()
			continue
		}
		if err := kbsql.EachRow(ctx, q, s.sql, s.args, s.scan); err != nil {
			return fmt.Errorf("match rows: %w", err)
		}
	}
	return nil
}

// appendNew appends the ids of ts not yet seen.
func appendNew(out []int64, seen map[int64]bool, ts []int64) []int64 {
	for _, t := range ts {
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return out
}

// keep stages the rows the reader rejected: each keeps the title of the
// package it stands for (by title_id, valid identifier or URL) as it is.
// A rejected row that matches none of the package's titles may stand for
// any of them: then the import removes none (holdRemovals).
func (imp *importer) keep(ctx context.Context, rejected []kb.ImportRow, b *stagedBatch) error {
	if len(rejected) == 0 {
		return nil
	}
	if imp.packageID == 0 || imp.bulk != nil {
		return nil // a new package: nothing to keep
	}
	type keys struct {
		pid, url string
		norms    []string
	}
	ks := make([]keys, len(rejected))
	var pids, urls, norms []string
	for i := range rejected {
		v := &rejected[i].KBART
		k := keys{pid: strings.TrimSpace(v[kbart.TitleID]), url: strings.TrimSpace(v[kbart.TitleURL])}
		for _, id := range rowIdents(v) {
			if id.Valid {
				k.norms = append(k.norms, id.Norm)
			}
		}
		ks[i] = k
		if k.pid != "" {
			pids = append(pids, k.pid)
		}
		if k.url != "" {
			urls = append(urls, k.url)
		}
		norms = append(norms, k.norms...)
	}
	q, d, P := imp.s.e.Read(), imp.s.d, imp.packageID
	byPID, byURL, byNorm := map[string]int64{}, map[string]int64{}, map[string]int64{}
	var s string
	var t int64
	for _, l := range []struct {
		on   bool
		sql  string
		args []any
		into map[string]int64
	}{
		{len(pids) > 0, `SELECT provider_id, title_id FROM resources WHERE package_id = $1 AND provider_id <> '' AND ` + d.InTexts("provider_id", "$2"), []any{P, pids}, byPID},
		{len(urls) > 0, `SELECT url, title_id FROM resources WHERE package_id = $1 AND ` + d.InTexts("url", "$2"), []any{P, urls}, byURL},
		{len(norms) > 0, `SELECT ti.norm, r.title_id FROM title_identifiers ti JOIN resources r ON r.package_id = $1 AND r.title_id = ti.title_id
			WHERE ` + d.InTexts("ti.norm", "$2") + ` AND ti.valid = TRUE`, []any{P, norms}, byNorm},
	} {
		if !l.on {
			continue
		}
		into := l.into
		if err := kbsql.EachRow(ctx, q, l.sql, l.args, func(r kbsql.Rows) error {
			if err := r.Scan(&s, &t); err != nil {
				return err
			}
			into[s] = t
			return nil
		}); err != nil {
			return fmt.Errorf("match rejected rows: %w", err)
		}
	}
	for i, k := range ks {
		t, ok := byPID[k.pid]
		for _, n := range k.norms {
			if !ok {
				t, ok = byNorm[n]
			}
		}
		if !ok {
			t, ok = byURL[k.url]
		}
		if !ok || (k.pid == "" && k.url == "" && len(k.norms) == 0) {
			imp.holdRemovals = true
			continue
		}
		imp.seq++
		v := &rejected[i].KBART
		b.rows = append(b.rows, []any{imp.id, imp.seq, t, k.pid, k.url, strings.TrimSpace(v[kbart.PublicationTitle]),
			strings.TrimSpace(v[kbart.PublisherName]), 0, "", true})
	}
	return nil
}
