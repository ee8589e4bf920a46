package search

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/kbserver/kbserver/internal/kb"
)

// TestTopRankedLikeScoringAll compares the pruned ranking with scoring
// every match, over random searches of every type and field ranked by
// relevance, for pages from the first to deep ones: the same titles in
// the same order, ties in name order or in a random order (as a View's
// collation order breaks them). Fields whose titles share token lists
// (publishers, subject sets) are ranked list by list (rank_lists.go);
// the test counts those searches apart.
func TestTopRankedLikeScoringAll(t *testing.T) {
	n, searches := 3000, 3000
	if testing.Short() {
		n, searches = 1000, 600
	}
	p := newPropertyKB(t, n, 13)
	// Small view blocks, so that a page in a view's order skips blocks;
	// the pruned rankings even for the smallest matches (scoreEach, the
	// reference, scores every match).
	defer func(b int, f uint64) { viewBlock, scoreEachFactor = b, f }(viewBlock, scoreEachFactor)
	viewBlock, scoreEachFactor = 32, 0
	r := rand.New(rand.NewPCG(13, 14))
	tested, byList, mismatches := 0, 0, 0
	for range searches {
		q := p.randomQuery(r)
		q.OrderBy = kb.OrderRelevance
		if !ranked(q) {
			continue
		}
		e, f, err := p.x.compile(q)
		if err != nil || e == nil {
			continue
		}
		universe := p.x.universe("c1", q, p.selected)
		match := roaring.And(e.eval(f, universe), universe)
		if match.IsEmpty() {
			continue
		}
		k := []int{1, 5, 25, 100, 1000}[r.IntN(5)]
		var v *View
		if r.IntN(2) == 0 {
			tie := make([]uint32, p.x.Len())
			for o, pos := range r.Perm(len(tie)) {
				tie[o] = uint32(pos)
			}
			v = newView("test", tie, nil)
		}
		got, want := p.x.topRanked(e, f, match, k, v, p.x.weights(e, f)), p.x.scoreEach(e, f, match, min(k, int(match.GetCardinality())), v, p.x.weights(e, f))
		tested++
		if f.listAt != nil {
			byList++
		}
		if !slices.Equal(got, want) {
			mismatches++
			if mismatches <= 10 {
				t.Errorf("%v/%v %q, best %d of %d: pruned %v, all scored %v", q.Field, q.Type, q.Search, k, match.GetCardinality(),
					fmt.Sprint(got[:min(len(got), 10)]), fmt.Sprint(want[:min(len(want), 10)]))
			}
		}
	}
	t.Logf("%d ranked searches compared (%d ranked list by list), %d mismatches", tested, byList, mismatches)
	if tested < searches/4 || byList < tested/10 {
		t.Errorf("only %d of %d searches were ranked, %d list by list: the test tests too little", tested, searches, byList)
	}
}
