package search

import (
	"math"
	"slices"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"
)

// Relevance is BM25 over the searched field alone (k1 = 1.2, b = 0.75): a
// word's weight is its inverse document frequency over the knowledge
// base, its frequency in the title's field saturates, and a short field
// scores above a long one. Words under a NOT do not count. Ties go in name
// order. (The SQLite store's own search, before migration 021 dropped it,
// ranked by FTS5's bm25 over the whole title row.)
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// scored is a title ordinal, its relevance and its place in the order
// that breaks ties (its ordinal, or its position in a View).
type scored struct {
	score float64
	ord   uint32
	tie   uint32
}

// better reports whether a ranks before b.
func better(a, b scored) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.tie < b.tie
}

// worstFirst returns a heap that keeps the best k titles offered, its
// root the worst of them.
func worstFirst(k int) *heapOf[scored] {
	return &heapOf[scored]{make([]scored, 0, k), func(a, b scored) bool { return better(b, a) }}
}

// topRanked returns the best k titles of match for e in f, best first,
// ties in name order (ordinal order) when v is nil, else in v's order.
//
// It reads the token lists only of the titles in which a query word may
// occur more than once. Every other title holds each word once or not at
// all, so its score depends only on which words it holds and on its
// field's length: those titles are taken by length, shortest first, and
// once no title of the remaining lengths can beat the k-th best so far
// (a shorter field scores higher), the rest are not looked at. The
// answer is the same as scoring every match (TestTopRankedLikeScoringAll).
func (x *Index) topRanked(e *expr, f *field, match *roaring.Bitmap, k int, v *View, wt weights) []uint32 {
	m := match.GetCardinality()
	k = min(k, int(m))
	var words []*termSet
	e.positive(&words)
	posted := uint64(0) // the titles holding a word: what the pruned rankings read
	for _, w := range words {
		posted += w.post.GetCardinality()
	}
	if scoreEachFactor > 0 && m*scoreEachFactor <= posted {
		return x.scoreEach(e, f, match, k, v, wt)
	}
	if f.listAt != nil {
		return x.topRankedByList(f, words, match, k, v, wt)
	}
	var tie []uint32
	if v != nil {
		tie = v.rank
	}
	at := func(o uint32, s float64) scored {
		if tie == nil {
			return scored{s, o, o}
		}
		return scored{s, o, tie[o]}
	}
	idf := wt.idf
	score := x.scorer(e, f, wt)
	h := worstFirst(k)
	offer := func(c scored) bool { return h.offer(c, k) }
	repeated := roaring.New()
	for _, w := range words {
		repeated.Or(f.repeated(w))
	}
	repeated.And(match)
	for it := repeated.Iterator(); it.HasNext(); {
		o := it.Next()
		offer(at(o, score(o)))
	}
	once := roaring.AndNot(match, repeated)
	// Titles holding every word first: each holds each word once, so
	// all of one length score the same (bound below); a title missing
	// one scores at most partial, which may already be out of reach.
	posts := make([]*roaring.Bitmap, 0, len(words)+1)
	for _, w := range words {
		posts = append(posts, w.post)
	}
	every := roaring.FastAnd(append(posts, once)...)
	for n := 1; n < len(f.byLen); n++ {
		if f.byLen[n] == nil {
			continue
		}
		norm := bm25K1 * (1 - bm25B + bm25B*float64(n)/wt.avgLen)
		bound, partial := 0.0, 0.0
		for skip := -1; skip < len(words); skip++ {
			sum := 0.0
			for i := range words {
				if i != skip {
					sum += idf[i] * float64(1) * (bm25K1 + 1) / (float64(1) + norm)
				}
			}
			if skip < 0 {
				bound = sum
			} else {
				partial = max(partial, sum)
			}
		}
		if len(h.s) == k && bound < h.s[0].score {
			break // no title of this length or longer can enter
		}
		scoreOf := func(o uint32) float64 {
			if n == maxLenBucket {
				return score(o) // lengths differ within the last bucket
			}
			s := 0.0
			for i, w := range words {
				if w.post.Contains(o) {
					s += idf[i] * float64(1) * (bm25K1 + 1) / (float64(1) + norm)
				}
			}
			return s
		}
		scan := func(cand *roaring.Bitmap) {
			for it := cand.Iterator(); it.HasNext(); {
				o := it.Next()
				s := scoreOf(o)
				if !offer(at(o, s)) && s == bound && n < maxLenBucket && tie == nil {
					// The title holds every word and did not enter: the
					// rest of this length score no more and come later
					// in name order. (In another order, one of them may
					// still come first: they are all looked at.)
					return
				}
			}
		}
		// every is within once: one intersection finds them (each costs
		// new containers, the most of a search's garbage).
		if full := roaring.And(every, f.byLen[n]); v != nil && n < maxLenBucket {
			// They all score bound and tie in v's order: only its first
			// k of them may enter.
			for _, o := range v.page(full, 0, k) {
				offer(at(o, scoreOf(o)))
			}
		} else {
			scan(full)
		}
		if len(h.s) == k && partial < h.s[0].score {
			continue // a title of this length missing a word cannot enter
		}
		scan(roaring.AndNot(roaring.And(once, f.byLen[n]), every))
	}
	return best(h)
}

// scoreEachFactor is how many times fewer titles match than hold a query
// word for ranking to score every match instead of pruning: the pruned
// rankings read every title holding a word (a variable for tests; 0
// never scores every match).
var scoreEachFactor uint64 = 8

// scoreEach returns the best k titles of match, scoring every one: for a
// match much smaller than the titles holding its words (a search inside a
// package, a selection or a small collection).
func (x *Index) scoreEach(e *expr, f *field, match *roaring.Bitmap, k int, v *View, wt weights) []uint32 {
	score := x.scorer(e, f, wt)
	h := worstFirst(k)
	for it := match.Iterator(); it.HasNext(); {
		o := it.Next()
		c := scored{score(o), o, o}
		if v != nil {
			c.tie = v.rank[o]
		}
		h.offer(c, k)
	}
	return best(h)
}

// best returns the ordinals h keeps, best first.
func best(h *heapOf[scored]) []uint32 {
	slices.SortFunc(h.s, func(a, b scored) int {
		if better(a, b) {
			return -1
		}
		return 1
	})
	out := make([]uint32, len(h.s))
	for i, c := range h.s {
		out[i] = c.ord
	}
	return out
}

// weights are what relevance weighs a search's positive words with (in
// the order expr.positive gives them): each word's inverse document
// frequency and the searched field's mean length. An index alone takes
// them from its own counts (Index.weights); an index with a delta from
// both (delta.weights), so that it ranks as an index built anew would.
type weights struct {
	idf    []float64
	avgLen float64
}

// weights returns the weights of e's positive words in f from the index's
// own counts.
func (x *Index) weights(e *expr, f *field) weights {
	var words []*termSet
	e.positive(&words)
	wt := weights{idf: make([]float64, len(words)), avgLen: meanLen(f.total, len(x.ids))}
	for i, w := range words {
		wt.idf[i] = idf(len(x.ids), int(w.post.GetCardinality()))
	}
	return wt
}

// idf returns the inverse document frequency of a word that df of n
// titles hold.
func idf(n, df int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// meanLen returns the mean length of a field of total tokens over n
// titles (at least 1).
func meanLen(total uint64, n int) float64 {
	return max(1, float64(total)/float64(max(1, n)))
}

// repeated returns the titles whose field may hold two or more of w's
// terms (or one twice): exact for up to wideRange terms, all of w's
// titles beyond.
func (f *field) repeated(w *termSet) *roaring.Bitmap {
	var terms []uint32
	if w.set != nil {
		if w.set.GetCardinality() > wideRange {
			return w.post
		}
		terms = w.set.ToArray()
	} else {
		if w.hi-w.lo > wideRange {
			return w.post
		}
		for t := w.lo; t < w.hi; t++ {
			terms = append(terms, t)
		}
	}
	// Two bit sets over the ordinals: the titles seen in a term so far,
	// and those seen in two (a bitmap union a term turned into element
	// by element insertions into run containers).
	n := (len(f.listOf) + 63) / 64
	seen, twice := denseSets.get(n), denseSets.get(n)
	defer denseSets.put(seen)
	defer denseSets.put(twice)
	buf := make([]uint32, 256)
	mark := func(bm *roaring.Bitmap, fn func(o uint32)) {
		for it := bm.ManyIterator(); ; {
			k := it.NextMany(buf)
			if k == 0 {
				return
			}
			for _, o := range buf[:k] {
				fn(o)
			}
		}
	}
	once := func(o uint32) {
		twice[o>>6] |= seen[o>>6] & (1 << (o & 63))
		seen[o>>6] |= 1 << (o & 63)
	}
	for _, t := range terms {
		if m := f.multi[t]; m != nil {
			mark(m, func(o uint32) { twice[o>>6] |= 1 << (o & 63) })
		}
		if bm := f.postings[t]; bm != nil {
			mark(bm, once)
			continue
		}
		for _, o := range f.rare[f.rareStart[t]:f.rareStart[t+1]] {
			once(o)
		}
	}
	return roaring.FromDense(twice, true) // copied: the sets go back to the pool
}

// denseSets keeps the bit sets over ordinals that repeated and the
// package facet use, so that a search does not leave them (each a bit a
// title) as garbage.
var denseSets = slicePool[uint64]{}

// slicePool is a pool of slices handed out zeroed.
type slicePool[T any] struct{ p sync.Pool }

// get returns a zeroed slice of n elements.
func (sp *slicePool[T]) get(n int) []T {
	if s, ok := sp.p.Get().(*[]T); ok && cap(*s) >= n {
		set := (*s)[:n]
		clear(set)
		return set
	}
	return make([]T, n)
}

// put gives s back to the pool.
func (sp *slicePool[T]) put(s []T) { sp.p.Put(&s) }

// scorer returns the BM25 relevance of a title (by ordinal) for e in f;
// the function reuses a buffer, so one goroutine calls it.
func (x *Index) scorer(e *expr, f *field, wt weights) func(o uint32) float64 {
	var words []*termSet
	e.positive(&words)
	idf, avg := wt.idf, wt.avgLen
	var toks []uint32
	return func(o uint32) float64 {
		toks = f.tokens(o, toks)
		norm := bm25K1 * (1 - bm25B + bm25B*float64(len(toks))/avg)
		s := 0.0
		for i, w := range words {
			tf := 0
			for _, t := range toks {
				if w.has(t) {
					tf++
				}
			}
			if tf > 0 {
				s += idf[i] * float64(tf) * (bm25K1 + 1) / (float64(tf) + norm)
			}
		}
		return s
	}
}

// positive collects the words whose presence counts toward relevance:
// every word not under the right side of a NOT.
func (e *expr) positive(out *[]*termSet) {
	switch e.op {
	case opPhrase, opNear:
		for i := range e.words {
			*out = append(*out, &e.words[i])
		}
	case opAnd, opOr:
		for _, k := range e.kids {
			k.positive(out)
		}
	case opNot:
		e.kids[0].positive(out)
	}
}
