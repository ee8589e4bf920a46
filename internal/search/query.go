package search

import (
	"strings"
	"unicode/utf8"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/kbserver/kbserver/internal/kb"
)

// Result is a page of a title search: the exact number of matches and the
// ids of the page's titles, in the order asked.
type Result struct {
	Total int
	IDs   []int64
}

// Titles answers the title search q in the context of customer custID,
// as the stores' Titles does, except that it returns title ids (the
// caller reads the rows) and that relevance order is this package's (see
// rank.go). selected is the customer's selected set (ordinals) that
// q.Selection filters by: the titles of which it has a resource selected,
// or, when q.PackageID is set, the titles of that package whose resource
// it has selected; nil is the empty set. The caller checks that
// q.PackageID is a package the customer may see.
func (x *Index) Titles(custID string, q kb.TitleQuery, selected *roaring.Bitmap) (Result, error) {
	res := Result{IDs: []int64{}}
	e, f, match, err := x.matchOf(custID, q, selected, nil)
	if err != nil {
		return res, err
	}
	res.Total = int(match.GetCardinality())
	off, count := q.Page.Offset(), q.Page.Count
	if res.Total <= off || count <= 0 {
		return res, nil
	}
	var ords []uint32
	if e != nil && q.OrderBy != kb.OrderName && ranked(q) {
		ords = x.topRanked(e, f, match, off+count, nil, x.weights(e, f))
		ords = ords[min(off, len(ords)):]
	} else {
		ords = page(match, off, count)
	}
	res.IDs = make([]int64, len(ords))
	for i, o := range ords {
		res.IDs[i] = x.ids[o]
	}
	return res, nil
}

// matchOf returns q's search compiled in x (e nil when q has none) and
// the titles of x that q matches, except except's (nil: none): the
// filters of universe, the search, and visible. The answer is read only.
func (x *Index) matchOf(custID string, q kb.TitleQuery, selected, except *roaring.Bitmap) (e *expr, f *field, match *roaring.Bitmap, err error) {
	universe := x.universe(custID, q, selected)
	e, f, words, err := x.compileSearch(q)
	switch {
	case err != nil:
		return nil, nil, nil, err
	case words && e == nil:
		return nil, nil, roaring.New(), nil
	}
	// match is read only: it may be one of the index's bitmaps.
	match = universe
	if e != nil {
		match = e.eval(f, universe)
		if universe != x.all {
			match = roaring.And(match, universe)
		}
	}
	return e, f, without(x.visible(match, custID), except), nil
}

// without returns bm without except's members: bm itself when it has
// none of them (except nil or disjoint).
func without(bm, except *roaring.Bitmap) *roaring.Bitmap {
	if except == nil || !bm.Intersects(except) {
		return bm
	}
	return roaring.AndNot(bm, except)
}

// page returns up to count members of bm from the off-th on, in order.
func page(bm *roaring.Bitmap, off, count int) []uint32 {
	first, err := bm.Select(uint32(off))
	if err != nil {
		return nil
	}
	out := make([]uint32, 0, min(uint64(count), bm.GetCardinality()-uint64(off)))
	it := bm.Iterator()
	it.AdvanceIfNeeded(first)
	for len(out) < count && it.HasNext() {
		out = append(out, it.Next())
	}
	return out
}

// universe returns the titles q may list before its search: its package,
// selection, resource type and package filters applied to every title,
// other customers' custom titles included (visible removes
// them from the answer: they are few, and leaving them here lets the
// common case, no filter, use the index's own bitmaps). The answer is
// read only: it may be one of the index's bitmaps.
func (x *Index) universe(custID string, q kb.TitleQuery, selected *roaring.Bitmap) *roaring.Bitmap {
	var u *roaring.Bitmap // nil: every title
	and := func(b *roaring.Bitmap) {
		if u == nil {
			u = b
		} else {
			u = roaring.And(u, b)
		}
	}
	empty := roaring.New()
	if q.PackageID != 0 {
		p := x.packages[q.PackageID]
		if p == nil {
			return empty
		}
		and(p)
	}
	switch q.Selection {
	case kb.SelectionSelected:
		if selected == nil {
			return empty
		}
		and(selected)
	case kb.SelectionNotSelected:
		if selected != nil {
			base := u
			if base == nil {
				base = x.all
			}
			u = roaring.AndNot(base, selected)
		}
	case kb.SelectionOrderedThroughOperator:
		return empty
	}
	if q.ResourceType != kb.ResourceAll {
		t := x.byType[q.ResourceType]
		if t == nil {
			return empty
		}
		and(t)
	}
	if len(q.PackageIDs) > 0 {
		var ps []*roaring.Bitmap
		for _, id := range q.PackageIDs {
			if owner, ok := x.pkgOwner[id]; ok && owner != custID {
				continue
			}
			if p := x.packages[id]; p != nil {
				ps = append(ps, p)
			}
		}
		and(roaring.FastOr(ps...))
	}
	if u == nil {
		return x.all
	}
	return u
}

// hidden returns the custom titles of customers other than custID (nil
// when there are none).
func (x *Index) hidden(custID string) *roaring.Bitmap {
	if x.custom.IsEmpty() {
		return nil
	}
	if own := x.customOf[custID]; own != nil {
		return roaring.AndNot(x.custom, own)
	}
	return x.custom
}

// visible returns bm without other customers' custom titles, bm itself
// when there are none.
func (x *Index) visible(bm *roaring.Bitmap, custID string) *roaring.Bitmap {
	if h := x.hidden(custID); h != nil {
		return roaring.AndNot(bm, h)
	}
	return bm
}

// ranked reports whether the store ranks q's matches by relevance: the
// searches it answers through its word indexes. Name, publisher and
// identifier matches are listed in name order whatever the order asked.
func ranked(q kb.TitleQuery) bool {
	switch {
	case q.Field == kb.FieldISXN:
		return false
	case q.Field == kb.FieldSubject:
		return true
	}
	return q.Type != kb.SearchExactMatch && q.Type != kb.SearchBeginsWith
}

// compile turns q's search into an expression over one field; nil when
// it can match nothing.
func (x *Index) compile(q kb.TitleQuery) (*expr, *field, error) {
	search := strings.TrimSpace(q.Search)
	if q.Field == kb.FieldISXN {
		return x.isxnExpr(search, q.Type), nil, nil
	}
	f := x.name
	switch q.Field {
	case kb.FieldPublisher:
		f = x.publisher
	case kb.FieldSubject:
		f = x.subject
	}
	var toks []kb.AdvancedToken
	if q.Type == kb.SearchAdvanced {
		var err error
		if toks, err = kb.ParseAdvanced(search); err != nil {
			return nil, nil, err
		}
	}
	ws := kb.Words(search)
	if len(ws) == 0 {
		return nil, nil, nil
	}
	phrase := func(ws []string, prefix bool) *expr {
		e := &expr{op: opPhrase}
		for i, w := range ws {
			e.words = append(e.words, f.word(kb.Fold(w), prefix && i == len(ws)-1))
		}
		return e
	}
	switch q.Type {
	case kb.SearchExactMatch, kb.SearchBeginsWith:
		prefix := q.Type == kb.SearchBeginsWith
		switch q.Field {
		case kb.FieldSubject:
			return phrase(ws, prefix), f, nil
		case kb.FieldPublisher:
			return &expr{op: opSet, set: x.publisherRange(kb.Fold(search), prefix)}, f, nil
		}
		return &expr{op: opSet, set: x.nameRange(kb.Fold(search), prefix)}, f, nil
	case kb.SearchAny:
		e := &expr{op: opOr}
		for _, w := range ws {
			e.kids = append(e.kids, phrase([]string{w}, false))
		}
		return e, f, nil
	case kb.SearchProximity:
		if len(ws) == 1 {
			return phrase(ws, false), f, nil
		}
		e := phrase(ws, false)
		e.op = opNear
		return e, f, nil
	case kb.SearchExactPhrase:
		return phrase(ws, false), f, nil
	case kb.SearchAdvanced:
		return advancedExpr(toks, func(t kb.AdvancedToken) *expr { return phrase(t.Words, t.Prefix) }), f, nil
	}
	// Contains: words of three or more characters as substrings (not in
	// subjects, which have no trigram index in the stores), shorter ones
	// as word prefixes.
	e := &expr{op: opAnd}
	for _, w := range ws {
		if utf8.RuneCountInString(w) >= 3 && q.Field != kb.FieldSubject {
			e.kids = append(e.kids, &expr{op: opPhrase, words: []termSet{f.substring(kb.Fold(w))}})
		} else {
			e.kids = append(e.kids, phrase([]string{w}, true))
		}
	}
	return e, f, nil
}

// word returns the terms and titles of a folded query word in f: the word,
// or every word it begins when prefix is set.
func (f *field) word(w string, prefix bool) termSet {
	lo, hi := f.termRange(w, prefix)
	if w == "" {
		lo, hi = 0, 0
	}
	return termSet{lo: lo, hi: hi, post: f.rangePostings(lo, hi)}
}

// substring returns the terms and titles of the terms holding the folded
// word w.
func (f *field) substring(w string) termSet {
	set := f.substringTerms(w)
	return termSet{set: set, post: f.setPostings(set)}
}

// isxnExpr matches ISSNs and ISBNs, with or without hyphens, an ISBN-10
// finding its ISBN-13: begins-with and contains match a prefix of the
// identifier, the other types the whole identifier. nil when the search
// can match nothing.
func (x *Index) isxnExpr(search string, t kb.SearchType) *expr {
	n, issn := kb.ISXNForms(search)
	if n == "" {
		return nil
	}
	prefix := t == kb.SearchBeginsWith || t == kb.SearchContains
	set := roaring.New()
	x.idents.addRange(set, n, prefix)
	if issn != n {
		x.idents.addRange(set, issn, prefix)
	}
	return &expr{op: opSet, set: set}
}

// Matches calls fn with every title the search q matches that the
// customer may see, in name order, with its rank (lower is better: the
// negated relevance; 0 when byName or when the search has no relevance),
// as the stores' TitleMatches does. q's filters other than the search
// are not applied.
func (x *Index) Matches(custID string, q kb.TitleQuery, byName bool, fn func(id int64, rank float64)) error {
	e, f, match, err := x.searchMatch(custID, q, nil)
	if err != nil || e == nil {
		return err
	}
	var score func(uint32) float64
	if !byName && ranked(q) {
		score = x.scorer(e, f, x.weights(e, f))
	}
	it := match.Iterator()
	for it.HasNext() {
		o := it.Next()
		rank := 0.0
		if score != nil {
			rank = -score(o)
		}
		fn(x.ids[o], rank)
	}
	return nil
}

// searchMatch returns q's search compiled in x and the titles it matches
// that the customer may see, except except's (nil: none), q's other
// filters not applied; e is nil when the search can match nothing.
func (x *Index) searchMatch(custID string, q kb.TitleQuery, except *roaring.Bitmap) (e *expr, f *field, match *roaring.Bitmap, err error) {
	if e, f, _, err = x.compileSearch(q); err != nil || e == nil {
		return nil, nil, nil, err
	}
	return e, f, without(x.visible(e.eval(f, nil), custID), except), nil
}

// compileSearch checks q's search and compiles it in x: words is false
// when the search is blank, e nil when it has none or can match nothing.
func (x *Index) compileSearch(q kb.TitleQuery) (e *expr, f *field, words bool, err error) {
	if strings.TrimSpace(q.Search) == "" {
		return nil, nil, false, nil
	}
	if err := kb.CheckSearch("Search", q.Search); err != nil {
		return nil, nil, true, err
	}
	e, f, err = x.compile(q)
	return e, f, true, err
}
