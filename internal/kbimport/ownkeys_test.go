package kbimport

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestOwnKeys checks that an import's keys answer as the lookups of its
// staged rows in SQL did: each title of an identifier or match hash once,
// ascending, whatever order they came in, after what the batch has; the
// first row's title of a provider title_id, unless the batch has one; the
// titles it created.
func TestOwnKeys(t *testing.T) {
	k := newOwnKeys()
	for _, x := range []struct {
		t    int64
		norm string
	}{{5, "A"}, {3, "A"}, {5, "A"}, {9, "A"}, {4, "A"}, {3, "A"}, {7, "B"},
		{8, "1234-567X"}, {2, "1234-567X"}, {8, "9780000000002"}} {
		k.addNorm(x.t, x.norm)
	}
	k.addTitle(4, 100)
	k.addTitle(3, 100) // a retired title that comes back keeps its smaller id
	k.addTitle(5, 200)
	k.addRow(3, "p1")
	k.addRow(4, "p1") // a later row does not take p1
	k.addRow(3, "p9")
	k.addRow(5, "")
	k.addRow(6, "p2")
	m := &batchMatch{byPID: map[string]int64{"p2": 8}, byNorm: map[string][]int64{"A": {1}}, byHash: map[int64][]int64{}, has: map[string]bool{}}
	k.pids(m, []string{"p1", "p2", "p3", "p9"})
	k.norms(m, []string{"A", "A", "C", "1234-567X", "9780000000002", "1234-5670"})
	k.hashes(m, []int64{100, 100, 300})
	want := &batchMatch{
		byPID:  map[string]int64{"p1": 3, "p2": 8, "p9": 3},
		byNorm: map[string][]int64{"A": {1, 3, 4, 5, 9}, "1234-567X": {2, 8}, "9780000000002": {8}},
		byHash: map[int64][]int64{100: {3, 4}},
		has: map[string]bool{"3|A": true, "4|A": true, "5|A": true, "9|A": true,
			"2|1234-567X": true, "8|1234-567X": true, "8|9780000000002": true},
	}
	if diff := cmp.Diff(want, m, cmp.AllowUnexported(batchMatch{})); diff != "" {
		t.Errorf("lookup (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[int64]bool{3: true, 4: true, 5: true}, k.created); diff != "" {
		t.Errorf("created (-want +got):\n%s", diff)
	}
}

// TestPackNorm checks that packNorm packs the identifiers' normal forms
// and is one to one: every text of up to 4 characters over its alphabet
// and a few longer ones, each a distinct code.
func TestPackNorm(t *testing.T) {
	alphabet := "0123456789X-"
	texts := []string{"", "1234-567X", "9780000000002", "978000000000X", "123456789012345"}
	var grow func(prefix string, n int)
	grow = func(prefix string, n int) {
		texts = append(texts, prefix)
		if n == 0 {
			return
		}
		for _, c := range alphabet {
			grow(prefix+string(c), n-1)
		}
	}
	grow("", 4)
	codes := map[uint64]string{}
	for _, s := range texts {
		c, ok := packNorm(s)
		if !ok {
			t.Fatalf("%q does not pack", s)
		}
		if o, dup := codes[c]; dup && o != s {
			t.Fatalf("%q and %q pack alike (%#x)", o, s, c)
		}
		codes[c] = s
	}
	for _, s := range []string{"1234567890123456", "1234-567x", "ABC", "12 34", "ISSN"} {
		if _, ok := packNorm(s); ok {
			t.Errorf("%q packs", s)
		}
	}
}
