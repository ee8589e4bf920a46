package search

import (
	"context"
	"database/sql"
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/kbserver/kbserver/internal/gen"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/sqlite"
	"github.com/kbserver/kbserver/internal/testdb"
)

// propertyKB is a generated knowledge base in a store of the run's engine
// (internal/testdb: SQLite, or PostgreSQL with KBSERVER_TEST_STORE), the
// index built from the same database, and what the random searches draw
// from.
type propertyKB struct {
	store    kb.Store
	db       *sql.DB
	x        *Index
	ref      *refKB          // the slow reference, from the same feed
	titles   []Title         // as read back, by ordinal
	vendorOf map[int64]int64 // package → vendor
	pkgIDs   []int64
	selected *roaring.Bitmap // customer c1's selected titles
	custom   []*Title        // the custom titles
	// othersCustom holds the custom titles of customers other than c1,
	// othersPackage their custom packages.
	othersCustom, othersPackage map[int64]bool
}

// addCustomTitles gives customers c1 and c2 custom titles made to test
// what generated names rarely do: long names (proximity and phrases over
// many words), names equal to managed ones once folded (order by id),
// and case, diacritic and punctuation variants.
func addCustomTitles(t *testing.T, s kb.Store, db *sql.DB, seed int64) {
	t.Helper()
	ctx := context.Background()
	var names, pubs []string
	if err := testdb.EachRow(ctx, db, `SELECT name, publisher FROM titles ORDER BY id LIMIT 300`, func(r *sql.Rows) error {
		var n, p string
		if err := r.Scan(&n, &p); err != nil {
			return err
		}
		names, pubs = append(names, n), append(pubs, p)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var vocab []string
	for _, n := range names {
		vocab = append(vocab, kb.Words(n)...)
	}
	r := rand.New(rand.NewPCG(uint64(seed), 99))
	for _, cust := range []string{"c1", "c2"} {
		c, err := s.Customer(ctx, cust)
		if err != nil {
			t.Fatal(err)
		}
		count := 80
		if cust == "c2" {
			count = 20
		}
		var pkgs []int64
		for k := 0; k < 4; k++ {
			pid, err := s.CreateCustomPackage(ctx, cust, c.VendorID, kb.CustomPackage{Name: fmt.Sprintf("Local %d", k), ContentType: kb.ContentEBook})
			if err != nil {
				t.Fatal(err)
			}
			pkgs = append(pkgs, pid)
		}
		for i := 0; i < count; i++ {
			name := names[r.IntN(len(names))]
			switch i % 4 {
			case 1:
				ws := make([]string, 12+r.IntN(14))
				for k := range ws {
					ws[k] = vocab[r.IntN(len(vocab))]
				}
				name = strings.Join(ws, " ")
			case 2:
				name = strings.ToUpper(name) + " — Ça’va, Éditions!"
			case 3:
				name += " Local Édition"
			}
			_, err := s.CreateCustomTitle(ctx, cust, c.VendorID, pkgs[i%len(pkgs)], kb.CustomTitle{TitleFields: kb.TitleFields{
				Name: name, PubType: kb.ResourceType(1 + r.IntN(14)), Publisher: pubs[r.IntN(len(pubs))],
			}})
			if err != nil && kb.ErrorCode(err) != kb.CodeInvalid {
				t.Fatal(err)
			}
		}
	}
}

// newPropertyKB generates n titles into a new store, gives customer
// c1 holdings and custom titles (and c2 a custom title c1 must not see),
// and builds the index from the database.
func newPropertyKB(t *testing.T, n int, seed int64) *propertyKB {
	t.Helper()
	ctx := context.Background()
	dsn := testdb.NewDSN(t)
	s := testdb.OpenDSN(t, dsn)
	if _, err := gen.Generate(ctx, s, gen.Options{Titles: n, Seed: seed, Packages: 20, Vendors: 5}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Customers(ctx, s, seed, []gen.CustomerSpec{{ID: "c1", Holdings: n / 2}, {ID: "c2", Holdings: n / 10}}, nil); err != nil {
		t.Fatal(err)
	}
	db := testdb.DB(t, dsn)
	addCustomTitles(t, s, db, seed)
	p := &propertyKB{store: s, db: db}
	p.load(t)
	return p
}

// load builds the index from the store's feed and reads what the random
// searches draw from, again after a change of the knowledge base.
func (p *propertyKB) load(t *testing.T) {
	t.Helper()
	ctx := context.Background()
	db := p.db
	x, err := loadIndex(ctx, p.store)
	if err != nil {
		t.Fatal(err)
	}
	p.x, p.vendorOf, p.pkgIDs, p.custom = x, map[int64]int64{}, nil, nil
	if p.ref, err = newRefKB(ctx, p.store); err != nil {
		t.Fatal(err)
	}
	p.othersCustom, p.othersPackage = map[int64]bool{}, map[int64]bool{}
	if err := testdb.EachRow(ctx, db, `SELECT id, vendor_id, COALESCE(customer_id, '') FROM packages ORDER BY id`, func(r *sql.Rows) error {
		var id, v int64
		var owner string
		if err := r.Scan(&id, &v, &owner); err != nil {
			return err
		}
		if owner != "" && owner != "c1" {
			p.othersPackage[id] = true
		}
		p.vendorOf[id] = v
		p.pkgIDs = append(p.pkgIDs, id)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	// The titles again, by ordinal, for drawing searches.
	p.titles = make([]Title, x.Len())
	byID := map[int64]*Title{}
	for o := range p.titles {
		p.titles[o].ID = x.ID(uint32(o))
		byID[p.titles[o].ID] = &p.titles[o]
	}
	if err := testdb.EachRow(ctx, db, `SELECT id, name, publisher, subjects, COALESCE(customer_id, '') FROM titles`, func(r *sql.Rows) error {
		var id int64
		var name, pub, subj, cust string
		if err := r.Scan(&id, &name, &pub, &subj, &cust); err != nil {
			return err
		}
		tt := byID[id]
		tt.Name, tt.Publisher, tt.Subjects, tt.CustomerID = name, pub, []kb.Subject{{Name: subj}}, cust
		if cust != "" {
			p.custom = append(p.custom, tt)
		}
		if cust != "" && cust != "c1" {
			p.othersCustom[id] = true
		}
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := testdb.EachRow(ctx, db, `SELECT title_id, value FROM title_identifiers`, func(r *sql.Rows) error {
		var id int64
		var v string
		if err := r.Scan(&id, &v); err != nil {
			return err
		}
		byID[id].Identifiers = append(byID[id].Identifiers, v)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if err := testdb.EachRow(ctx, db, `SELECT title_id, package_id FROM resources`, func(r *sql.Rows) error {
		var id, pkg int64
		if err := r.Scan(&id, &pkg); err != nil {
			return err
		}
		byID[id].Packages = append(byID[id].Packages, pkg)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if p.selected, err = selectedSet(ctx, db, x, "c1", 0); err != nil {
		t.Fatal(err)
	}
}

// randomQuery draws a title search from the knowledge base's own words
// and identifiers: mostly searches that find something, some that do not.
func (p *propertyKB) randomQuery(r *rand.Rand) kb.TitleQuery {
	t := &p.titles[r.IntN(len(p.titles))]
	if r.IntN(4) == 0 && len(p.custom) > 0 {
		t = p.custom[r.IntN(len(p.custom))]
	}
	fields := []kb.SearchField{kb.FieldTitleName, kb.FieldPublisher, kb.FieldSubject, kb.FieldISXN}
	q := kb.TitleQuery{Field: fields[r.IntN(len(fields))], Type: kb.SearchType(r.IntN(7))}
	text := t.Name
	switch q.Field {
	case kb.FieldPublisher:
		text = t.Publisher
	case kb.FieldSubject:
		text = t.Subjects[0].Name // the stored column, JSON and all
		if r.IntN(2) == 0 {       // a subject's words, without the JSON around them
			text = strings.Join(kb.Words(text), " ")
		}
	case kb.FieldISXN:
		q.Search = p.randomISXN(r, t)
	}
	if q.Field != kb.FieldISXN {
		q.Search = p.randomText(r, q.Type, text)
	}
	switch r.IntN(10) {
	case 0:
		q.ResourceType = kb.ResourceType(1 + r.IntN(14))
	case 1:
		q.ResourceType = kb.ResourceJournal
	}
	switch r.IntN(8) {
	case 0:
		q.Selection = kb.SelectionSelected
	case 1:
		q.Selection = kb.SelectionNotSelected
	case 2:
		q.Selection = kb.Selection(r.IntN(4))
	}
	switch r.IntN(10) {
	case 0, 1:
		if len(t.Packages) > 0 && t.CustomerID != "c2" { // (the caller checks that the package is visible)
			q.PackageID = t.Packages[r.IntN(len(t.Packages))]
			q.VendorID = p.vendorOf[q.PackageID]
		}
	case 2:
		q.PackageIDs = []int64{p.pkgIDs[r.IntN(len(p.pkgIDs))], p.pkgIDs[r.IntN(len(p.pkgIDs))]}
		if len(t.Packages) > 0 {
			q.PackageIDs = append(q.PackageIDs, t.Packages[0])
		}
	}
	if r.IntN(30) == 0 {
		q.Search = ""
	}
	q.OrderBy = kb.Order(r.IntN(3))
	q.Page = kb.Page{Count: 1 + r.IntN(30), Number: 1}
	if r.IntN(3) == 0 {
		q.Page.Number = 1 + r.IntN(20)
	}
	return q
}

// randomText draws a search of type typ from a field's text.
func (p *propertyKB) randomText(r *rand.Rand, typ kb.SearchType, text string) string {
	ws := kb.Words(text)
	if r.IntN(15) == 0 || len(ws) == 0 { // a word of another title
		o := &p.titles[r.IntN(len(p.titles))]
		ws = kb.Words(o.Name)
		if len(ws) == 0 {
			return "zzqx"
		}
	}
	slice := func(max int) []string {
		i := r.IntN(len(ws))
		j := min(len(ws), i+1+r.IntN(max))
		return ws[i:j]
	}
	cut := func(w string) string { // a prefix or substring of a word
		rs := []rune(w)
		if len(rs) < 2 {
			return w
		}
		i, j := 0, len(rs)
		if r.IntN(2) == 0 {
			i = r.IntN(len(rs) - 1)
		}
		if r.IntN(2) == 0 {
			j = i + 1 + r.IntN(len(rs)-i)
		}
		return string(rs[i:j])
	}
	switch typ {
	case kb.SearchExactMatch:
		if r.IntN(4) == 0 {
			return strings.Join(slice(3), " ")
		}
		return text
	case kb.SearchBeginsWith:
		rs := []rune(text)
		if len(rs) == 0 {
			return text
		}
		return string(rs[:1+r.IntN(len(rs))])
	case kb.SearchContains:
		s := slice(3)
		out := make([]string, len(s))
		for i, w := range s {
			out[i] = cut(w)
		}
		return strings.Join(out, " ")
	case kb.SearchAny:
		s := slice(3)
		if r.IntN(2) == 0 {
			s = append(slices.Clone(s), kb.Words(p.titles[r.IntN(len(p.titles))].Name)...)
		}
		return strings.Join(s, " ")
	case kb.SearchProximity:
		if len(ws) > 12 && r.IntN(2) == 0 { // words about the window's width apart
			i := r.IntN(len(ws) - 11)
			return ws[i] + " " + ws[min(len(ws)-1, i+10+r.IntN(3))]
		}
		if r.IntN(2) == 0 && len(ws) > 2 {
			return ws[r.IntN(len(ws))] + " " + ws[r.IntN(len(ws))]
		}
		return strings.Join(slice(3), " ")
	case kb.SearchExactPhrase:
		if r.IntN(3) == 0 && len(ws) > 1 { // words of the title, not side by side
			return ws[r.IntN(len(ws))] + " " + ws[r.IntN(len(ws))]
		}
		return strings.Join(slice(4), " ")
	}
	if r.IntN(2) == 0 { // words of two titles
		ws = append(slices.Clone(ws), kb.Words(p.titles[r.IntN(len(p.titles))].Name)...)
	}
	// Advanced: terms, phrases and prefixes joined by operators.
	if r.IntN(3) == 0 { // three words in which precedence matters
		w := func() string { return ws[r.IntN(len(ws))] }
		ops := []string{" OR ", " AND ", " NOT ", " "}
		return w() + ops[r.IntN(4)] + w() + ops[r.IntN(4)] + w()
	}
	var b strings.Builder
	n := 1 + r.IntN(4)
	open := 0
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString([]string{" ", " AND ", " OR ", " NOT ", " OR ", " NOT "}[r.IntN(6)])
		}
		if r.IntN(5) == 0 {
			b.WriteString("(")
			open++
		}
		switch r.IntN(4) {
		case 0:
			b.WriteString(`"` + strings.Join(slice(3), " ") + `"`)
		case 1:
			w := ws[r.IntN(len(ws))]
			rs := []rune(w)
			b.WriteString(string(rs[:1+r.IntN(len(rs))]) + "*")
		default:
			b.WriteString(ws[r.IntN(len(ws))])
		}
		if open > 0 && r.IntN(2) == 0 {
			b.WriteString(")")
			open--
		}
	}
	b.WriteString(strings.Repeat(")", open))
	return b.String()
}

// randomISXN draws an identifier search: whole, with or without hyphens,
// or a prefix; sometimes an ISBN-10 form.
func (p *propertyKB) randomISXN(r *rand.Rand, t *Title) string {
	if len(t.Identifiers) == 0 {
		return "1234-5678"
	}
	id := t.Identifiers[r.IntN(len(t.Identifiers))]
	switch r.IntN(4) {
	case 0:
		id = strings.ReplaceAll(id, "-", "")
	case 1:
		id = id[:1+r.IntN(len(id))]
	case 2:
		if d := strings.ReplaceAll(id, "-", ""); len(d) == 13 && strings.HasPrefix(d, "978") {
			id = isbn10(d[3:12])
		}
	}
	return id
}

// isbn10 returns the ISBN-10 of nine digits.
func isbn10(d string) string {
	sum := 0
	for i := 0; i < 9; i++ {
		sum += (10 - i) * int(d[i]-'0')
	}
	c := (11 - sum%11) % 11
	if c == 10 {
		return d + "X"
	}
	return d + string(rune('0'+c))
}

// answer is a search's answer, comparable between the store and the
// index.
func answer(total int, ids []int64, err error) string {
	if err != nil {
		return "error " + err.Error()
	}
	return fmt.Sprint(total, " ", ids)
}

var (
	propertySeeds = flag.Int("search-seeds", 1, "TestSearchLikeReference: how many generated knowledge bases to compare over")
	propertyDB    = flag.String("search-real-db", "", "TestSearchLikeReferenceOnDB: a SQLite knowledge base (e.g. the real KBART corpus imported, with a customer c1) to compare over")
)

// TestSearchLikeReferenceOnDB runs TestSearchLikeReference's comparison
// over an existing SQLite knowledge base given with -search-real-db
// (skipped without it): real titles have a vocabulary generated ones
// lack.
func TestSearchLikeReferenceOnDB(t *testing.T) {
	if *propertyDB == "" {
		t.Skip("no -search-real-db: nothing to compare over")
	}
	s, err := sqlite.Open(context.Background(), *propertyDB)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	db, err := sql.Open("sqlite", "file:"+*propertyDB+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	p := &propertyKB{store: s, db: db}
	p.load(t)
	p.compare(t, 3000, 1)
}

// TestSearchLikeReference runs random title searches against the index
// built from a store's database and against the slow reference
// (reference_test.go) over the same feed, and requires the same totals
// and pages (in relevance order, the same titles up to equal scores), and
// the same matches for publication search; again after random selection
// changes and after a re-import.
func TestSearchLikeReference(t *testing.T) {
	n, searches := 3000, 3000
	if testing.Short() {
		n, searches = 1000, 500
	}
	for seed := int64(7); seed < 7+int64(*propertySeeds); seed++ {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) { searchLikeReference(t, n, searches, seed) })
	}
}

// searchLikeReference compares the answers of the index and of the
// reference over a knowledge base of n titles generated from seed.
func searchLikeReference(t *testing.T, n, searches int, seed int64) {
	start := time.Now()
	p := newPropertyKB(t, n, seed)
	t.Logf("knowledge base and index ready in %v", time.Since(start))
	p.compare(t, searches, seed)
	// The same after random selection changes: the index derives the
	// selected titles from the new state, the reference reads them.
	if _, applied := newSelectionChanges(t, p).apply(t, rand.New(rand.NewPCG(uint64(seed), 8)), 150); applied < 30 {
		t.Fatalf("only %d of 150 selection changes were applied: the test tests too little", applied)
	}
	t.Logf("after the selection changes:")
	p.compare(t, searches/3, seed+50)
	// The same after a re-import of every package from a larger pool of
	// titles (titles added, dropped and renamed in packages the
	// customers have state in) and a new index; and through a live index
	// built before the re-import, which catches up with it by a delta of
	// the changed titles, as a running server does.
	ctx := context.Background()
	live := NewLive(ctx, p.store, Options{Inline: true})
	if err := live.Build(ctx, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Generate(ctx, p.store, gen.Options{Titles: n + n/3, Seed: seed, Packages: 20, Vendors: 5}, nil); err != nil {
		t.Fatal(err)
	}
	p.load(t)
	t.Logf("after the re-import:")
	p.compare(t, searches/2, seed+100)
	t.Logf("after the re-import, through the index caught up by a delta:")
	p.compareLive(t, live, searches/2, seed+200)
	if b := live.cur.Load(); b == nil || b.d == nil || b.d.x.Len() == 0 {
		t.Error("the live index did not catch up with the re-import by a delta")
	}
}

// compare runs random searches against the index and the reference and
// requires the same answers.
func (p *propertyKB) compare(t *testing.T, searches int, seed int64) {
	t.Helper()
	// The index derives the selected titles from the selection state as
	// the server does; the reference reads them with the store's SQL.
	state, err := p.store.SelectionOf(context.Background(), "c1")
	if err != nil {
		t.Fatal(err)
	}
	p.compareWith(t, searches, seed,
		func(q kb.TitleQuery) (Result, error) { return p.x.Titles("c1", q, p.x.Selected(state, q.PackageID)) },
		func(q kb.TitleQuery, fn func(int64, float64)) error { return p.x.Matches("c1", q, true, fn) })
}

// compareLive is compare with the answers of a live index (which reads
// the customer's selection itself).
func (p *propertyKB) compareLive(t *testing.T, l *Live, searches int, seed int64) {
	t.Helper()
	ctx := context.Background()
	p.compareWith(t, searches, seed,
		func(q kb.TitleQuery) (Result, error) {
			ids, total, err := l.SearchTitles(ctx, "c1", nowAt(ctx, l, "c1"), q)
			return Result{Total: total, IDs: ids}, err
		},
		func(q kb.TitleQuery, fn func(int64, float64)) error {
			return l.MatchTitles(ctx, "c1", nowAt(ctx, l, "c1"), kb.PubQuery{Search: q.Search, Field: q.Field, Type: q.Type, ByName: true}, fn)
		})
}

// compareWith runs random searches against titles and matches and the
// reference and requires the same answers.
func (p *propertyKB) compareWith(t *testing.T, searches int, seed int64, titles func(kb.TitleQuery) (Result, error),
	matches func(kb.TitleQuery, func(int64, float64)) error) {
	t.Helper()
	start := time.Now()
	ctx := context.Background()
	r := rand.New(rand.NewPCG(22, uint64(seed)))
	mismatch := map[string]int{}
	var examples []string
	nonEmpty := 0
	var indexTime, refTime time.Duration
	differ := func(class string, q kb.TitleQuery, w, g string) {
		mismatch[class]++
		if len(examples) < 30 {
			examples = append(examples, fmt.Sprintf("%s %q sel=%v type=%v pkg=%d pkgs=%v order=%v page=%v\n   reference %.300s\n   index     %.300s",
				class, q.Search, q.Selection, q.ResourceType, q.PackageID, q.PackageIDs, q.OrderBy, q.Page, w, g))
		}
	}
	for i := 0; i < searches; i++ {
		q := p.randomQuery(r)
		refSel, err := selectedIDs(ctx, p.db, "c1", q.PackageID)
		if err != nil {
			t.Fatal(err)
		}
		class := fmt.Sprintf("%v/%v", q.Field, q.Type)
		t0 := time.Now()
		got, gerr := titles(q)
		indexTime += time.Since(t0)
		t0 = time.Now()
		ref, rerr := p.ref.search("c1", q, refSel)
		refTime += time.Since(t0)
		if rerr == nil && len(ref.ids) > 0 {
			nonEmpty++
		}
		if rerr != nil || gerr != nil {
			if w, g := answer(0, nil, rerr), answer(0, nil, gerr); w != g {
				differ(class, q, w, g)
			}
		} else {
			off := min(q.Page.Offset(), len(ref.ids))
			page := ref.ids[off:min(len(ref.ids), off+max(q.Page.Count, 0))]
			w, g := answer(len(ref.ids), page, nil), answer(got.Total, got.IDs, nil)
			if w != g && (ref.scores == nil || len(ref.ids) != got.Total || !ref.samePage(got.IDs, off, q.Page.Count)) {
				differ(class, q, w, g)
			}
		}
		if i%5 == 0 && strings.TrimSpace(q.Search) != "" {
			// Publication search's matches: the same set of titles.
			var im []int64
			ierr := matches(kb.TitleQuery{Search: q.Search, Field: q.Field, Type: q.Type}, func(id int64, _ float64) { im = append(im, id) })
			rm, rerr := p.ref.search("c1", kb.TitleQuery{Search: q.Search, Field: q.Field, Type: q.Type, OrderBy: kb.OrderName}, nil)
			slices.Sort(im)
			slices.Sort(rm.ids)
			if w, g := answer(len(rm.ids), rm.ids, rerr), answer(len(im), im, ierr); w != g {
				differ("matches "+class, q, w, g)
			}
		}
	}
	total := 0
	var classes []string
	for c, k := range mismatch {
		total += k
		classes = append(classes, fmt.Sprintf("%s: %d", c, k))
	}
	sort.Strings(classes)
	t.Logf("searches took %v (index %v, reference %v)", time.Since(start), indexTime, refTime)
	t.Logf("%d titles, %d searches (%d found titles), %d mismatches (%.2f%%)", p.x.Len(), searches, nonEmpty, total, 100*float64(total)/float64(searches))
	if total > 0 {
		t.Errorf("mismatches by field/type: %s\n%s", strings.Join(classes, ", "), strings.Join(examples, "\n"))
	}
	if nonEmpty < searches/3 {
		t.Errorf("only %d of %d searches found titles: the searches test too little", nonEmpty, searches)
	}
}
