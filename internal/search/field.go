package search

import (
	"encoding/binary"
	"slices"
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/kbserver/kbserver/internal/kb"
)

// field is the word index of one searched field (name, publisher or
// subjects): a sorted term dictionary whose term ids are the terms'
// positions in it (so the terms of a word prefix are a range of ids), a
// posting bitmap of title ordinals per term, every title's token list as
// term ids (for phrases, proximity, ranking and name comparisons), and a
// trigram index over the terms (for substrings).
type field struct {
	terms []string // sorted, distinct
	// postings holds by term id the ordinals whose field holds the term,
	// as a bitmap for a term of more than rareTitles titles (nil for
	// the others); a rarer term's ordinals are rare[rareStart[t]:
	// rareStart[t+1]], packed, so that the many rare terms are not as
	// many objects for the garbage collector to mark. posting gives
	// either as a bitmap.
	postings  []*roaring.Bitmap
	rare      []uint32
	rareStart []uint32
	// The token lists, one after the other, each token as the uvarint of
	// its term's rank by frequency (rankTerm gives the term id back), so
	// that common words take one byte.
	enc      []byte
	tokStart []uint32 // by token list: where it starts in enc; one more entry than lists
	rankTerm []uint32 // by rank: the term id
	listOf   []uint32 // by ordinal: its token list
	total    uint64   // the tokens of every title's field
	// byLen holds the ordinals by their field's number of tokens, the
	// last entry those of maxLenBucket tokens or more (nil: none); multi
	// by term id the ordinals whose field holds the term more than once.
	// Ranking uses them to bound scores without reading token lists.
	byLen []*roaring.Bitmap
	multi map[uint32]*roaring.Bitmap
	// nearShort holds the ordinals whose field has at most
	// nearDistance+2 tokens: any two of its positions are near.
	nearShort *roaring.Bitmap
	// common holds the ids of the field's common terms (pairTerms),
	// pairs by two common term ids (first<<32 | second) the ordinals
	// whose field holds the second right after the first: a phrase of
	// common words is answered from them instead of token lists.
	common   *roaring.Bitmap
	pairs    map[uint64]*roaring.Bitmap
	trigrams map[string][]uint32
	// For a field whose titles share token lists (sharedLists), the
	// ordinals of each list and the lists of each term, packed: ranking
	// scores lists, not titles (rank_lists.go). Nil for other fields.
	listStart, listAt                     []uint32
	termListStart, termListAt, termListTF []uint32
	listLen                               []uint32

	mu       sync.Mutex
	prefixes map[uint64]*roaring.Bitmap // unions of wide term ranges ([lo, hi) as lo<<32|hi), made on first use
}

// A term is common, and its pairs with other common terms get postings of
// their own, when it occurs minPairCount times or more and in at least one
// title of pairShare.
const (
	minPairCount = 64
	pairShare    = 256
)

// maxLenBucket is the field length from which titles share one byLen
// bucket.
const maxLenBucket = 64

// wideRange is the number of terms from which a prefix's union is kept
// once computed.
const wideRange = 64

// tokens returns the term ids of ordinal o's field, in text order,
// decoded into buf[:0].
func (f *field) tokens(o uint32, buf []uint32) []uint32 {
	return f.listTokens(f.listOf[o], buf)
}

// listTokens returns the term ids of token list l, in text order, decoded
// into buf[:0].
func (f *field) listTokens(l uint32, buf []uint32) []uint32 {
	buf = buf[:0]
	enc := f.enc[f.tokStart[l]:f.tokStart[l+1]]
	for len(enc) > 0 {
		r, n := binary.Uvarint(enc)
		buf = append(buf, f.rankTerm[r])
		enc = enc[n:]
	}
	return buf
}

// fieldTokens cuts a field's text into its words (kb.Words), folded
// (lower case, diacritics removed). Words that
// fold to nothing are dropped.
func fieldTokens(text string, out []string) []string {
	for _, w := range kb.Words(text) {
		if f := kb.Fold(w); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// fieldBuilder gathers a field's tokens during a build, the titles in any
// order.
type fieldBuilder struct {
	ids      map[string]uint32 // provisional term ids, in order of first use
	terms    []string
	tokStart []uint32 // by token list: where it starts in toks; list 0 is empty
	toks     []uint32
	listOf   []uint32 // by ordinal: its token list
	// With interning, equal token lists are kept once (publishers and
	// subject lists repeat across titles; names mostly do not).
	intern bool
	lists  map[string]uint32 // a token list's ids as bytes → its list
	total  int               // tokens over all ordinals
	key    []byte
}

// newFieldBuilder returns the builder of a field of n ordinals.
func newFieldBuilder(n int, intern bool) *fieldBuilder {
	b := &fieldBuilder{ids: map[string]uint32{}, tokStart: []uint32{0, 0}, listOf: make([]uint32, n), intern: intern}
	if intern {
		b.lists = map[string]uint32{"": 0}
	}
	return b
}

// add sets ordinal o's tokens.
func (b *fieldBuilder) add(o uint32, words []string) {
	if len(words) == 0 {
		return // list 0, the empty one
	}
	start := len(b.toks)
	for _, w := range words {
		id, ok := b.ids[w]
		if !ok {
			id = uint32(len(b.terms))
			b.ids[w] = id
			b.terms = append(b.terms, w)
		}
		b.toks = append(b.toks, id)
	}
	b.total += len(words)
	if b.intern {
		b.key = b.key[:0]
		for _, id := range b.toks[start:] {
			b.key = append(b.key, byte(id), byte(id>>8), byte(id>>16), byte(id>>24))
		}
		if l, ok := b.lists[string(b.key)]; ok {
			b.toks = b.toks[:start]
			b.listOf[o] = l
			return
		}
		b.lists[string(b.key)] = uint32(len(b.tokStart) - 1)
	}
	b.listOf[o] = uint32(len(b.tokStart) - 1)
	b.tokStart = append(b.tokStart, uint32(len(b.toks)))
}

// build renumbers the terms in sorted order and makes the postings and
// the trigram index.
func (b *fieldBuilder) build() *field {
	order := make([]uint32, len(b.terms)) // sorted position → provisional id
	for i := range order {
		order[i] = uint32(i)
	}
	sort.Slice(order, func(i, j int) bool { return b.terms[order[i]] < b.terms[order[j]] })
	renum := make([]uint32, len(b.terms)) // provisional id → final id
	f := &field{terms: make([]string, len(b.terms)), listOf: b.listOf, prefixes: map[uint64]*roaring.Bitmap{}}
	ords := len(b.listOf)
	f.total = uint64(b.total)
	for final, prov := range order {
		renum[prov] = uint32(final)
		f.terms[final] = b.terms[prov]
	}
	count := make([]int, len(b.terms))
	for i, t := range b.toks {
		b.toks[i] = renum[t]
		count[renum[t]]++
	}
	lists := make([][]uint32, len(b.terms))
	f.common = roaring.New()
	for t, c := range count {
		if c >= max(minPairCount, ords/pairShare) {
			f.common.Add(uint32(t))
		}
	}
	pairs := map[uint64][]uint32{}
	byLen := make([][]uint32, maxLenBucket+1)
	multi := map[uint32][]uint32{}
	for o := 0; o < ords; o++ {
		list := int(f.listOf[o])
		toks := b.toks[b.tokStart[list]:b.tokStart[list+1]]
		if len(toks) > 0 {
			n := min(len(toks), maxLenBucket)
			byLen[n] = append(byLen[n], uint32(o))
		}
		for i := 1; i < len(toks); i++ {
			if f.common.Contains(toks[i-1]) && f.common.Contains(toks[i]) {
				k := uint64(toks[i-1])<<32 | uint64(toks[i])
				if l := pairs[k]; len(l) == 0 || l[len(l)-1] != uint32(o) {
					pairs[k] = append(l, uint32(o))
				}
			}
		}
		for _, t := range toks {
			l := lists[t]
			if len(l) == 0 || l[len(l)-1] != uint32(o) {
				lists[t] = append(l, uint32(o))
			} else if m := multi[t]; len(m) == 0 || m[len(m)-1] != uint32(o) {
				multi[t] = append(m, uint32(o))
			}
		}
	}
	f.byLen = make([]*roaring.Bitmap, len(byLen))
	for n, l := range byLen {
		if len(l) > 0 {
			f.byLen[n] = optimized(l)
		}
	}
	f.nearShort = roaring.New()
	for _, bm := range f.byLen[:min(nearDistance+3, len(f.byLen))] {
		if bm != nil {
			f.nearShort.Or(bm)
		}
	}
	f.pairs = make(map[uint64]*roaring.Bitmap, len(pairs))
	for k, l := range pairs {
		f.pairs[k] = optimized(l)
	}
	f.multi = make(map[uint32]*roaring.Bitmap, len(multi))
	for t, l := range multi {
		f.multi[t] = optimized(l)
	}
	f.encode(b.toks, b.tokStart, count)
	f.postings = make([]*roaring.Bitmap, len(lists))
	f.rareStart = make([]uint32, len(lists)+1)
	for t, l := range lists {
		if len(l) > rareTitles {
			bm := roaring.BitmapOf(l...)
			bm.RunOptimize()
			f.postings[t] = bm
		} else {
			f.rare = append(f.rare, l...)
		}
		f.rareStart[t+1] = uint32(len(f.rare))
		lists[t] = nil
	}
	f.rare = slices.Clip(f.rare)
	f.deriveLists()
	f.trigrams = map[string][]uint32{}
	for t, term := range f.terms {
		eachTrigram(term, func(g string) {
			if l := f.trigrams[g]; len(l) == 0 || l[len(l)-1] != uint32(t) {
				f.trigrams[g] = append(l, uint32(t))
			}
		})
	}
	return f
}

// encode keeps the token lists toks (cut at starts) as uvarints of their
// terms' ranks by count, most frequent first.
func (f *field) encode(toks, starts []uint32, count []int) {
	f.rankTerm = make([]uint32, len(count))
	for i := range f.rankTerm {
		f.rankTerm[i] = uint32(i)
	}
	slices.SortStableFunc(f.rankTerm, func(a, b uint32) int { return count[b] - count[a] })
	rank := make([]uint32, len(count))
	for r, t := range f.rankTerm {
		rank[t] = uint32(r)
	}
	f.tokStart = make([]uint32, len(starts))
	for l := 0; l+1 < len(starts); l++ {
		for _, t := range toks[starts[l]:starts[l+1]] {
			f.enc = binary.AppendUvarint(f.enc, uint64(rank[t]))
		}
		f.tokStart[l+1] = uint32(len(f.enc))
	}
	f.enc = slices.Clip(f.enc)
}

// eachTrigram calls fn with every run of three characters of s.
func eachTrigram(s string, fn func(string)) {
	var starts [3]int
	n := 0
	for i := range s {
		starts[n%3] = i
		n++
		if n >= 3 {
			fn(s[starts[(n-3)%3]:nextRune(s, i)])
		}
	}
}

// nextRune returns the index just past the character at i.
func nextRune(s string, i int) int {
	_, size := utf8.DecodeRuneInString(s[i:])
	return i + size
}

// termRange returns the ids of the terms that equal w, or begin with it
// when prefix is set: [lo, hi).
func (f *field) termRange(w string, prefix bool) (lo, hi uint32) {
	i := sort.SearchStrings(f.terms, w)
	if !prefix {
		if i < len(f.terms) && f.terms[i] == w {
			return uint32(i), uint32(i + 1)
		}
		return uint32(i), uint32(i)
	}
	j := i + sort.Search(len(f.terms)-i, func(k int) bool { return !strings.HasPrefix(f.terms[i+k], w) })
	return uint32(i), uint32(j)
}

// rareTitles is the number of titles up to which a term's postings are
// kept packed rather than as a bitmap.
const rareTitles = 32

// posting returns the titles holding term t. The result must not be
// modified.
func (f *field) posting(t uint32) *roaring.Bitmap {
	if bm := f.postings[t]; bm != nil {
		return bm
	}
	return roaring.BitmapOf(f.rare[f.rareStart[t]:f.rareStart[t+1]]...)
}

// union returns the union of the postings of the terms terms yields. The
// result must not be modified.
func (f *field) union(terms func(yield func(uint32) bool)) *roaring.Bitmap {
	var bms []*roaring.Bitmap
	var rare []uint32
	for t := range terms {
		if bm := f.postings[t]; bm != nil {
			bms = append(bms, bm)
		} else {
			rare = append(rare, f.rare[f.rareStart[t]:f.rareStart[t+1]]...)
		}
	}
	if len(rare) > 0 {
		bms = append(bms, roaring.BitmapOf(rare...))
	}
	switch len(bms) {
	case 0:
		return roaring.New()
	case 1:
		return bms[0]
	}
	return roaring.FastOr(bms...)
}

// termsIn yields the term ids [lo, hi).
func termsIn(lo, hi uint32) func(yield func(uint32) bool) {
	return func(yield func(uint32) bool) {
		for t := lo; t < hi && yield(t); t++ {
		}
	}
}

// rangePostings returns the union of the postings of terms [lo, hi). The
// result must not be modified.
func (f *field) rangePostings(lo, hi uint32) *roaring.Bitmap {
	switch {
	case hi <= lo:
		return roaring.New()
	case hi == lo+1:
		return f.posting(lo)
	}
	if hi-lo < wideRange {
		return f.union(termsIn(lo, hi))
	}
	key := uint64(lo)<<32 | uint64(hi)
	f.mu.Lock()
	bm, ok := f.prefixes[key]
	f.mu.Unlock()
	if ok {
		return bm
	}
	bm = f.union(termsIn(lo, hi)).Clone()
	bm.RunOptimize()
	f.mu.Lock()
	f.prefixes[key] = bm
	f.mu.Unlock()
	return bm
}

// substringTerms returns the ids of the terms that hold w (folded, three
// or more characters) as a substring, found through the terms' trigrams.
func (f *field) substringTerms(w string) *roaring.Bitmap {
	var lists [][]uint32
	missing := false
	eachTrigram(w, func(g string) {
		l, ok := f.trigrams[g]
		if !ok {
			missing = true
		}
		lists = append(lists, l)
	})
	out := roaring.New()
	if missing {
		return out
	}
	if len(lists) == 0 { // fewer than three characters once folded: look at every term
		for t, term := range f.terms {
			if strings.Contains(term, w) {
				out.Add(uint32(t))
			}
		}
		return out
	}
	sort.Slice(lists, func(i, j int) bool { return len(lists[i]) < len(lists[j]) })
	for _, t := range lists[0] {
		if strings.Contains(f.terms[t], w) {
			out.Add(t)
		}
	}
	return out
}

// setPostings returns the union of the postings of the terms in ids.
func (f *field) setPostings(ids *roaring.Bitmap) *roaring.Bitmap {
	return f.union(func(yield func(uint32) bool) {
		for it := ids.Iterator(); it.HasNext() && yield(it.Next()); {
		}
	})
}
