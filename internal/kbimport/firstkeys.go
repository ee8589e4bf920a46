package kbimport

import (
	"slices"
	"strings"
)

// firstKeys are what a first load's lookups would read from its own
// transaction (bulkLoad.lookups), kept in memory as the load writes: in
// a knowledge base that had no title, the titles the load created are all
// its rows can match, so no index of the loaded tables is needed while
// it runs, and every one is built at its end. They cost memory in
// proportion to the file: for each title its first row's provider
// title_id and its match hash, and each valid identifier (about 150 MB
// for a file of 1M rows).
type firstKeys struct {
	// byPID maps the provider title_id of each resource's first row to
	// its title.
	byPID map[string]int64
	// byNorm maps a valid identifier to the first title (the smallest id)
	// that has it, and moreNorm to the others, ascending.
	byNorm   map[string]int64
	moreNorm map[string][]int64
	// byHash maps a match hash to the first title created with it, and
	// moreHash to the others, ascending (titles are created in id order).
	byHash   map[int64]int64
	moreHash map[int64][]int64
}

func newFirstKeys() *firstKeys {
	return &firstKeys{byPID: map[string]int64{}, byNorm: map[string]int64{}, moreNorm: map[string][]int64{},
		byHash: map[int64]int64{}, moreHash: map[int64][]int64{}}
}

// addTitle records a title the load created, with its match hash, after
// every title it created before.
func (k *firstKeys) addTitle(t, hash int64) {
	if _, ok := k.byHash[hash]; !ok {
		k.byHash[hash] = t
		return
	}
	k.moreHash[hash] = append(k.moreHash[hash], t)
}

// addNorm records that title t has the valid identifier norm: a title
// that had it already is left as it is.
func (k *firstKeys) addNorm(t int64, norm string) {
	first, ok := k.byNorm[norm]
	switch {
	case !ok:
		k.byNorm[strings.Clone(norm)] = t // not the row's text it is cut from
		return
	case first == t:
		return
	case t < first:
		k.byNorm[norm] = t
		t = first
	}
	more, ok := k.moreNorm[norm]
	if !ok {
		norm = strings.Clone(norm)
	}
	if i, found := slices.BinarySearch(more, t); !found {
		k.moreNorm[norm] = slices.Insert(more, i, t)
	}
}

// addResource records the provider title_id of a resource's first row.
func (k *firstKeys) addResource(t int64, providerID string) {
	if providerID == "" {
		return
	}
	if _, ok := k.byPID[providerID]; !ok {
		k.byPID[strings.Clone(providerID)] = t
	}
}

// lookup adds to m what the load wrote that the batch's keys name, as
// bulkLoad.lookups reads it: by provider title_id, by valid identifier
// (each title once, ascending, and noted as having it) and by match hash.
func (k *firstKeys) lookup(m *batchMatch, pids, norms []string, hashes []int64) {
	for _, p := range pids {
		if t, ok := k.byPID[p]; ok {
			if _, ok := m.byPID[p]; !ok {
				m.byPID[p] = t
			}
		}
	}
	seen := map[string]bool{}
	for _, n := range norms {
		t, ok := k.byNorm[n]
		if !ok || seen[n] {
			continue
		}
		seen[n] = true
		for _, t := range append([]int64{t}, k.moreNorm[n]...) {
			m.byNorm[n] = append(m.byNorm[n], t)
			m.has[hasKey(t, n)] = true
		}
	}
	seenHash := map[int64]bool{}
	for _, h := range hashes {
		t, ok := k.byHash[h]
		if !ok || seenHash[h] {
			continue
		}
		seenHash[h] = true
		m.byHash[h] = append(append(m.byHash[h], t), k.moreHash[h]...)
	}
}
