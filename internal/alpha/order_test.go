package alpha

import (
	"bytes"
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestOrderAndPaths checks Order against sorting whole collation keys
// (ties by the tie order) and each name's Path against Top: the entry a
// path's TopIndex names is the name's first-level entry.
func TestOrderAndPaths(t *testing.T) {
	names := []string{"The Journal of Nursing", "journal of nursing", "Ωmega", "10 Years", "Éthique", "l'Économie", "  ", "",
		"Zeitschrift für Physik", "Ab", "äb", "Aa", "Der Spiegel", "Les Misérables", "¿Qué?", "Журнал", "日本"}
	r := rand.New(rand.NewPCG(4, 5))
	for range 300 {
		names = append(names, names[r.IntN(len(names))]+" "+names[r.IntN(len(names))])
	}
	tie := func(a, b uint32) int { return cmp.Compare(b, a) } // reverse index order
	for _, tag := range []string{"en", "fr", "de", "es"} {
		loc, err := ParseLocale(tag)
		if err != nil {
			t.Fatal(err)
		}
		o := loc.Order(len(names), func(i int) string { return names[i] }, tie)
		want := make([]uint32, len(names))
		for i := range want {
			want[i] = uint32(i)
		}
		slices.SortFunc(want, func(a, b uint32) int {
			return cmp.Or(bytes.Compare(loc.Key(names[a]), loc.Key(names[b])), tie(a, b))
		})
		for pos, i := range want {
			if o.Rank[i] != uint32(pos) {
				t.Fatalf("%s: %q at %d, want %d", tag, names[i], o.Rank[i], pos)
			}
		}
		for i, name := range names {
			if got, want := TopEntries()[o.Path[i].TopIndex()], loc.Top(name); got != want {
				t.Errorf("%s: %q: path's entry %q, Top %q", tag, name, got, want)
			}
		}
	}
}
