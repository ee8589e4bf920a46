package pubsearch

import (
	"bytes"
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/kbserver/kbserver/internal/alpha"
)

// TestViewOrder checks a locale view's name order against sorting whole
// collation keys: names that share long prefixes (the view sorts by an
// 8-byte key prefix first), accents, case, articles, digits and
// non-Latin names; equal keys keep title id order.
func TestViewOrder(t *testing.T) {
	stems := []string{"Journal of ", "Journal of the ", "The Journal of ", "Annals of ", "Revue d'", "Zeitschrift für ",
		"ab", "Ab", "Äb", "", "1", "10 ", "Ωmega ", "Éthique ", "journal Of "}
	tails := []string{"Nursing", "nursing", "Nürsing", "Applied Physics", "Physics", "", "a", "A", "Z", "Économie", "zoology"}
	r := rand.New(rand.NewPCG(3, 4))
	for _, tag := range []string{"en", "fr", "de"} {
		loc, err := alpha.ParseLocale(tag)
		if err != nil {
			t.Fatal(err)
		}
		c := &collection{locales: map[string]*localeView{}, nameOff: []uint32{0}}
		var names []string
		for i := range 3000 {
			name := stems[r.IntN(len(stems))] + tails[r.IntN(len(tails))]
			if r.IntN(4) == 0 {
				name += fmt.Sprint(" ", r.IntN(50))
			}
			c.ids = append(c.ids, int64(i+1))
			names = append(names, name)
			c.text += name
			c.nameOff = append(c.nameOff, uint32(len(c.text)))
		}
		v := c.view(loc)
		for i, name := range names {
			if c.name(i) != name {
				t.Fatalf("name(%d) = %q, want %q", i, c.name(i), name)
			}
		}
		want := make([]int, len(names))
		for i := range want {
			want[i] = i
		}
		slices.SortFunc(want, func(a, b int) int {
			return cmp.Or(bytes.Compare(loc.Key(names[a]), loc.Key(names[b])), cmp.Compare(a, b))
		})
		for pos, i := range want {
			if int(v.rank[i]) != pos {
				t.Fatalf("%s: %q (title %d) at position %d, want %d", tag, names[i], i, v.rank[i], pos)
			}
		}
	}
}
