package analysis

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/search"
)

// noClass is the class of a title a package does not have.
const noClass = ^uint32(0)

// Bounds of what coverages keeps: the resources of the packages kept (20
// bytes each: a title id and a class, by id and by slot; 4M is 80 MB),
// and the distinct coverages (past which a new dictionary is begun).
const (
	keptResources = 4 << 20
	keptClasses   = 1 << 20
)

// coverages keeps packages' managed coverage as classes of equal coverage
// (kb.HeldCoverage.Key), read from the store a package at a time and kept
// until the package's version (kb.PackageCoverage.Version) moves, so that
// comparing the coverage of a million titles is comparing integers. The
// least recently used packages go first when more than keptResources are
// kept.
type coverages struct {
	store kb.CoverageReader
	// The bounds: keptResources and keptClasses but in tests.
	maxResources, maxClasses int

	arrays sync.Pool // of *[]slotMarks: scratch's
	mu     sync.Mutex
	pkgs   map[int64]*packageClasses
	dict   *classDict
	kept   int
	clock  uint64
}

// classDict numbers distinct coverages. Its classes are only appended to,
// so that a view's copy of them stays valid; past keptClasses a new
// dictionary replaces it (renew).
type classDict struct {
	keys    map[string]uint32
	classes []kb.HeldCoverage
	judged  *judgements // today's, or nil
}

// packageClasses is one package's titles, ascending, and their classes
// in dict.
type packageClasses struct {
	version int64
	dict    *classDict
	titles  []int64
	class   []uint32
	used    uint64
	slotted *slotted // set under coverages.mu
}

func newCoverages(store kb.CoverageReader) *coverages {
	return &coverages{store: store, maxResources: keptResources, maxClasses: keptClasses,
		pkgs: map[int64]*packageClasses{}, dict: &classDict{keys: map[string]uint32{}}}
}

// coverageView is the coverage of some packages for one customer: their
// managed classes, the customer's own coverage over them, and the
// classes' values.
type coverageView struct {
	dict    *classDict
	pkgs    map[int64]*packageClasses
	custom  map[int64][]customClass // by package, ascending by title
	classes []kb.HeldCoverage
	judged  *judgements // today's, kept: not to be changed
	fresh   judgements  // this request's new ones
	slots               // where the titles are in the request's holdings
}

// customClass is the class of a title's coverage as the customer set it.
type customClass struct {
	title int64
	class uint32
}

// view reads the coverage of packageIDs for customer custID: a package's
// classes from what is kept when its version has not moved, else
// from the store; the customer's custom coverage from the store.
func (c *coverages) view(ctx context.Context, custID string, h *search.Holdings, packageIDs []int64, today time.Time) (*coverageView, error) {
	versions, err := c.store.PackageVersions(ctx, packageIDs)
	if err != nil {
		return nil, err
	}
	customs, err := c.store.CustomCoverages(ctx, custID, packageIDs)
	if err != nil {
		return nil, err
	}
	v := &coverageView{pkgs: make(map[int64]*packageClasses, len(packageIDs)), custom: map[int64][]customClass{}}
	for _, id := range packageIDs {
		c.mu.Lock()
		p, ok := c.pkgs[id]
		if ok && p.version == versions[id] {
			c.clock++
			p.used = c.clock
			v.pkgs[id] = p
		}
		c.mu.Unlock()
		if v.pkgs[id] != nil {
			continue
		}
		pc, err := c.store.PackageCoverage(ctx, id)
		if err != nil {
			return nil, err
		}
		v.pkgs[id] = c.keep(id, pc, v.pkgs)
	}
	c.finish(v, customs, today)
	c.inHoldings(v, h)
	return v, nil
}

// finish classes the customer's own coverage customs over the view's
// packages (those classed by a dictionary another request has since
// replaced classed anew) and gives the view the classes' values and
// today's judgements of coverage.
func (c *coverages) finish(v *coverageView, customs []kb.CustomCoverage, today time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, p := range v.pkgs {
		if p.dict != c.dict { // another request renewed the dictionary meanwhile
			v.pkgs[id] = c.reclass(p)
		}
	}
	for _, cc := range customs {
		p := v.pkgs[cc.PackageID]
		i, ok := slices.BinarySearch(p.titles, cc.TitleID)
		if !ok {
			continue // a resource newer than the package's coverage read
		}
		managed := c.dict.classes[p.class[i]]
		v.custom[cc.PackageID] = append(v.custom[cc.PackageID], customClass{cc.TitleID, c.intern(cc.Over(managed))})
	}
	for _, cs := range v.custom {
		slices.SortFunc(cs, func(a, b customClass) int { return cmp.Compare(a.title, b.title) })
	}
	v.classes = c.dict.classes
	day := today.UTC().Unix() / 86400
	if j := c.dict.judged; j == nil || j.day != day {
		c.dict.judged = newJudgements(day)
	}
	v.judged, v.dict = c.dict.judged, c.dict
	v.fresh = *newJudgements(day)
}

// keep stores package id's coverage pc as classes and returns it, making
// room by dropping the least recently used packages other than those of
// the view being read (inView).
func (c *coverages) keep(id int64, pc kb.PackageCoverage, inView map[int64]*packageClasses) *packageClasses {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.dict.classes) > 0 && len(c.dict.classes)+len(pc.Classes) > c.maxClasses {
		c.renew(inView)
	}
	global := make([]uint32, len(pc.Classes))
	for i, hc := range pc.Classes {
		global[i] = c.intern(hc)
	}
	p := &packageClasses{version: pc.Version, dict: c.dict, titles: pc.Titles, class: pc.Class}
	for i, k := range p.class {
		p.class[i] = global[k]
	}
	if old, ok := c.pkgs[id]; ok {
		c.kept -= len(old.titles)
		delete(c.pkgs, id)
	}
	for c.kept+len(p.titles) > c.maxResources {
		var lru int64
		var oldest *packageClasses
		for pid, q := range c.pkgs {
			if inView[pid] == nil && (oldest == nil || q.used < oldest.used) {
				lru, oldest = pid, q
			}
		}
		if oldest == nil {
			break // the view's own packages are more than the bound: keep them for it
		}
		c.kept -= len(oldest.titles)
		delete(c.pkgs, lru)
	}
	c.clock++
	p.used = c.clock
	c.pkgs[id] = p
	c.kept += len(p.titles)
	return p
}

// renew replaces the dictionary of classes with a new one, keeping only
// the packages of the view being read (inView), classed anew (new
// packageClasses: other views may be reading the old ones). The caller
// holds c.mu.
func (c *coverages) renew(inView map[int64]*packageClasses) {
	c.dict, c.pkgs, c.kept = &classDict{keys: map[string]uint32{}}, map[int64]*packageClasses{}, 0
	for id, q := range inView {
		r := c.reclass(q)
		inView[id] = r
		c.pkgs[id] = r
		c.kept += len(r.titles)
	}
}

// reclass returns q classed by the dictionary in use: a new
// packageClasses, since other views may be reading q. The caller holds
// c.mu.
func (c *coverages) reclass(q *packageClasses) *packageClasses {
	r := &packageClasses{version: q.version, dict: c.dict, titles: q.titles, class: make([]uint32, len(q.class)), used: q.used}
	again := map[uint32]uint32{}
	for i, k := range q.class {
		n, ok := again[k]
		if !ok {
			n = c.intern(q.dict.classes[k])
			again[k] = n
		}
		r.class[i] = n
	}
	return r
}

// slotMarks are a title's classes in heldFully: in the package against
// the holdings, and in the first and second other package that has it
// (noClass: none), side by side so that a title's are read at once.
type slotMarks struct{ mine, theirs, second uint32 }

// scratch returns an array of n slotMarks, each noClass, for one request
// (release gives it back): at 3M titles it is 36 MB, not to be made anew
// and collected for every request.
func (c *coverages) scratch(n int) []slotMarks {
	var a []slotMarks
	if p, ok := c.arrays.Get().(*[]slotMarks); ok && cap(*p) >= n {
		a = (*p)[:n]
	} else {
		a = make([]slotMarks, n)
	}
	for i := range a {
		a[i] = slotMarks{noClass, noClass, noClass}
	}
	return a
}

// release gives back an array scratch made.
func (c *coverages) release(a []slotMarks) { c.arrays.Put(&a) }

// intern returns hc's class, a new one for a coverage not seen yet. The
// caller holds c.mu.
func (c *coverages) intern(hc kb.HeldCoverage) uint32 {
	d := c.dict
	k := hc.Key()
	if i, ok := d.keys[k]; ok {
		return i
	}
	i := uint32(len(d.classes))
	d.keys[k] = i
	d.classes = append(d.classes, hc)
	return i
}

// coverage returns class's coverage.
func (v *coverageView) coverage(class uint32) kb.HeldCoverage {
	if int(class) >= len(v.classes) {
		panic(fmt.Sprintf("coverage class %d of %d", class, len(v.classes)))
	}
	return v.classes[class]
}
