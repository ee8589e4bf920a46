package search

import (
	"container/heap"
	"math"
	"slices"

	"github.com/RoaringBitmap/roaring/v2"
)

// Relevance is BM25 over the searched field alone (k1 = 1.2, b = 0.75): a
// word's weight is its inverse document frequency over the knowledge
// base, its frequency in the title's field saturates, and a short field
// scores above a long one. Words under a NOT do not count. Ties go in name
// order. The SQLite store ranks by FTS5's bm25 over the whole title row
// (every column's length), so pages in relevance order may differ from
// its; totals do not.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// scored is a title ordinal and its relevance.
type scored struct {
	score float64
	ord   uint32
}

// better reports whether a ranks before b.
func better(a, b scored) bool {
	if a.score != b.score {
		return a.score > b.score
	}
	return a.ord < b.ord
}

// worstFirst is a heap whose root is the worst-ranked title kept.
type worstFirst []scored

func (h worstFirst) Len() int           { return len(h) }
func (h worstFirst) Less(i, j int) bool { return better(h[j], h[i]) }
func (h worstFirst) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *worstFirst) Push(v any)        { *h = append(*h, v.(scored)) }
func (h *worstFirst) Pop() any {
	old := *h
	v := old[len(old)-1]
	*h = old[:len(old)-1]
	return v
}

// topRanked returns the best k titles of match for e in f, best first.
func (x *Index) topRanked(e *expr, f *field, match *roaring.Bitmap, k int) []uint32 {
	score := x.scorer(e, f)
	h := make(worstFirst, 0, min(k, int(match.GetCardinality())))
	it := match.Iterator()
	for it.HasNext() {
		o := it.Next()
		c := scored{score(o), o}
		switch {
		case len(h) < k:
			heap.Push(&h, c)
		case better(c, h[0]):
			h[0] = c
			heap.Fix(&h, 0)
		}
	}
	slices.SortFunc(h, func(a, b scored) int {
		if better(a, b) {
			return -1
		}
		return 1
	})
	out := make([]uint32, len(h))
	for i, c := range h {
		out[i] = c.ord
	}
	return out
}

// scorer returns the BM25 relevance of a title (by ordinal) for e in f;
// the function reuses a buffer, so one goroutine calls it.
func (x *Index) scorer(e *expr, f *field) func(o uint32) float64 {
	var words []*termSet
	e.positive(&words)
	n := float64(len(x.ids))
	idf := make([]float64, len(words))
	for i, w := range words {
		df := float64(w.post.GetCardinality())
		idf[i] = math.Log(1 + (n-df+0.5)/(df+0.5))
	}
	avg := f.avgLen
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
