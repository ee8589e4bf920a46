package search

import (
	"cmp"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
)

// Fields whose titles share token lists (publishers and subject sets
// repeat: a few hundred publishers and tens of thousands of subject sets
// for millions of titles) are ranked list by list: a title's relevance
// depends only on its field's tokens, so every title of a list scores the
// same, and the best k titles are those of the best-scoring lists. The
// cost grows with the lists holding a query word and with the page, not
// with the number of matches, which for a common publisher or subject
// word is a large part of the knowledge base.

// sharedLists reports whether the field's titles share token lists: far
// fewer lists than titles.
func (f *field) sharedLists() bool { return 4*(len(f.tokStart)-1) < len(f.listOf) }

// deriveLists makes, for a field whose titles share lists, the ordinals
// of each list (listTitles) and the lists of each term (termListAt,
// cut at termListStart). They are derived from listOf and the token
// lists, at build and at load, and not kept in the index file.
func (f *field) deriveLists() {
	if !f.sharedLists() {
		return
	}
	nl := len(f.tokStart) - 1
	per := make([][]uint32, nl)
	for o, l := range f.listOf {
		per[l] = append(per[l], uint32(o))
	}
	f.listTitles = make([]*roaring.Bitmap, nl)
	for l, ords := range per {
		f.listTitles[l] = optimized(ords)
	}
	// Each list once under each of its terms: count, then place.
	f.termListStart = make([]uint32, len(f.terms)+1)
	var toks []uint32
	distinct := func(l int) []uint32 {
		toks = f.listTokens(uint32(l), toks)
		slices.Sort(toks)
		return slices.Compact(toks)
	}
	for l := range nl {
		for _, t := range distinct(l) {
			f.termListStart[t+1]++
		}
	}
	for t := range f.terms {
		f.termListStart[t+1] += f.termListStart[t]
	}
	f.termListAt = make([]uint32, f.termListStart[len(f.terms)])
	next := slices.Clone(f.termListStart[:len(f.terms)])
	for l := range nl {
		for _, t := range distinct(l) {
			f.termListAt[next[t]] = uint32(l)
			next[t]++
		}
	}
}

// listScore is a token list and the relevance of its titles.
type listScore struct {
	score float64
	list  uint32
}

// topRankedByList is topRanked for a field with listTitles: it scores
// each list holding a positive word once, then takes the titles of match
// list group by list group, best score first, titles of equal scores in
// v's order (ordinal order when v is nil); the titles holding no
// positive word score nothing and come last.
func (x *Index) topRankedByList(e *expr, f *field, match *roaring.Bitmap, k int, v *View) []uint32 {
	var words []*termSet
	e.positive(&words)
	lists := roaring.New()
	addTerm := func(t uint32) {
		lists.AddMany(f.termListAt[f.termListStart[t]:f.termListStart[t+1]])
	}
	for _, w := range words {
		if w.set != nil {
			for it := w.set.Iterator(); it.HasNext(); {
				addTerm(it.Next())
			}
			continue
		}
		for t := w.lo; t < w.hi; t++ {
			addTerm(t)
		}
	}
	score := x.scorer(e, f)
	scores := make([]listScore, 0, lists.GetCardinality())
	for it := lists.Iterator(); it.HasNext(); {
		l := it.Next()
		if titles := f.listTitles[l]; !titles.IsEmpty() {
			scores = append(scores, listScore{score(titles.Minimum()), l})
		}
	}
	slices.SortFunc(scores, func(a, b listScore) int { return cmp.Compare(b.score, a.score) })
	out := make([]uint32, 0, min(k, int(match.GetCardinality())))
	take := func(group *roaring.Bitmap) {
		if v != nil {
			out = append(out, v.page(group, 0, k-len(out))...)
			return
		}
		for it := group.Iterator(); it.HasNext() && len(out) < k; {
			out = append(out, it.Next())
		}
	}
	var group []*roaring.Bitmap
	for i := 0; i < len(scores) && len(out) < k; {
		group = group[:0]
		j := i
		for ; j < len(scores) && scores[j].score == scores[i].score; j++ {
			group = append(group, f.listTitles[scores[j].list])
		}
		take(roaring.And(roaring.FastOr(group...), match))
		i = j
	}
	if len(out) < k { // not reached while every match holds a positive word, as today
		held := make([]*roaring.Bitmap, len(scores))
		for i, s := range scores {
			held[i] = f.listTitles[s.list]
		}
		take(roaring.AndNot(match, roaring.FastOr(held...)))
	}
	return out
}
