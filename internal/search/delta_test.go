package search

import (
	"context"
	"database/sql"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/alpha"
	"github.com/kbserver/kbserver/internal/gen"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/testdb"
)

// TestDeltaLikeRebuild checks that an index with a delta answers as an
// index built anew from the store: after rounds of random writes of
// custom titles (created, renamed, re-identified, moved between packages,
// deleted, a custom package deleted, a managed title added to a custom
// package), then a re-import of every package, random searches of every type, field, filter, order and page
// get the same totals and the same pages (relevance order included,
// exactly) from the old index and its delta as from a new index, and
// publication search's matches the same titles and ranks.
func TestDeltaLikeRebuild(t *testing.T) {
	n, searches := 1500, 1500
	if testing.Short() {
		n, searches = 800, 400
	}
	ctx := context.Background()
	p := newPropertyKB(t, n, 11)
	feed := p.store.(kb.TitleFeed)
	base := p.x
	v0, err := feed.TitlesVersion(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// The base's view, from the names the store has before the writes,
	// in blocks of 64 titles so that pages and places cross blocks.
	defer func(b int) { viewBlock = b }(viewBlock)
	viewBlock = 64
	vb, err := base.NewView(ctx, defaultLocale, feed.FeedNames)
	if err != nil {
		t.Fatal(err)
	}
	r := rand.New(rand.NewPCG(5, 11))
	for round := range 4 {
		if round < 3 {
			changeCustomTitles(t, p, r, 30)
		} else {
			// A re-import of every package from a larger pool of titles:
			// titles added, dropped, renamed and re-identified.
			if _, err := gen.Generate(ctx, p.store, gen.Options{Titles: n + n/3, Seed: 11, Packages: 20, Vendors: 5}, nil); err != nil {
				t.Fatal(err)
			}
		}
		bld := NewBuilder()
		v, changed, ok, err := feed.FeedChanges(ctx, v0, maxDelta, bld.AddPackage, bld.AddTitle)
		if err != nil || !ok || v <= v0 {
			t.Fatalf("round %d: changes since %d: version %d, ok %v, err %v", round, v0, v, ok, err)
		}
		d := newDelta(base, bld.Build(), changed)
		p.load(t) // the index built anew, and the titles searches draw from
		if got, want := d.Len(base), p.x.Len(); got != want {
			t.Errorf("round %d: %d titles with the delta, %d built anew", round, got, want)
		}
		t.Logf("round %d: %d titles changed since the base, %d in the delta, %d retired", round, len(changed), d.x.Len(), d.retired.GetCardinality())
		compareDelta(t, p, base, d, searches, int64(round))
		dv, err := d.newDeltaView(ctx, base, vb, defaultLocale, feed.NamesOf)
		if err != nil {
			t.Fatal(err)
		}
		vf, err := p.x.NewView(ctx, defaultLocale, feed.FeedNames)
		if err != nil {
			t.Fatal(err)
		}
		compareDeltaCollections(t, p, base, d, vb, dv, vf, searches, int64(round))
	}
}

// compareDeltaCollections runs random publication searches and alpha
// menus against p's index (built anew, view vf) and against base (view
// vb) with delta d (placed in vb by dv), and requires the same answers:
// totals, pages, facet counts (the package facet as the service cuts it)
// and menus.
func compareDeltaCollections(t *testing.T, p *propertyKB, base *Index, d *delta, vb *View, dv *deltaView, vf *View, searches int, seed int64) {
	t.Helper()
	ctx := context.Background()
	r := rand.New(rand.NewPCG(29, uint64(seed)))
	feed := p.store.(kb.TitleFeed)
	mismatches, inDelta := 0, 0
	for _, cust := range []string{"c1", "c2"} {
		st, err := feed.SelectionOf(ctx, cust)
		if err != nil {
			t.Fatal(err)
		}
		cf, cb, cd := p.x.Collection(st), base.without(base.Collection(st), d.retired), d.x.Collection(st)
		for rt := range kb.ResourceType(4) {
			id := 1 + r.IntN(len(alpha.TopEntries()))
			m1, err := defaultLocale.NewMenu(id)
			if err != nil {
				t.Fatal(err)
			}
			m2, _ := defaultLocale.NewMenu(id)
			p.x.CountMenu(cf, vf, rt, m1)
			d.countMenu(base, cb, cd, vb, dv, rt, m2)
			if w, g := fmt.Sprint(m1.Result()), fmt.Sprint(m2.Result()); w != g {
				t.Errorf("%s menu of type %v: built anew %.300s, with delta %.300s", cust, rt, w, g)
			}
		}
		for i := 0; i < searches/2; i++ {
			q := p.randomPubQuery(r)
			want, werr := p.x.SearchCollection(cust, cf, vf, q)
			got, ok, gerr := d.searchCollection(base, cust, cb, cd, vb, dv, q)
			if !ok {
				t.Fatalf("%+v: the delta could not answer", q)
			}
			if d.holdsOne(want.IDs) {
				inDelta++
			}
			w := answer(want.Total, want.IDs, werr) + " " + facetString(want.Counts, q.PackageFacetCount)
			g := answer(got.Total, got.IDs, gerr) + " " + facetString(got.Counts, q.PackageFacetCount)
			if w != g {
				mismatches++
				if mismatches <= 20 {
					t.Errorf("%s %+v\n   built anew %.600s\n   with delta %.600s", cust, q, w, g)
				}
			}
		}
	}
	t.Logf("%d publication searches, %d with a changed title on their page, %d mismatches", searches, inDelta, mismatches)
	if inDelta < searches/100 {
		t.Errorf("only %d of %d publication searches had a changed title on their page: the test tests too little", inDelta, searches)
	}
}

// facetString prints facet counts as the service reads them: the package
// facet cut to the packages holding at least the limit-th biggest count.
func facetString(fc *kb.FacetCounts, limit int) string {
	if fc == nil {
		return "no facets"
	}
	if limit <= 0 {
		limit = kb.FacetDefaultCount
	}
	counts := slices.Sorted(maps.Values(fc.Packages))
	slices.Reverse(counts)
	pkgs := map[int64]int{}
	for id, n := range fc.Packages {
		if len(counts) <= limit || n >= counts[limit-1] {
			pkgs[id] = n
		}
	}
	return fmt.Sprint(fc.Subjects, fc.Types, fc.Menus, fc.PeerReviewed, pkgs)
}

// randomPubQuery draws a publication search: a title search's words and
// the service's filters, facets and pages.
func (p *propertyKB) randomPubQuery(r *rand.Rand) kb.PubQuery {
	tq := p.randomQuery(r)
	if tq.Field == kb.FieldISXN {
		tq.Field = kb.FieldTitleName
	}
	q := kb.PubQuery{Search: tq.Search, Field: tq.Field, Type: tq.Type, ByName: r.IntN(3) == 0, Facets: r.IntN(3) != 0,
		Page: kb.Page{Count: 1 + r.IntN(30), Number: 1 + r.IntN(3)}}
	if r.IntN(4) == 0 {
		q.Search = ""
	}
	if r.IntN(5) == 0 {
		q.Page.Number = 1 + r.IntN(40)
	}
	if r.IntN(5) == 0 {
		q.ResourceType = kb.ResourceType(1 + r.IntN(3))
	}
	if r.IntN(6) == 0 {
		q.ResourceTypes = []kb.ResourceType{kb.ResourceType(1 + r.IntN(14)), kb.ResourceType(1 + r.IntN(3))}
	}
	if r.IntN(5) == 0 {
		q.PackageIDs = []int64{p.pkgIDs[r.IntN(len(p.pkgIDs))], p.pkgIDs[len(p.pkgIDs)-1-r.IntN(min(8, len(p.pkgIDs)))]}
	}
	if r.IntN(5) == 0 {
		tops := alpha.TopEntries()
		q.AlphaMenu = tops[r.IntN(len(tops))]
		if r.IntN(2) == 0 {
			deep := []string{"Jo", "Jou", "Th", "The", "Ma", "Re", "A0-9", "1", "Am", "Sa"}
			q.AlphaMenu = deep[r.IntN(len(deep))]
		}
	}
	if r.IntN(6) == 0 {
		b := r.IntN(2) == 0
		q.PeerReviewed = &b
	}
	if q.Facets && r.IntN(2) == 0 {
		q.PackageFacetCount = 1 + r.IntN(4)
	}
	return q
}

// compareDelta runs random searches against p's index (built anew) and
// against base with delta d, and requires the same answers.
func compareDelta(t *testing.T, p *propertyKB, base *Index, d *delta, searches int, seed int64) {
	t.Helper()
	ctx := context.Background()
	r := rand.New(rand.NewPCG(23, uint64(seed)))
	feed := p.store.(kb.TitleFeed)
	mismatches, inDelta := 0, 0
	for i := 0; i < searches; i++ {
		q := p.randomQuery(r)
		cust := "c1"
		if r.IntN(5) == 0 {
			cust = "c2"
		}
		st, err := feed.SelectionOf(ctx, cust)
		if err != nil {
			t.Fatal(err)
		}
		want, werr := p.x.Titles(cust, q, p.x.Selected(st, q.PackageID))
		got, ok, gerr := d.titles(base, cust, q, base.Selected(st, q.PackageID), d.x.Selected(st, q.PackageID))
		if !ok {
			t.Fatalf("%+v: the delta could not answer", q)
		}
		if d.holdsOne(want.IDs) {
			inDelta++
		}
		if w, g := answer(want.Total, want.IDs, werr), answer(got.Total, got.IDs, gerr); w != g {
			mismatches++
			if mismatches <= 20 {
				t.Errorf("%s %v/%v %q sel=%v type=%v pkg=%d pkgs=%v order=%v page=%v\n   built anew %.300s\n   with delta %.300s",
					cust, q.Field, q.Type, q.Search, q.Selection, q.ResourceType, q.PackageID, q.PackageIDs, q.OrderBy, q.Page, w, g)
			}
		}
		if i%4 == 0 {
			tq := kb.TitleQuery{Search: q.Search, Field: q.Field, Type: q.Type}
			byName := r.IntN(2) == 0
			var wm, gm strings.Builder
			werr := p.x.Matches(cust, tq, byName, func(id int64, rank float64) { fmt.Fprintf(&wm, "%d:%v ", id, rank) })
			ok, gerr := d.matches(base, cust, tq, byName, func(id int64, rank float64) { fmt.Fprintf(&gm, "%d:%v ", id, rank) })
			if !ok {
				t.Fatalf("%+v: the delta could not match", tq)
			}
			if w, g := fmt.Sprint(werr, wm.String()), fmt.Sprint(gerr, gm.String()); w != g {
				mismatches++
				if mismatches <= 20 {
					t.Errorf("matches %s %v/%v %q byName=%v\n   built anew %.300s\n   with delta %.300s", cust, q.Field, q.Type, q.Search, byName, w, g)
				}
			}
		}
	}
	t.Logf("%d searches, %d with a changed title on their page, %d mismatches", searches, inDelta, mismatches)
	if inDelta < searches/50 {
		t.Errorf("only %d of %d searches had a changed title on their page: the test tests too little", inDelta, searches)
	}
}

// changeCustomTitles makes n random writes that change what the index
// holds, as a library's staff would: custom titles of c1 (and one of
// c2's, which c1 must not see) created, renamed (sometimes to a managed
// title's name), given another publisher, type or ISSN, deleted, a
// managed title added to a custom package, and rarely a custom package
// deleted with its titles.
func changeCustomTitles(t *testing.T, p *propertyKB, r *rand.Rand, n int) {
	t.Helper()
	ctx := context.Background()
	type res struct{ pkg, vendor, title int64 }
	var pkgs, titles []res
	if err := testdb.EachRow(ctx, p.db, `SELECT id, vendor_id FROM packages WHERE customer_id = 'c1' ORDER BY id`, func(rows *sql.Rows) error {
		var x res
		pkgs = append(pkgs, x)
		return rows.Scan(&pkgs[len(pkgs)-1].pkg, &pkgs[len(pkgs)-1].vendor)
	}); err != nil {
		t.Fatal(err)
	}
	if err := testdb.EachRow(ctx, p.db, `SELECT r.package_id, p.vendor_id, r.title_id FROM resources r JOIN packages p ON p.id = r.package_id
		WHERE p.customer_id = 'c1' ORDER BY r.package_id, r.title_id`, func(rows *sql.Rows) error {
		var x res
		if err := rows.Scan(&x.pkg, &x.vendor, &x.title); err != nil {
			return err
		}
		titles = append(titles, x)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	name := func() string {
		tt := p.titles[r.IntN(len(p.titles))]
		switch r.IntN(3) {
		case 0:
			return tt.Name // a managed title's name: ties in name order
		case 1:
			return tt.Name + " Revised"
		}
		return strings.ToUpper(tt.Name) + " " + p.titles[r.IntN(len(p.titles))].Name
	}
	fields := func() *kb.TitleFields {
		f := &kb.TitleFields{Name: name(), PubType: kb.ResourceType(1 + r.IntN(14)), Publisher: p.titles[r.IntN(len(p.titles))].Publisher, PeerReviewed: r.IntN(2) == 0}
		if r.IntN(2) == 0 {
			f.Identifiers = []kb.Identifier{{Type: kb.IdentISSN, Subtype: kb.SubtypePrint, ID: fmt.Sprintf("%04d-%04d", r.IntN(10000), r.IntN(10000))}}
		}
		return f
	}
	for range n {
		var err error
		switch k := r.IntN(20); {
		case k < 6 && len(pkgs) > 0:
			pk := pkgs[r.IntN(len(pkgs))]
			_, err = p.store.CreateCustomTitle(ctx, "c1", pk.vendor, pk.pkg, kb.CustomTitle{TitleFields: *fields()})
		case k < 12 && len(titles) > 0:
			x := titles[r.IntN(len(titles))]
			err = p.store.UpdateResource(ctx, "c1", x.vendor, x.pkg, x.title, kb.ResourceUpdate{Selected: true, Title: fields()})
		case k < 15 && len(titles) > 0:
			x := titles[r.IntN(len(titles))]
			err = p.store.UpdateResource(ctx, "c1", x.vendor, x.pkg, x.title, kb.ResourceUpdate{Selected: false})
		case k < 18 && len(pkgs) > 0:
			pk := pkgs[r.IntN(len(pkgs))]
			err = p.store.UpdateResource(ctx, "c1", pk.vendor, pk.pkg, p.titles[r.IntN(len(p.titles))].ID, kb.ResourceUpdate{Selected: true})
		case k == 18 && len(pkgs) > 1 && r.IntN(4) == 0:
			pk := pkgs[r.IntN(len(pkgs))]
			err = p.store.DeleteCustomPackage(ctx, "c1", pk.vendor, pk.pkg)
		default:
			c, cerr := p.store.Customer(ctx, "c2")
			if cerr != nil {
				t.Fatal(cerr)
			}
			var pid int64
			pid, err = p.store.CreateCustomPackage(ctx, "c2", c.VendorID, kb.CustomPackage{Name: fmt.Sprintf("Changed %d", r.Int()), ContentType: kb.ContentEBook})
			if err == nil {
				_, err = p.store.CreateCustomTitle(ctx, "c2", c.VendorID, pid, kb.CustomTitle{TitleFields: *fields()})
			}
		}
		// A name another custom title of the package has, a title or
		// package deleted by an earlier write: refused, as staff would be.
		if kb.ErrorCode(err) == kb.CodeInternal {
			t.Fatal(err)
		}
	}
}

// TestDeltaTies checks the merge where the two indexes' titles tie: titles
// of one name (sort name equal, ids apart) on both sides, which score
// alike in relevance order and go by id in name order, a changed title
// keeping its id and its name, and one deleted.
func TestDeltaTies(t *testing.T) {
	title := func(id int64, name string) Title {
		return Title{ID: id, Name: name, Type: kb.ResourceJournal, Packages: []int64{1}}
	}
	before := []Title{title(1, "Same Name"), title(3, "Same Name"), title(5, "same name"), title(6, "Other Name"),
		title(7, "Same Name Journal"), title(8, "Zeta")}
	after := []Title{title(1, "Same Name"), title(2, "SAME NAME"), title(3, "Same Name"), title(4, "Same Name"),
		title(5, "same name"), title(7, "Same Name Journal"), title(8, "Same"), title(9, "Alpha Same")}
	changed := []int64{2, 4, 6, 8, 9}
	base, fresh, d := deltaOf(before, after, changed, []Package{{ID: 1}})
	for _, search := range []string{"same", "same name", "name", "same journal", "alpha same"} {
		for _, typ := range []kb.SearchType{kb.SearchAny, kb.SearchContains, kb.SearchBeginsWith, kb.SearchExactMatch} {
			for _, order := range []kb.Order{kb.OrderName, kb.OrderRelevance} {
				for off := 0; off < 8; off++ {
					q := kb.TitleQuery{Search: search, Type: typ, OrderBy: order, Page: kb.Page{Count: 3, Number: 1 + off/3}}
					q.Page.Count = 1 + off%3
					want, werr := fresh.Titles("c", q, nil)
					got, _, gerr := d.titles(base, "c", q, nil, nil)
					if w, g := answer(want.Total, want.IDs, werr), answer(got.Total, got.IDs, gerr); w != g {
						t.Errorf("%q %v %v page %v: built anew %s, with delta %s", search, typ, order, q.Page, w, g)
					}
				}
			}
		}
	}
}

// TestDeltaCollectionPages checks publication search's merge of an index
// and its delta on a small knowledge base, every page of one title to
// three, in name order and relevance order, and a package facet of one
// entry that the delta's titles change: the base's package A holds more
// of the result than B, and the delta adds enough to B for B to lead.
// The views hold blocks of two titles, so that places cross blocks.
func TestDeltaCollectionPages(t *testing.T) {
	defer func(b int) { viewBlock = b }(viewBlock)
	viewBlock = 2
	title := func(id int64, name string, pkg int64) Title {
		return Title{ID: id, Name: name, Type: kb.ResourceJournal, Packages: []int64{pkg}}
	}
	before := []Title{title(1, "Journal of Alpha", 1), title(2, "Journal of Beta", 1), title(3, "The Journal", 1),
		title(4, "Journal Gamma", 1), title(5, "Journal Delta", 1), title(6, "Journal Epsilon", 2), title(7, "Journal Zeta", 2),
		title(8, "Journal Eta", 2), title(9, "Journal Theta", 2), title(10, "Old Name", 2), title(11, "Journal Iota", 1)}
	after := []Title{title(1, "Journal of Alpha", 1), title(2, "Journal of Beta", 1), title(3, "The Journal", 1),
		title(4, "Journal Gamma", 1), title(5, "Journal Delta", 1), title(6, "Journal Epsilon", 2), title(7, "Journal Zeta", 2),
		title(8, "Journal Eta", 2), title(9, "Journal Theta", 2), title(10, "A Journal Renamed", 2), title(12, "journal of alpha", 2),
		title(13, "Journal Kappa", 2), title(14, "Nature Letters", 2), title(15, "Journal Io", 2)}
	changed := []int64{10, 11, 12, 13, 14, 15}
	names := func(titles []Title) namesOf {
		return func(_ context.Context, ids []int64, fn func(int64, string)) error {
			for _, tt := range titles {
				if ids == nil || slices.Contains(ids, tt.ID) {
					fn(tt.ID, tt.Name)
				}
			}
			return nil
		}
	}
	feedAll := func(titles []Title) func(context.Context, func(int64, string)) error {
		return func(ctx context.Context, fn func(int64, string)) error { return names(titles)(ctx, nil, fn) }
	}
	base, fresh, d := deltaOf(before, after, changed, []Package{{ID: 1}, {ID: 2}})
	ctx := context.Background()
	vb, err := base.NewView(ctx, defaultLocale, feedAll(before))
	if err != nil {
		t.Fatal(err)
	}
	vf, err := fresh.NewView(ctx, defaultLocale, feedAll(after))
	if err != nil {
		t.Fatal(err)
	}
	dv, err := d.newDeltaView(ctx, base, vb, defaultLocale, names(after))
	if err != nil {
		t.Fatal(err)
	}
	// A base title deleted after the delta was made (its name gone from
	// the store) is stepped over, not an error.
	var deleted []Title
	for _, tt := range after {
		if tt.ID != 7 {
			deleted = append(deleted, tt)
		}
	}
	if _, err := d.newDeltaView(ctx, base, vb, defaultLocale, names(deleted)); err != nil {
		t.Errorf("a base title deleted meanwhile: %v", err)
	}
	st := kb.SelectionState{Packages: []int64{1, 2}}
	cf, cb, cd := fresh.Collection(st), base.without(base.Collection(st), d.retired), d.x.Collection(st)
	for _, search := range []string{"", "journal", "journal of alpha"} {
		for _, byName := range []bool{true, false} {
			for off := 0; off < 16; off++ {
				for count := 1; count <= 3; count++ {
					if off%count != 0 {
						continue
					}
					q := kb.PubQuery{Search: search, Type: kb.SearchContains, ByName: byName, Facets: true, PackageFacetCount: 1,
						Page: kb.Page{Count: count, Number: 1 + off/count}}
					want, werr := fresh.SearchCollection("c", cf, vf, q)
					got, _, gerr := d.searchCollection(base, "c", cb, cd, vb, dv, q)
					w := answer(want.Total, want.IDs, werr) + " " + facetString(want.Counts, 1)
					g := answer(got.Total, got.IDs, gerr) + " " + facetString(got.Counts, 1)
					if w != g {
						t.Errorf("%q by name %v page %v: built anew %s, with delta %s", search, byName, q.Page, w, g)
					}
				}
			}
		}
	}
}

// deltaOf returns the indexes of the titles before and after a change of
// the titles changed, and the delta of the change over the first.
func deltaOf(before, after []Title, changed []int64, pkgs []Package) (base, fresh *Index, d *delta) {
	var delta []Title
	for _, tt := range after {
		if slices.Contains(changed, tt.ID) {
			delta = append(delta, tt)
		}
	}
	base = buildIndex(before, pkgs)
	return base, buildIndex(after, pkgs), newDelta(base, buildIndex(delta, pkgs), changed)
}

// holdsOne reports whether one of the titles ids is in the delta.
func (d *delta) holdsOne(ids []int64) bool {
	return slices.ContainsFunc(ids, func(id int64) bool {
		_, ok := d.x.Ordinal(id)
		return ok
	})
}
