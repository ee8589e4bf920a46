package kbimport

import (
	"slices"
	"strings"
)

// ownKeys are the keys of what an import staged or loaded so far, which
// its later batches' rows may match (lookup): kept in memory as each
// batch is written, instead of read back from the staging tables (or, on
// the bulk path, from the load's own transaction) a batch at a time, which
// the profiles of both paths showed to be the largest part of matching.
// They cost memory in proportion to the file: each row's provider
// title_id, each valid identifier and each new title's hash (measured in
// BENCHMARKS.md). What the package holds as a candidate (its first row's
// key) is still read for the batch's candidates only.
type ownKeys struct {
	// byPID maps the provider title_id of every row to its title (the
	// first row's, where rows disagree).
	byPID map[string]int64
	// byCode maps a valid identifier, packed (packNorm), to the first
	// title (the smallest id) staged with it, and moreCode to the others,
	// ascending; byNorm and moreNorm the same by text, for an identifier
	// that does not pack. (Packed keys hold no pointer: half the memory,
	// and nothing for the garbage collector to scan.)
	byCode   map[uint64]int64
	moreCode map[uint64][]int64
	byNorm   map[string]int64
	moreNorm map[string][]int64
	// byHash maps a match hash to the first title (the smallest id) the
	// import created with it, and moreHash to the others, ascending.
	byHash   map[int64]int64
	moreHash map[int64][]int64
	// created holds the titles the import creates.
	created map[int64]bool
}

func newOwnKeys() *ownKeys {
	return &ownKeys{byPID: map[string]int64{}, byCode: map[uint64]int64{}, moreCode: map[uint64][]int64{},
		byNorm: map[string]int64{}, moreNorm: map[string][]int64{},
		byHash: map[int64]int64{}, moreHash: map[int64][]int64{}, created: map[int64]bool{}}
}

// addFirst records t under k in byK and moreK: the smallest title first,
// then the others ascending, each once.
func addFirst[K comparable](byK map[K]int64, moreK map[K][]int64, k K, t int64) {
	first, ok := byK[k]
	switch {
	case !ok:
		byK[k] = t
		return
	case first == t:
		return
	case t < first:
		byK[k] = t
		t = first
	}
	more := moreK[k]
	if i, found := slices.BinarySearch(more, t); !found {
		moreK[k] = slices.Insert(more, i, t)
	}
}

// each calls fn with the titles under k, ascending.
func each[K comparable](byK map[K]int64, moreK map[K][]int64, k K, fn func(int64)) {
	t, ok := byK[k]
	if !ok {
		return
	}
	fn(t)
	for _, t := range moreK[k] {
		fn(t)
	}
}

// addTitle records a title the import creates, with its match hash.
func (k *ownKeys) addTitle(t, hash int64) {
	k.created[t] = true
	addFirst(k.byHash, k.moreHash, hash, t)
}

// addNorm records that title t has the valid identifier norm.
func (k *ownKeys) addNorm(t int64, norm string) {
	if c, ok := packNorm(norm); ok {
		addFirst(k.byCode, k.moreCode, c, t)
		return
	}
	if _, ok := k.byNorm[norm]; !ok {
		norm = strings.Clone(norm) // not the row's text it is cut from
	}
	addFirst(k.byNorm, k.moreNorm, norm, t)
}

// packNorm packs the normal form of an identifier, up to 15 digits, X's
// and hyphens (a valid ISSN's 1234-567X, a valid ISBN's 13 digits), into
// 4 bits a character; ok is false for any other text. No character packs
// as 0, so the packing is one to one.
func packNorm(s string) (code uint64, ok bool) {
	if len(s) > 15 {
		return 0, false
	}
	for i := 0; i < len(s); i++ {
		var c uint64
		switch b := s[i]; {
		case b >= '0' && b <= '9':
			c = uint64(b-'0') + 1
		case b == 'X':
			c = 11
		case b == '-':
			c = 12
		default:
			return 0, false
		}
		code = code<<4 | c
	}
	return code, true
}

// addRow records a row of title t, in file order, by its provider
// title_id.
func (k *ownKeys) addRow(t int64, providerID string) {
	if providerID == "" {
		return
	}
	if _, ok := k.byPID[providerID]; !ok {
		k.byPID[strings.Clone(providerID)] = t // not the row's text it is cut from
	}
}

// pids adds to m the titles of the batch's provider title_ids, where m
// has none yet.
func (k *ownKeys) pids(m *batchMatch, pids []string) {
	for _, p := range pids {
		if t, ok := k.byPID[p]; ok {
			if _, ok := m.byPID[p]; !ok {
				m.byPID[p] = t
			}
		}
	}
}

// norms adds to m the titles with the batch's valid identifiers, after
// those m has (each once, ascending), noting that they have them.
func (k *ownKeys) norms(m *batchMatch, norms []string) {
	for _, n := range distinct(norms) {
		add := func(t int64) {
			m.byNorm[n] = append(m.byNorm[n], t)
			m.has[hasKey(t, n)] = true
		}
		if c, ok := packNorm(n); ok {
			each(k.byCode, k.moreCode, c, add)
		} else {
			each(k.byNorm, k.moreNorm, n, add)
		}
	}
}

// hashes adds to m the titles created with the batch's match hashes,
// after those m has.
func (k *ownKeys) hashes(m *batchMatch, hashes []int64) {
	for _, h := range distinct(hashes) {
		each(k.byHash, k.moreHash, h, func(t int64) { m.byHash[h] = append(m.byHash[h], t) })
	}
}

// distinct returns ks without their repeats, in order.
func distinct[K comparable](ks []K) []K {
	seen := make(map[K]bool, len(ks))
	out := ks[:0:0]
	for _, k := range ks {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// merge adds to k the titles o created, by match hash, and the titles of
// o's valid identifiers: what a load keeps of each package it loaded
// (load.go). Provider title_ids are a package's own, and are left out.
func (k *ownKeys) merge(o *ownKeys) {
	mergeFirst(k.byHash, k.moreHash, o.byHash, o.moreHash)
	mergeFirst(k.byCode, k.moreCode, o.byCode, o.moreCode)
	mergeFirst(k.byNorm, k.moreNorm, o.byNorm, o.moreNorm)
}

// mergeFirst adds every title of from and moreFrom to byK and moreK
// (addFirst).
func mergeFirst[K comparable](byK map[K]int64, moreK map[K][]int64, from map[K]int64, moreFrom map[K][]int64) {
	for k, t := range from {
		addFirst(byK, moreK, k, t)
	}
	for k, ts := range moreFrom {
		for _, t := range ts {
			addFirst(byK, moreK, k, t)
		}
	}
}
