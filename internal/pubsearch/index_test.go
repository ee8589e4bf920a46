package pubsearch

import (
	"context"
	"database/sql"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kbserver/kbserver/internal/alpha"
	"github.com/kbserver/kbserver/internal/gen"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
	"github.com/kbserver/kbserver/internal/search"
	"github.com/kbserver/kbserver/internal/testdb"
	"github.com/kbserver/kbserver/internal/testindex"
)

// collectionPath is a publication store that answers no search or menu
// from its title index, so that the caller takes the collection path: the
// collection read from the store's tables, filtered, counted and ordered
// title by title, and the search's matches (with their relevance) from
// TitleMatches.
type collectionPath struct{ kb.PublicationStore }

func (collectionPath) SearchCollection(context.Context, string, *alpha.Locale, kb.PubQuery) (kb.CollectionPage, bool, error) {
	return kb.CollectionPage{}, false, nil
}

func (collectionPath) CollectionMenu(context.Context, string, kb.ResourceType, *alpha.Menu) (bool, error) {
	return false, nil
}

// TestCollectionLikeStore runs random publication searches (words of
// every field and type, every filter, facets with their limits and the
// subject scheme, both orders, three locales, any page) and alpha menus
// over a generated knowledge base, answered from the title index and by
// the collection path, and requires the same answers: totals, pages,
// records and facets. (The collection path's matches come from the
// index too, as in the server: relevance is the index's, see
// docs/search-engine.md; TestSearchLikeReference compares the matches with
// a slow reference.) Between rounds, random selection changes
// (packages and titles selected, deselected and hidden) move customer
// c1's collection; then a re-import of every package moves the
// knowledge base.
func TestCollectionLikeStore(t *testing.T) {
	n, searches := 2000, 300
	if testing.Short() {
		n, searches = 800, 100
	}
	ctx := context.Background()
	dsn := testdb.NewDSN(t)
	st := testindex.OpenDSN(t, dsn)
	if _, err := gen.Generate(ctx, st, gen.Options{Titles: n, Seed: 5, Packages: 16, Vendors: 4}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := gen.Customers(ctx, st, 5, []gen.CustomerSpec{{ID: "c1", Holdings: n / 2}}, nil); err != nil {
		t.Fatal(err)
	}
	db := testdb.DB(t, dsn)
	live := search.NewLive(ctx, st.(kb.IndexedStore), search.Options{Inline: true})
	st.(kb.IndexedStore).UseTitleIndex(live)
	ref, idx := NewIndex(0, true), NewIndex(0, true)
	r := rand.New(rand.NewPCG(8, 9))
	locales := []*alpha.Locale{}
	for _, tag := range []string{"en", "fr", "de"} {
		loc, err := alpha.ParseLocale(tag)
		if err != nil {
			t.Fatal(err)
		}
		locales = append(locales, loc)
	}
	compared, nonEmpty, changes, deep, deepFound := 0, 0, 0, 0, 0
	round := func(name string) {
		d := drawFrom(t, db)
		for range searches {
			q := d.query(r)
			loc := locales[r.IntN(len(locales))]
			if r.IntN(4) == 0 {
				// An entry below the first level that a title of the
				// knowledge base falls under, in the query's locale,
				// often without words so that it matches.
				if e, ok := loc.Path(d.names[r.IntN(len(d.names))]).Entry(2 + r.IntN(3)); ok {
					q.AlphaMenu = e.String()
					if r.IntN(3) != 0 {
						q.Search = ""
					}
					deep++
				}
			}
			want, werr := ref.Search(ctx, collectionPath{st}, "c1", loc, q)
			before := live.Answered()
			got, gerr := idx.Search(ctx, st, "c1", loc, q)
			if live.Answered() == before && gerr == nil {
				t.Fatalf("%s: the index did not answer %+v", name, q)
			}
			if fmt.Sprint(werr) != fmt.Sprint(gerr) {
				t.Fatalf("%s: %+v (%s): error %v, want %v", name, q, loc.Tag(), gerr, werr)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Fatalf("%s: %+v (%s): index answer differs (-store +index):\n%s", name, q, loc.Tag(), diff)
			}
			compared++
			if want.Total > 0 {
				nonEmpty++
				if q.AlphaMenu != "" && len(q.AlphaMenu) > 1 && q.AlphaMenu != "0-9" && q.AlphaMenu != "Other" {
					deepFound++
				}
			}
		}
		for _, id := range []int{1, 2, 5, 28, 203, 215, 1905, 20301, 20315} {
			loc := locales[r.IntN(len(locales))]
			rt := kb.ResourceAll
			if r.IntN(3) == 0 {
				rt = kb.ResourceType(1 + r.IntN(3))
			}
			want, _ := loc.NewMenu(id)
			got, _ := loc.NewMenu(id)
			if err := ref.Menu(ctx, collectionPath{st}, "c1", rt, want); err != nil {
				t.Fatal(err)
			}
			if err := idx.Menu(ctx, st, "c1", rt, got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want.Result(), got.Result()); diff != "" {
				t.Fatalf("%s: menu %d of type %v (%s) differs (-store +index):\n%s", name, id, rt, loc.Tag(), diff)
			}
		}
	}
	round("generated")
	for k := range 3 {
		changes += changeSelections(t, st, db, r, 40)
		round(fmt.Sprint("after selection changes ", k+1))
	}
	if _, err := gen.Generate(ctx, st, gen.Options{Titles: n + n/3, Seed: 5, Packages: 16, Vendors: 4}, nil); err != nil {
		t.Fatal(err)
	}
	round("after a re-import")
	t.Logf("%d searches compared, %d with matches; %d selection changes applied; %d deep alpha entries, %d matching", compared, nonEmpty, changes, deep, deepFound)
	if nonEmpty < compared/4 || changes < 40 || deepFound < deep/4 {
		t.Errorf("%d of %d searches matched, %d changes applied, %d of %d deep alpha entries matched: the test tests too little", nonEmpty, compared, changes, deepFound, deep)
	}
}

// changeSelections applies up to n random changes of c1's selections and
// returns how many the rules accepted.
func changeSelections(t *testing.T, st kb.Store, db *sql.DB, r *rand.Rand, n int) int {
	t.Helper()
	ctx := context.Background()
	type res struct{ vendor, pkg, title int64 }
	var rs []res
	err := testdb.EachRow(context.Background(), db, `SELECT p.vendor_id, r.package_id, r.title_id FROM resources r JOIN packages p ON p.id = r.package_id WHERE p.customer_id IS NULL ORDER BY r.package_id, r.title_id`, func(rows *sql.Rows) error {
		var x res
		if err := rows.Scan(&x.vendor, &x.pkg, &x.title); err != nil {
			return err
		}
		rs = append(rs, x)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	applied := 0
	for range n {
		x := rs[r.IntN(len(rs))]
		var err error
		switch k := r.IntN(7); k {
		case 0, 1, 2:
			u := kb.PackageUpdate{Selected: k != 2, Hidden: k == 1 && r.IntN(2) == 0}
			if k == 0 && r.IntN(3) == 0 {
				no := false
				u.FullPackage = &no
			}
			err = st.UpdatePackage(ctx, "c1", x.vendor, x.pkg, u)
		default:
			err = st.UpdateResource(ctx, "c1", x.vendor, x.pkg, x.title, kb.ResourceUpdate{Selected: k != 6, Hidden: k == 5})
		}
		switch kb.ErrorCode(err) {
		case 0:
			applied++
		case kb.CodeInvalid, kb.CodeNotAllowed:
		default:
			t.Fatal(err)
		}
	}
	return applied
}

// draw is what random publication searches draw from.
type draw struct {
	names, publishers []string
	subjects          []kb.Subject
	packages          []int64
}

func drawFrom(t *testing.T, db *sql.DB) *draw {
	t.Helper()
	d := &draw{}
	err := testdb.EachRow(context.Background(), db, `SELECT id, name, publisher, COALESCE(subjects, '') FROM titles ORDER BY id`, func(rows *sql.Rows) error {
		var id int64
		var name, pub, subj string
		if err := rows.Scan(&id, &name, &pub, &subj); err != nil {
			return err
		}
		d.names, d.publishers = append(d.names, name), append(d.publishers, pub)
		ss, err := kbsql.DecodeSubjects(id, subj)
		d.subjects = append(d.subjects, ss...)
		return err
	})
	if err == nil {
		err = testdb.EachRow(context.Background(), db, `SELECT id FROM packages ORDER BY id`, func(rows *sql.Rows) error {
			var id int64
			err := rows.Scan(&id)
			d.packages = append(d.packages, id)
			return err
		})
	}
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// query draws a publication search.
func (d *draw) query(r *rand.Rand) kb.PubQuery {
	q := kb.PubQuery{ByName: r.IntN(3) == 0, Page: kb.Page{Count: 1 + r.IntN(40), Number: 1 + r.IntN(3)}, Facets: r.IntN(4) != 0}
	if r.IntN(5) == 0 {
		q.Page.Number = 1 + r.IntN(60)
	}
	if r.IntN(5) != 0 { // words
		q.Type = kb.SearchType(r.IntN(7))
		words := kb.Words(d.names[r.IntN(len(d.names))])
		switch r.IntN(5) {
		case 0:
			q.Field = kb.FieldPublisher
			words = kb.Words(d.publishers[r.IntN(len(d.publishers))])
		case 1:
			q.Field = kb.FieldSubject
			words = kb.Words(d.subjects[r.IntN(len(d.subjects))].Name)
		}
		if len(words) > 0 {
			lo := r.IntN(len(words))
			hi := lo + 1 + r.IntN(min(3, len(words)-lo))
			words = words[lo:hi]
		}
		for _, w := range words {
			if q.Search != "" {
				q.Search += " "
			}
			q.Search += w
		}
		if q.Type == kb.SearchAdvanced && len(words) > 1 && r.IntN(2) == 0 {
			q.Search = words[0] + " OR " + words[1]
		}
	}
	if r.IntN(4) == 0 {
		q.ResourceType = kb.ResourceType(1 + r.IntN(3))
	}
	if r.IntN(5) == 0 {
		q.ResourceTypes = []kb.ResourceType{kb.ResourceType(1 + r.IntN(14)), kb.ResourceType(1 + r.IntN(3))}
	}
	if r.IntN(4) == 0 {
		q.Subjects = []string{d.subjects[r.IntN(len(d.subjects))].Name}
		if r.IntN(2) == 0 {
			q.Subjects = append(q.Subjects, " "+d.subjects[r.IntN(len(d.subjects))].Name+" ")
		}
	}
	if r.IntN(4) == 0 {
		q.PackageIDs = []int64{d.packages[r.IntN(len(d.packages))], d.packages[r.IntN(len(d.packages))]}
	}
	if r.IntN(4) == 0 {
		tops := alpha.TopEntries()
		q.AlphaMenu = tops[r.IntN(len(tops))]
		if r.IntN(2) == 0 { // an entry below the first level
			deep := []string{"Jo", "Jou", "Jour", "Th", "The", "Ma", "Me", "Re", "Ad", "A0-9", "1", "12", "Z0-9", "Am"}
			q.AlphaMenu = deep[r.IntN(len(deep))]
		}
	}
	if r.IntN(5) == 0 {
		b := r.IntN(2) == 0
		q.PeerReviewed = &b
	}
	if q.Facets && r.IntN(3) == 0 {
		q.SubjectFacetCount, q.ResourceTypeFacetCount, q.PackageFacetCount, q.AlphaMenuFacetCount = 1+r.IntN(5), 1+r.IntN(3), 1+r.IntN(4), 1+r.IntN(10)
	}
	if q.Facets && r.IntN(4) == 0 {
		q.SubjectSchema = d.subjects[r.IntN(len(d.subjects))].Type
	}
	return q
}
