package search

import (
	"fmt"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/kbserver/kbserver/internal/kb"
)

func TestEachTrigram(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"ab", nil},
		{"abc", []string{"abc"}},
		{"abcd", []string{"abc", "bcd"}},
		{"zébra", []string{"zéb", "ébr", "bra"}},
	} {
		var got []string
		eachTrigram(c.in, func(g string) { got = append(got, g) })
		if !slices.Equal(got, c.want) {
			t.Errorf("eachTrigram(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}

// terms returns one-term sets for the term ids.
func terms(ids ...uint32) []termSet {
	out := make([]termSet, len(ids))
	for i, id := range ids {
		out[i] = termSet{lo: id, hi: id + 1}
	}
	return out
}

func TestPhraseAndNear(t *testing.T) {
	// Tokens 1 2 3 then 8 filler tokens (0), then 4: 4 is 11 positions
	// after 3, so ten tokens lie between them.
	toks := []uint32{1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 4}
	for _, c := range []struct {
		words        []termSet
		phrase, near bool
	}{
		{terms(1, 2), true, true},
		{terms(2, 1), false, true},
		{terms(1, 3), false, true},
		{terms(3, 4), false, true},  // ten tokens between: NEAR(…, 10) holds
		{terms(2, 4), false, false}, // eleven between
		{terms(4, 2), false, false},
		{terms(1, 1), false, true}, // one token serves both words
		{terms(5, 1), false, false},
		{[]termSet{{lo: 1, hi: 3}, {lo: 3, hi: 4}}, true, true}, // a range (prefix) as the first word
	} {
		if got := phraseAt(toks, c.words); got != c.phrase {
			t.Errorf("phraseAt(%v) = %v, want %v", c.words, got, c.phrase)
		}
		if got := near(toks, c.words, nearDistance); got != c.near {
			t.Errorf("near(%v) = %v, want %v", c.words, got, c.near)
		}
	}
}

// smallIndex is a hand-made knowledge base for the rules of each search.
func smallIndex() *Index {
	b := NewBuilder()
	b.AddPackage(Package{ID: 20, CustomerID: "c9"})
	for _, t := range []Title{
		{ID: 1, Name: "Alpha Beta Gamma", Publisher: "North Press", Type: kb.ResourceJournal, Subjects: []kb.Subject{{Name: "Physics"}, {Name: "Space Science"}},
			Identifiers: []string{"1234-5679"}, Packages: []int64{10}},
		{ID: 2, Name: "Alpha Delta", Publisher: "South Press", Type: kb.ResourceBook, Subjects: []kb.Subject{{Name: "Space"}},
			Identifiers: []string{"9780306406157"}, Packages: []int64{10, 11}},
		{ID: 3, Name: "Beta: Gamma & Delta", Publisher: "North Press", Type: kb.ResourceJournal, Subjects: []kb.Subject{{Name: "Science Fiction"}}, Packages: []int64{11}},
		{ID: 4, Name: "Gamma", Publisher: "Northern Books", Type: kb.ResourceBook, Packages: []int64{11}},
		{ID: 5, Name: "Zébra Gamma", Publisher: "Éditions du Sud", Type: kb.ResourceBook, Packages: []int64{10}},
		{ID: 6, Name: "alpha delta", Publisher: "South Press", Type: kb.ResourceBook, CustomerID: "c9", Packages: []int64{20}},
		{ID: 7, Name: "Alpha Local", Type: kb.ResourceBook, CustomerID: "c8"},
	} {
		b.AddTitle(t)
	}
	return b.Build()
}

func TestTitles(t *testing.T) {
	x := smallIndex()
	sel := roaring.New()
	for _, id := range []int64{1, 4} {
		o, _ := x.Ordinal(id)
		sel.Add(o)
	}
	type q = kb.TitleQuery
	for _, c := range []struct {
		cust string
		q    q
		want string
	}{
		{"c9", q{}, "6 [1 2 6 3 4 5]"}, // name order; c8's custom title hidden; equal names by id
		{"c1", q{Search: "alpha", Type: kb.SearchAny, OrderBy: kb.OrderName}, "2 [1 2]"},
		{"c9", q{Search: "alpha", Type: kb.SearchAny, OrderBy: kb.OrderName}, "3 [1 2 6]"},
		{"c1", q{Search: "gamma", Type: kb.SearchAny}, "4 [4 5 1 3]"}, // relevance: the shorter name first, then name order
		{"c1", q{Search: "alpha OR beta gamma", Type: kb.SearchAdvanced, OrderBy: kb.OrderName}, "3 [1 2 3]"},
		{"c1", q{Search: "(alpha OR beta) gamma", Type: kb.SearchAdvanced, OrderBy: kb.OrderName}, "2 [1 3]"},
		{"c1", q{Search: "gamma NOT alpha delta", Type: kb.SearchAdvanced, OrderBy: kb.OrderName}, "1 [3]"},
		{"c1", q{Search: `"beta gamma"`, Type: kb.SearchAdvanced, OrderBy: kb.OrderName}, "2 [1 3]"},
		{"c1", q{Search: `"alpha b"*`, Type: kb.SearchAdvanced, OrderBy: kb.OrderName}, "1 [1]"},
		{"c1", q{Search: `alpha AND`, Type: kb.SearchAdvanced}, "error"},
		{"c1", q{Search: "elt", Type: kb.SearchContains, OrderBy: kb.OrderName}, "2 [2 3]"},
		{"c1", q{Search: "ebra", Type: kb.SearchContains, OrderBy: kb.OrderName}, "1 [5]"},
		{"c1", q{Search: "GAM de", Type: kb.SearchContains, OrderBy: kb.OrderName}, "1 [3]"}, // "de" is short: a word prefix
		{"c1", q{Search: "am", Type: kb.SearchContains}, "0 []"},
		{"c1", q{Search: "Alpha Delta!", Type: kb.SearchExactMatch}, "1 [2]"},
		{"c1", q{Search: "beta gamma", Type: kb.SearchExactMatch}, "0 []"},
		{"c1", q{Search: "beta gamma", Type: kb.SearchExactPhrase}, "2 [1 3]"},
		{"c1", q{Search: "BETA: gam", Type: kb.SearchBeginsWith}, "1 [3]"},
		{"c1", q{Search: "north", Type: kb.SearchBeginsWith, Field: kb.FieldPublisher}, "3 [1 3 4]"},
		{"c1", q{Search: "north press", Type: kb.SearchExactMatch, Field: kb.FieldPublisher}, "2 [1 3]"},
		{"c1", q{Search: "editions", Type: kb.SearchAny, Field: kb.FieldPublisher}, "1 [5]"},
		{"c1", q{Search: "space science", Type: kb.SearchExactMatch, Field: kb.FieldSubject}, "1 [1]"},
		{"c1", q{Search: "physics space", Type: kb.SearchExactPhrase, Field: kb.FieldSubject}, "1 [1]"}, // across subjects, as FTS5 does
		{"c1", q{Search: "sci", Type: kb.SearchContains, Field: kb.FieldSubject, OrderBy: kb.OrderName}, "2 [1 3]"},
		{"c1", q{Search: "ience", Type: kb.SearchContains, Field: kb.FieldSubject}, "0 []"}, // subjects: word prefixes only
		{"c1", q{Search: "12345679", Field: kb.FieldISXN}, "1 [1]"},
		{"c1", q{Search: "0-306-40615-2", Field: kb.FieldISXN}, "1 [2]"}, // ISBN-10 finds its ISBN-13
		{"c1", q{Search: "978", Type: kb.SearchBeginsWith, Field: kb.FieldISXN}, "1 [2]"},
		{"c1", q{Search: "978", Type: kb.SearchExactMatch, Field: kb.FieldISXN}, "0 []"},
		{"c1", q{Search: "gamma", Type: kb.SearchAny, OrderBy: kb.OrderName, ResourceType: kb.ResourceJournal}, "2 [1 3]"},
		{"c1", q{Search: "gamma", Type: kb.SearchAny, OrderBy: kb.OrderName, Selection: kb.SelectionSelected}, "2 [1 4]"},
		{"c1", q{Search: "gamma", Type: kb.SearchAny, OrderBy: kb.OrderName, Selection: kb.SelectionNotSelected}, "2 [3 5]"},
		{"c1", q{Search: "gamma", Type: kb.SearchAny, Selection: kb.SelectionOrderedThroughOperator}, "0 []"},
		{"c1", q{Search: "gamma", Type: kb.SearchAny, OrderBy: kb.OrderName, PackageID: 11}, "2 [3 4]"},
		{"c1", q{Search: "delta", Type: kb.SearchAny, OrderBy: kb.OrderName, PackageIDs: []int64{20, 11}}, "2 [2 3]"}, // c9's package is not c1's
		{"c9", q{Search: "delta", Type: kb.SearchAny, OrderBy: kb.OrderName, PackageIDs: []int64{20}}, "1 [6]"},
		{"c1", q{Search: "gamma", Type: kb.SearchAny, OrderBy: kb.OrderName, Page: kb.Page{Count: 2, Number: 2}}, "4 [4 5]"},
		{"c1", q{Search: "gamma", Type: kb.SearchAny, Page: kb.Page{Count: 2, Number: 2}}, "4 [1 3]"},
		{"c1", q{Search: "gamma", Type: kb.SearchAny, Page: kb.Page{Count: 2, Number: 3}}, "4 []"},
		{"c1", q{Search: "!!", Type: kb.SearchAny}, "0 []"},
	} {
		if c.q.Page.Count == 0 {
			c.q.Page = kb.Page{Count: 10, Number: 1}
		}
		r, err := x.Titles(c.cust, c.q, sel)
		got := fmt.Sprint(r.Total, " ", r.IDs)
		if err != nil {
			got = "error"
		}
		if got != c.want {
			t.Errorf("%s %+v: got %s, want %s", c.cust, c.q, got, c.want)
		}
	}
}

// TestConcurrentSearches runs searches that fill the prefix cache from
// several goroutines at once (run with -race to check the index is safe
// for concurrent use) and requires every answer to be the same.
func TestConcurrentSearches(t *testing.T) {
	b := NewBuilder()
	for i := 0; i < 2000; i++ {
		b.AddTitle(Title{ID: int64(i + 1), Name: fmt.Sprintf("Alpha a%03d b%d", i%700, i%7), Type: kb.ResourceBook})
	}
	x := b.Build()
	queries := []kb.TitleQuery{
		{Search: "a", Type: kb.SearchContains, Page: kb.Page{Count: 5, Number: 3}},
		{Search: "a0* b3", Type: kb.SearchAdvanced, Page: kb.Page{Count: 5, Number: 1}},
		{Search: "alpha a1", Type: kb.SearchBeginsWith, Page: kb.Page{Count: 5, Number: 2}},
	}
	want := make([]string, len(queries))
	for i, q := range queries {
		r, err := x.Titles("", q, nil)
		if err != nil {
			t.Fatal(err)
		}
		want[i] = fmt.Sprint(r)
	}
	x = b.Build() // the same titles again: the builder keeps nothing, so it is empty
	if x.Len() != 0 {
		t.Fatalf("a second Build has %d titles, want 0", x.Len())
	}
	b = NewBuilder()
	for i := 0; i < 2000; i++ {
		b.AddTitle(Title{ID: int64(i + 1), Name: fmt.Sprintf("Alpha a%03d b%d", i%700, i%7), Type: kb.ResourceBook})
	}
	x = b.Build()
	errs := make(chan string, 8*len(queries))
	done := make(chan struct{})
	for g := 0; g < 8; g++ {
		go func() {
			defer func() { done <- struct{}{} }()
			for i, q := range queries {
				r, err := x.Titles("", q, nil)
				if got := fmt.Sprint(r); err != nil || got != want[i] {
					errs <- fmt.Sprintf("%+v: got %s (%v), want %s", q, got, err, want[i])
				}
			}
		}()
	}
	for g := 0; g < 8; g++ {
		<-done
	}
	close(errs)
	for e := range errs {
		t.Error(e)
	}
}

func TestOrdinal(t *testing.T) {
	x := smallIndex()
	for id := int64(0); id <= 8; id++ {
		o, ok := x.Ordinal(id)
		if want := id >= 1 && id <= 7; ok != want {
			t.Fatalf("Ordinal(%d) ok = %v, want %v", id, ok, want)
		}
		if ok && x.ID(o) != id {
			t.Errorf("ID(Ordinal(%d)) = %d", id, x.ID(o))
		}
	}
}

// TestProximityByLength checks proximity searches at the boundary of the
// field length under which any two words are near (nearDistance+2
// tokens): the first and last words of a 12-word name are near, those of
// 13- and 14-word names are not, however the index gets there.
func TestProximityByLength(t *testing.T) {
	name := func(n int) string {
		ws := []string{"alpha"}
		for i := 0; i < n-2; i++ {
			ws = append(ws, fmt.Sprintf("w%c", 'a'+i))
		}
		return fmt.Sprint(append(ws, "omega"))
	}
	b := NewBuilder()
	for n := 2; n <= 14; n++ {
		b.AddTitle(Title{ID: int64(n), Name: name(n)[1 : len(name(n))-1], Type: kb.ResourceJournal})
	}
	x := b.Build()
	res, err := x.Titles("c", kb.TitleQuery{Search: "alpha omega", Type: kb.SearchProximity, OrderBy: kb.OrderName, Page: kb.Page{Count: 50, Number: 1}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := slices.Clone(res.IDs)
	slices.Sort(got)
	want := []int64{2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	if !slices.Equal(got, want) {
		t.Errorf("proximity alpha omega found the names of %v words, want %v", got, want)
	}
}

// TestPhraseOfCommonWords checks phrases of words common enough to have
// pair postings: a two-word phrase is its pair; a longer one needs its
// pairs at consecutive positions, not just somewhere in the name.
func TestPhraseOfCommonWords(t *testing.T) {
	b := NewBuilder()
	id := int64(0)
	add := func(name string, n int) {
		for i := range n {
			id++
			b.AddTitle(Title{ID: id, Name: fmt.Sprintf("%s n%d", name, i), Type: kb.ResourceJournal})
		}
	}
	add("alpha beta gamma", 100)
	add("alpha beta delta beta gamma", 100)
	add("gamma alpha beta", 100)
	x := b.Build()
	if !x.name.common.Contains(x.name.termIDForTest("beta")) {
		t.Fatal("beta is not a common term: the test tests nothing")
	}
	for _, c := range []struct {
		phrase string
		want   int
	}{
		{"alpha beta gamma", 100},
		{"beta gamma", 200},
		{"gamma alpha", 100},
		{"alpha beta", 300},
		{"beta alpha", 0},
		{"delta beta gamma", 100},
		{"alpha beta delta beta", 100},
	} {
		res, err := x.Titles("c", kb.TitleQuery{Search: c.phrase, Type: kb.SearchExactPhrase, OrderBy: kb.OrderName, Page: kb.Page{Count: 1, Number: 1}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if res.Total != c.want {
			t.Errorf("exactphrase %q: %d titles, want %d", c.phrase, res.Total, c.want)
		}
	}
}

// termIDForTest returns the id of term w in f (or an id past the terms).
func (f *field) termIDForTest(w string) uint32 {
	lo, hi := f.termRange(w, false)
	if hi == lo {
		return uint32(len(f.terms))
	}
	return lo
}
