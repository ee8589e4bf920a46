package search

import (
	"cmp"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/kbserver/kbserver/internal/kb"
)

// Builder makes an Index from a stream of titles and packages. Given the
// titles' name order first (Order, as a store can stream its ids from its
// name index), it takes each title as it comes, in any order, and keeps
// none of them: the build holds the index being made and a few batches
// of titles, not the knowledge base. Without Order it keeps the titles
// and sorts them at Build.
type Builder struct {
	pkgOwner map[int64]string
	order    []int64 // title ids in name order, from Order
	titles   []Title // without Order: the titles, until Build
	st       *buildState
}

// NewBuilder returns an empty Builder.
func NewBuilder() *Builder { return &Builder{pkgOwner: map[int64]string{}} }

// AddPackage records a package; a package that holds titles but was never
// added counts as managed.
func (b *Builder) AddPackage(p Package) {
	if p.CustomerID != "" {
		b.pkgOwner[p.ID] = p.CustomerID
	}
}

// Order records the next title id in name order (sort_name, then id);
// every Order comes before the first AddTitle. A title added later whose
// id was not ordered is left out.
func (b *Builder) Order(id int64) { b.order = append(b.order, id) }

// AddTitle adds a title; t.SortName is its folded name (computed when
// empty). The index keeps no reference to t's slices.
func (b *Builder) AddTitle(t Title) {
	if b.order == nil {
		b.titles = append(b.titles, t)
		return
	}
	if t.SortName == "" {
		t.SortName = kb.Fold(t.Name)
	}
	if b.st == nil {
		b.st = newBuildState(b.order, b.pkgOwner)
	}
	b.st.add(t)
}

// Build makes the index of the titles added so far and empties the
// Builder.
func (b *Builder) Build() *Index {
	st := b.st
	switch {
	case b.order == nil:
		parallel(len(b.titles), func(lo, hi int) {
			for i := lo; i < hi; i++ {
				if t := &b.titles[i]; t.SortName == "" {
					t.SortName = kb.Fold(t.Name)
				}
			}
		})
		slices.SortFunc(b.titles, func(p, q Title) int {
			if c := strings.Compare(p.SortName, q.SortName); c != 0 {
				return c
			}
			return cmp.Compare(p.ID, q.ID)
		})
		order := make([]int64, len(b.titles))
		for i, t := range b.titles {
			order[i] = t.ID
		}
		st = newBuildState(order, b.pkgOwner)
		for _, t := range b.titles {
			st.add(t)
		}
	case st == nil:
		st = newBuildState(b.order, b.pkgOwner)
	}
	*b = Builder{pkgOwner: map[int64]string{}}
	return st.finish()
}

// batchSize is the number of titles handed to the field workers at once.
const batchSize = 512

// titleAt is a title and its ordinal.
type titleAt struct {
	t Title
	o uint32
}

// buildState is an index being built: the caller's goroutine records
// ids, types, packages and identifiers as titles come; three workers
// tokenise the name, publisher and subject fields of each batch.
type buildState struct {
	x        *Index
	filled   *roaring.Bitmap // the ordinals whose title came
	pkgOrds  map[int64][]uint32
	typeOrds map[kb.ResourceType][]uint32
	custOrds map[string][]uint32
	idents   []ident
	batch    []titleAt
	work     [3]chan []titleAt
	wg       sync.WaitGroup
	pubOrds  map[string][]uint32     // the publisher worker's
	subjOrds map[kb.Subject][]uint32 // the subject worker's
	peerOrds []uint32
}

// newBuildState starts the build of an index of the titles order names,
// in that (name) order.
func newBuildState(order []int64, pkgOwner map[int64]string) *buildState {
	n := len(order)
	x := &Index{
		ids:      order,
		byID:     make([]uint32, n),
		customOf: map[string]*roaring.Bitmap{},
		byType:   map[kb.ResourceType]*roaring.Bitmap{},
		packages: map[int64]*roaring.Bitmap{},
		pkgOwner: pkgOwner,
		oddNames: map[uint32]string{},
	}
	for o := range x.byID {
		x.byID[o] = uint32(o)
	}
	slices.SortFunc(x.byID, func(p, q uint32) int { return cmp.Compare(x.ids[p], x.ids[q]) })
	st := &buildState{x: x, filled: roaring.New(), pkgOrds: map[int64][]uint32{}, typeOrds: map[kb.ResourceType][]uint32{},
		custOrds: map[string][]uint32{}, pubOrds: map[string][]uint32{}, subjOrds: map[kb.Subject][]uint32{}}
	workers := [3]func([]titleAt){}
	nameB := newFieldBuilder(n, false)
	workers[0] = func(batch []titleAt) {
		var words []string
		for _, ta := range batch {
			words = fieldTokens(ta.t.Name, words[:0])
			nameB.add(ta.o, words)
			if strings.Join(words, " ") != ta.t.SortName {
				x.oddNames[ta.o] = ta.t.SortName
			}
		}
	}
	pubB := newFieldBuilder(n, true)
	// Publishers and subject headings repeat: each text is cut and folded
	// once (up to maxCachedTexts of them).
	pubs := textCache{}
	workers[1] = func(batch []titleAt) {
		for _, ta := range batch {
			c := pubs.get(ta.t.Publisher)
			pubB.add(ta.o, c.words)
			st.pubOrds[c.folded] = append(st.pubOrds[c.folded], ta.o)
		}
	}
	subjB := newFieldBuilder(n, true)
	subjects := textCache{}
	workers[2] = func(batch []titleAt) {
		var words []string
		for _, ta := range batch {
			words = words[:0]
			for k, s := range ta.t.Subjects {
				words = append(words, subjects.get(s.Name).words...)
				if l := st.subjOrds[s]; (len(l) == 0 || l[len(l)-1] != ta.o) && !slices.Contains(ta.t.Subjects[:k], s) {
					st.subjOrds[s] = append(l, ta.o)
				}
			}
			subjB.add(ta.o, words)
		}
	}
	fields := [3]**field{&x.name, &x.publisher, &x.subject}
	builders := [3]*fieldBuilder{nameB, pubB, subjB}
	var finishing sync.Mutex // one field's postings at a time: they are the build's peak of memory
	for i := range st.work {
		st.work[i] = make(chan []titleAt, 4)
		st.wg.Go(func() {
			for batch := range st.work[i] {
				workers[i](batch)
			}
			finishing.Lock()
			defer finishing.Unlock()
			*fields[i] = builders[i].build()
			builders[i] = nil
		})
	}
	return st
}

// cutText is a field text's words as the index keeps them and its folded
// form.
type cutText struct {
	words  []string
	folded string
}

// textCache keeps the cut of texts that repeat across titles (one
// worker's: not safe for concurrent use).
type textCache map[string]cutText

// maxCachedTexts bounds a textCache.
const maxCachedTexts = 1 << 16

// get returns text's cut.
func (c textCache) get(text string) cutText {
	if t, ok := c[text]; ok {
		return t
	}
	t := cutText{words: fieldTokens(text, nil), folded: kb.Fold(text)}
	if len(c) < maxCachedTexts {
		c[strings.Clone(text)] = t
	}
	return t
}

// add records title t.
func (st *buildState) add(t Title) {
	x := st.x
	o, ok := x.Ordinal(t.ID)
	if !ok || st.filled.Contains(o) {
		return // not ordered (added after the order was read), or twice
	}
	st.filled.Add(o)
	if t.CustomerID != "" {
		st.custOrds[t.CustomerID] = append(st.custOrds[t.CustomerID], o)
	}
	st.typeOrds[t.Type] = append(st.typeOrds[t.Type], o)
	if t.PeerReviewed {
		st.peerOrds = append(st.peerOrds, o)
	}
	for _, id := range t.Identifiers {
		st.idents = append(st.idents, ident{id, o})
	}
	for _, p := range t.Packages {
		if l := st.pkgOrds[p]; len(l) == 0 || l[len(l)-1] != o {
			st.pkgOrds[p] = append(l, o)
		}
	}
	st.batch = append(st.batch, titleAt{t, o})
	if len(st.batch) == batchSize {
		st.flush()
	}
}

// flush hands the batch to the field workers.
func (st *buildState) flush() {
	if len(st.batch) == 0 {
		return
	}
	for _, w := range st.work {
		w <- st.batch
	}
	st.batch = make([]titleAt, 0, batchSize)
}

// finish waits for the field workers and completes the index.
func (st *buildState) finish() *Index {
	st.flush()
	for _, w := range st.work {
		close(w)
	}
	x := st.x
	x.all = st.filled
	x.all.RunOptimize()
	x.custom = roaring.New()
	for c, l := range st.custOrds {
		x.customOf[c] = optimized(l)
		x.custom.Or(x.customOf[c])
	}
	for ty, l := range st.typeOrds {
		x.byType[ty] = optimized(l)
	}
	x.pkgIDs = make([]int64, 0, len(st.pkgOrds))
	for p, l := range st.pkgOrds {
		x.packages[p] = optimized(l)
		x.pkgIDs = append(x.pkgIDs, p)
	}
	slices.Sort(x.pkgIDs)
	lists := make([]*roaring.Bitmap, len(x.pkgIDs))
	for i, p := range x.pkgIDs {
		lists[i] = x.packages[p]
	}
	x.pkgOff, x.pkgOf = perTitle(len(x.ids), lists)
	x.peer = optimized(st.peerOrds)
	slices.SortFunc(st.idents, func(p, q ident) int {
		if c := strings.Compare(p.norm, q.norm); c != 0 {
			return c
		}
		return cmp.Compare(p.ord, q.ord)
	})
	x.idents = newIdentList(st.idents)
	st.wg.Wait()
	x.pubs = make([]string, 0, len(st.pubOrds))
	for p := range st.pubOrds {
		x.pubs = append(x.pubs, p)
	}
	sort.Strings(x.pubs)
	x.pubPosts = make([]*roaring.Bitmap, len(x.pubs))
	for i, p := range x.pubs {
		x.pubPosts[i] = optimized(st.pubOrds[p])
	}
	x.subjects = make([]kb.Subject, 0, len(st.subjOrds))
	for s := range st.subjOrds {
		x.subjects = append(x.subjects, s)
	}
	slices.SortFunc(x.subjects, func(a, b kb.Subject) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.Type, b.Type))
	})
	x.subjPosts = make([]*roaring.Bitmap, len(x.subjects))
	for i, s := range x.subjects {
		x.subjPosts[i] = optimized(st.subjOrds[s])
	}
	x.subjOff, x.subjOf = perTitle(len(x.ids), x.subjPosts)
	return x
}

// perTitle turns postings (lists[i]: the ordinals of value i) into lists
// by ordinal: the values of ordinal o are of[off[o]:off[o+1]], in order.
func perTitle(n int, lists []*roaring.Bitmap) (off, of []uint32) {
	off = make([]uint32, n+1)
	for _, l := range lists {
		for it := l.Iterator(); it.HasNext(); {
			off[it.Next()+1]++
		}
	}
	for o := range n {
		off[o+1] += off[o]
	}
	of = make([]uint32, off[n])
	next := slices.Clone(off[:n])
	for i, l := range lists {
		for it := l.Iterator(); it.HasNext(); {
			o := it.Next()
			of[next[o]] = uint32(i)
			next[o]++
		}
	}
	return off, of
}

// parallel calls fn over [0, n) split into one range per processor, at
// once, and waits for them.
func parallel(n int, fn func(lo, hi int)) {
	parts := max(1, min(runtime.GOMAXPROCS(0), n/10000))
	var wg sync.WaitGroup
	for p := range parts {
		wg.Go(func() { fn(n*p/parts, n*(p+1)/parts) })
	}
	wg.Wait()
}
