package search

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"
)

// TestIdentListLikeScan compares the front-coded identifier list's
// look-ups with a scan of the identifiers, for exact and prefix searches
// of identifiers it holds, their prefixes, and strings around them.
func TestIdentListLikeScan(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, identBlock - 1, identBlock, identBlock + 1, 5 * identBlock, 3000} {
		var ids []ident
		digits := func(k int) string {
			var b strings.Builder
			for range k {
				b.WriteByte("0123456789X"[r.IntN(11)])
			}
			return b.String()
		}
		for i := range n {
			var norm string
			switch {
			case i > 0 && r.IntN(4) == 0: // the same identifier on another title
				norm = ids[r.IntN(len(ids))].norm
			case r.IntN(50) == 0: // longer than a one-byte length
				norm = "978" + digits(130+r.IntN(200))
			case r.IntN(2) == 0:
				norm = "978" + digits(10)
			default:
				norm = digits(1 + r.IntN(9))
			}
			ids = append(ids, ident{norm, uint32(r.IntN(1000))})
		}
		slices.SortFunc(ids, func(p, q ident) int {
			return cmp.Or(strings.Compare(p.norm, q.norm), cmp.Compare(p.ord, q.ord))
		})
		l := newIdentList(slices.Clone(ids))
		queries := []string{"", "0", "978", "9999999999999", "X"}
		for range 300 {
			if len(ids) == 0 {
				break
			}
			s := ids[r.IntN(len(ids))].norm
			queries = append(queries, s, s[:r.IntN(len(s)+1)], s+"0", s[:len(s)-1]+"Y")
		}
		for _, s := range queries {
			for _, prefix := range []bool{false, true} {
				want := roaring.New()
				for _, id := range ids {
					if id.norm == s || prefix && strings.HasPrefix(id.norm, s) {
						want.Add(id.ord)
					}
				}
				got := roaring.New()
				l.addRange(got, s, prefix)
				if !got.Equals(want) {
					t.Fatalf("%d identifiers, %q prefix=%v: got %v, want %v", n, s, prefix, got.ToArray(), want.ToArray())
				}
			}
		}
	}
}
