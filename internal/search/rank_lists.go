package search

import (
	"cmp"
	"container/heap"
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
// of each list (listAt[listStart[l]:listStart[l+1]], ascending), the
// lists of each term (termListAt[termListStart[t]:termListStart[t+1]],
// with the times the list holds it in termListTF) and each list's
// length (listLen).
// They are packed (four slices, not an object per list for the garbage
// collector to mark), derived from listOf and the token lists at build
// and at load, and not kept in the index file.
func (f *field) deriveLists() {
	if !f.sharedLists() {
		return
	}
	nl := len(f.tokStart) - 1
	f.listStart = make([]uint32, nl+1)
	for _, l := range f.listOf {
		f.listStart[l+1]++
	}
	for l := range nl {
		f.listStart[l+1] += f.listStart[l]
	}
	f.listAt = make([]uint32, len(f.listOf))
	next := slices.Clone(f.listStart[:nl])
	for o, l := range f.listOf {
		f.listAt[next[l]] = uint32(o)
		next[l]++
	}
	// Each list once under each of its terms, with the times it holds
	// it: count, then place.
	var toks []uint32
	eachTerm := func(l int, fn func(t, times uint32)) {
		toks = f.listTokens(uint32(l), toks)
		slices.Sort(toks)
		for i := 0; i < len(toks); {
			j := i + 1
			for j < len(toks) && toks[j] == toks[i] {
				j++
			}
			fn(toks[i], uint32(j-i))
			i = j
		}
	}
	f.termListStart = make([]uint32, len(f.terms)+1)
	f.listLen = make([]uint32, nl)
	for l := range nl {
		eachTerm(l, func(t, times uint32) {
			f.termListStart[t+1]++
			f.listLen[l] += times
		})
	}
	for t := range f.terms {
		f.termListStart[t+1] += f.termListStart[t]
	}
	f.termListAt = make([]uint32, f.termListStart[len(f.terms)])
	f.termListTF = make([]uint32, len(f.termListAt))
	next = slices.Clone(f.termListStart[:len(f.terms)])
	for l := range nl {
		eachTerm(l, func(t, times uint32) {
			f.termListAt[next[t]], f.termListTF[next[t]] = uint32(l), times
			next[t]++
		})
	}
}

// listTitles returns the ordinals whose field holds token list l,
// ascending.
func (f *field) listTitles(l uint32) []uint32 { return f.listAt[f.listStart[l]:f.listStart[l+1]] }

// perList returns keep, a test of a title's tokens, asked once per token
// list for a field whose titles share lists (phrases and proximity over
// publishers and subjects: a title passes when its list does); keep
// itself for other fields.
func (f *field) perList(keep func(o uint32) bool) func(o uint32) bool {
	if f.listAt == nil {
		return keep
	}
	const yes, no = 1, 2
	memo := make([]uint8, len(f.tokStart)-1)
	return func(o uint32) bool {
		l := f.listOf[o]
		if memo[l] == 0 {
			memo[l] = no
			if keep(o) {
				memo[l] = yes
			}
		}
		return memo[l] == yes
	}
}

// listScore is a token list and the relevance of its titles.
type listScore struct {
	score float64
	list  uint32
}

// topRankedByList is topRanked for a field with lists (listAt): it
// scores each list holding one of words (the search's positive words) once, then takes the titles of
// match list group by list group, best score first, titles of equal
// scores in v's order (ordinal order when v is nil); the titles holding
// no positive word score nothing and come last.
func (x *Index) topRankedByList(f *field, words []*termSet, match *roaring.Bitmap, k int, v *View, wt weights) []uint32 {
	scores := f.listScores(words, wt)
	// Best first, as far as the page needs: a heap, not a sort of every
	// list (the heap permutes scores, which keeps every list).
	best := &heapOf[listScore]{scores, func(a, b listScore) bool { return a.score > b.score }}
	heap.Init(best)
	out := make([]uint32, 0, k)
	var group []listScore
	for len(best.s) > 0 && len(out) < k {
		group = append(group[:0], heap.Pop(best).(listScore))
		for len(best.s) > 0 && best.s[0].score == group[0].score {
			group = append(group, heap.Pop(best).(listScore))
		}
		out = f.firstOfLists(out, k, group, match, v)
	}
	if len(out) < k { // titles holding no positive word (none, while every match holds one)
		rest := match.Clone()
		for _, s := range scores {
			for _, o := range f.listTitles(s.list) {
				rest.Remove(o)
			}
		}
		if v != nil {
			return append(out, v.page(rest, 0, k-len(out))...)
		}
		for it := rest.Iterator(); it.HasNext() && len(out) < k; {
			out = append(out, it.Next())
		}
	}
	return out
}

// listScores returns the BM25 relevance (as the scorer computes it) of
// each list that holds one of words, from the times each list holds each
// word's terms: no token list is read.
func (f *field) listScores(words []*termSet, wt weights) []listScore {
	idf := wt.idf
	nw := len(words)
	tf := listTFs.get(len(f.listLen) * nw) // by list and word: the times the list holds the word
	defer listTFs.put(tf)
	var touched []uint32
	for i, w := range words {
		add := func(t uint32) {
			for j := f.termListStart[t]; j < f.termListStart[t+1]; j++ {
				l := int(f.termListAt[j])
				if !slices.ContainsFunc(tf[l*nw:(l+1)*nw], func(n uint32) bool { return n > 0 }) {
					touched = append(touched, uint32(l))
				}
				tf[l*nw+i] += f.termListTF[j]
			}
		}
		if w.set != nil {
			for it := w.set.Iterator(); it.HasNext(); {
				add(it.Next())
			}
			continue
		}
		for t := w.lo; t < w.hi; t++ {
			add(t)
		}
	}
	scores := make([]listScore, 0, len(touched))
	for _, l := range touched {
		norm := bm25K1 * (1 - bm25B + bm25B*float64(f.listLen[l])/wt.avgLen)
		s := 0.0
		for i, n := range tf[int(l)*nw : int(l+1)*nw] {
			if n > 0 {
				s += idf[i] * float64(n) * (bm25K1 + 1) / (float64(n) + norm)
			}
		}
		if f.listStart[l+1] > f.listStart[l] {
			scores = append(scores, listScore{s, l})
		}
	}
	return scores
}

// listTFs keeps listScores' counters.
var listTFs = slicePool[uint32]{}

// firstOfLists appends to out, until it holds k, the titles of match
// among those of the lists of group in v's order (ordinal order when v is
// nil). In ordinal order the lists are merged and read only as far as the
// page needs; in a view's order every title of the group is looked at.
func (f *field) firstOfLists(out []uint32, k int, group []listScore, match *roaring.Bitmap, v *View) []uint32 {
	if v != nil {
		var in []uint32
		for _, s := range group {
			for _, o := range f.listTitles(s.list) {
				if match.Contains(o) {
					in = append(in, o)
				}
			}
		}
		m := min(k-len(out), len(in))
		PartialSort(in, m, func(a, b uint32) int { return cmp.Compare(v.rank[a], v.rank[b]) })
		return append(out, in[:m]...)
	}
	// The lists as cursors, the one whose next ordinal is smallest first.
	h := &heapOf[[]uint32]{make([][]uint32, 0, len(group)), func(a, b []uint32) bool { return a[0] < b[0] }}
	for _, s := range group {
		h.s = append(h.s, f.listTitles(s.list))
	}
	heap.Init(h)
	for len(h.s) > 0 && len(out) < k {
		o := h.s[0][0]
		if match.Contains(o) {
			out = append(out, o)
		}
		if h.s[0] = h.s[0][1:]; len(h.s[0]) == 0 {
			heap.Pop(h)
		} else {
			heap.Fix(h, 0)
		}
	}
	return out
}
