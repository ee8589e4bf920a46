package scholar

import (
	"strconv"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

// BenchmarkHoldingsWriter writes holdings like a generated knowledge
// base's (two managed ranges with their KBART rows, two ISSNs, an
// embargo) into files kept nowhere: the writer's own cost per holding,
// without the store's read.
func BenchmarkHoldingsWriter(b *testing.B) {
	rows := kbartRow("1990-01-01", "1", "1", "1999-12-31", "10", "4") + "\n" + kbartRow("2005-01-01", "16", "1", "", "", "")
	hs := make([]kb.SerialHolding, 1000)
	for i := range hs {
		h := holding(kb.Resource{ManagedCoverage: []kb.Coverage{{Begin: "2005-01-01"}, {Begin: "1990-01-01", End: "1999-12-31"}},
			ManagedEmbargo: kb.Embargo{Unit: kb.EmbargoMonths, Value: 6}}, rows)
		h.Title.Name = "International Journal of Benchmarked Studies " + strconv.Itoa(i)
		hs[i] = *h
	}
	w := NewHoldingsWriter(func(string, []byte) error { return nil })
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if err := w.Add(&hs[i%len(hs)]); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(w.Stats().Items), "items")
}
