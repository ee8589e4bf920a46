// Package analysis answers the collection analysis of issue 38 for the
// people who decide what to renew: how a customer's packages overlap
// (titles unique to each, shared by all, with the same coverage), and
// what a package would add to the customer's holdings (titles held
// already through another selected package, and held with coverage that
// covers the package's). The sets come from the search index
// (finder.Service.Holdings), the packages and the coverage from the store.
package analysis

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/search"
)

// Store is what the analysis reads of the store.
type Store interface {
	// PackageByID returns a package the customer may see; "Package not
	// found" for another customer's custom package or none.
	PackageByID(ctx context.Context, custID string, packageID int64) (kb.Package, error)
	kb.CoverageReader
}

// Finder gives the customer's holdings in the search index.
type Finder interface {
	Holdings(ctx context.Context, custID string) (*search.Holdings, kb.CustomerAt, error)
}

// Service answers the analyses.
type Service struct {
	store  Store
	finder Finder
	cov    *coverages
	now    func() time.Time
}

// New returns the analyses over store and finder.
func New(store Store, finder Finder) *Service {
	return &Service{store: store, finder: finder, cov: newCoverages(store), now: time.Now}
}

// Packages reads the listed packages as the customer sees them (their
// ids, names and vendors; no counts): "Package not found" for one it may
// not see.
func (s *Service) Packages(ctx context.Context, custID string, ids []int64) ([]kb.OverlapPackage, error) {
	out := make([]kb.OverlapPackage, len(ids))
	for i, id := range ids {
		p, err := s.store.PackageByID(ctx, custID, id)
		if err != nil {
			return nil, err
		}
		out[i] = kb.OverlapPackage{PackageID: p.ID, PackageName: p.Name, VendorID: p.VendorID}
	}
	return out, nil
}

// Overlap counts the overlap of the packages q names (at least two): the
// titles of each and those no other has, the titles all share, and of
// those the ones with the same effective coverage in each.
func (s *Service) Overlap(ctx context.Context, custID string, q kb.OverlapQuery) (kb.Overlap, error) {
	o, err := s.overlap(ctx, custID, q, true)
	return o.Overlap, err
}

// overlapSets is an overlap with its sets.
type overlapSets struct {
	kb.Overlap
	h       *search.Holdings
	at      kb.CustomerAt
	sets    []search.TitleSet
	shared  search.TitleSet
	same    search.TitleSet
	uniques []search.TitleSet
}

// begin reads the packages ids as the customer sees them (NotFound for
// one it may not see) and the customer's holdings in the index.
func (s *Service) begin(ctx context.Context, custID string, ids []int64) ([]kb.OverlapPackage, *search.Holdings, kb.CustomerAt, error) {
	pkgs, err := s.Packages(ctx, custID, ids)
	if err != nil {
		return nil, nil, kb.CustomerAt{}, err
	}
	h, at, err := s.finder.Holdings(ctx, custID)
	return pkgs, h, at, err
}

// overlap computes the overlap's sets, and with coverage the shared
// titles of the same coverage (classes of coverage compared; the other
// counts and lists are the index's bitmap work).
func (s *Service) overlap(ctx context.Context, custID string, q kb.OverlapQuery, coverage bool) (overlapSets, error) {
	if q.AgainstHoldings || len(q.PackageIDs) < kb.MinOverlapPackages {
		return overlapSets{}, fmt.Errorf("overlap of %v: not an overlap of packages", q.PackageIDs)
	}
	pkgs, h, at, err := s.begin(ctx, custID, q.PackageIDs)
	if err != nil {
		return overlapSets{}, err
	}
	sets := make([]search.TitleSet, len(pkgs))
	for i, p := range pkgs {
		sets[i] = h.PackageTitles(p.PackageID)
	}
	shared := sets[0]
	for _, t := range sets[1:] {
		shared = shared.And(t)
	}
	uniques := make([]search.TitleSet, len(pkgs))
	for i := range pkgs {
		pkgs[i].TitleCount = sets[i].Len()
		unique := sets[i]
		for j, t := range sets {
			if j != i {
				unique = unique.AndNot(t)
			}
		}
		uniques[i] = unique
		pkgs[i].UniqueCount = unique.Len()
	}
	o := overlapSets{Overlap: kb.Overlap{Packages: pkgs, SharedCount: shared.Len()},
		h: h, at: at, sets: sets, shared: shared, uniques: uniques}
	if coverage {
		if o.same, err = s.sameCoverage(ctx, custID, h, q.PackageIDs, shared); err != nil {
			return overlapSets{}, err
		}
		o.SameCoverageCount = o.same.Len()
	}
	return o, nil
}

// sameCoverage returns those of the titles whose effective coverage is
// the same in each of the packages (kb.SameCoverage: the same class of
// coverage, kb.HeldCoverage.Key).
func (s *Service) sameCoverage(ctx context.Context, custID string, h *search.Holdings, packageIDs []int64, titles search.TitleSet) (search.TitleSet, error) {
	v, err := s.cov.view(ctx, custID, h, packageIDs, s.now())
	if err != nil {
		return search.TitleSet{}, err
	}
	slots, first := v.classesIn(packageIDs[0], titles)
	for _, p := range packageIDs[1:] {
		_, cs := v.classesIn(p, titles)
		for i, c := range cs {
			if c != first[i] {
				first[i] = noClass
			}
		}
	}
	same := slots[:0]
	for i, sl := range slots {
		if first[i] != noClass {
			same = append(same, sl)
		}
	}
	return h.SetOfSlots(same), nil
}

// Against counts what package q.PackageIDs[0] would add to the
// customer's holdings: of its titles, those the customer selects in
// another package (held), and of those the ones whose coverage in the
// other selected packages together covers the package's, as of today
// (kb.CoveredBy).
func (s *Service) Against(ctx context.Context, custID string, q kb.OverlapQuery) (kb.Against, error) {
	a, err := s.against(ctx, custID, q, true)
	return a.Against, err
}

// againstSets is a package against the holdings with its sets.
type againstSets struct {
	kb.Against
	h           *search.Holdings
	at          kb.CustomerAt
	titles      search.TitleSet
	held, fully search.TitleSet
}

// against computes the sets of a package against the holdings, and with
// coverage the held titles held fully (classes of coverage compared).
func (s *Service) against(ctx context.Context, custID string, q kb.OverlapQuery, coverage bool) (againstSets, error) {
	if !q.AgainstHoldings || len(q.PackageIDs) != 1 {
		return againstSets{}, fmt.Errorf("against the holdings: %v is not one package", q.PackageIDs)
	}
	pkgs, h, at, err := s.begin(ctx, custID, q.PackageIDs)
	if err != nil {
		return againstSets{}, err
	}
	a := pkgs[0].PackageID
	titles := h.PackageTitles(a)
	pkgs[0].TitleCount = titles.Len()
	held := titles.And(h.SelectedElsewhere(a))
	res := againstSets{Against: kb.Against{Package: pkgs[0], HeldCount: held.Len()}, h: h, at: at, titles: titles, held: held}
	if !coverage {
		return res, nil // no fully: only its list and its count read it
	}
	if res.fully, err = s.heldFully(ctx, custID, h, a, held); err != nil {
		return againstSets{}, err
	}
	res.HeldFullyCount = res.fully.Len()
	return res, nil
}

// unread marks a held title whose class in the package was not read.
const unread = noClass - 1

// heldFully returns those of the held titles of package a whose coverage
// in a the other selected packages' coverage covers, as of today
// (kb.CoveredBy). The classes are written into an array over every slot
// (slotMarks): a's of each held title, then the other packages' as their
// selected titles are walked; a held title whose class in a is another package's
// too is covered, the others are judged once a day for each distinct
// class and set of others' classes (coverageView.coveredBy).
func (s *Service) heldFully(ctx context.Context, custID string, h *search.Holdings, a int64, held search.TitleSet) (search.TitleSet, error) {
	if held.Len() == 0 {
		return held, nil
	}
	byPkg := h.SelectedByPackage()
	var others []int64
	for _, p := range h.SelectedPackages() {
		if _, ok := byPkg[p]; ok && p != a {
			others = append(others, p)
		}
	}
	today := s.now()
	v, err := s.cov.view(ctx, custID, h, append([]int64{a}, others...), today)
	if err != nil {
		return search.TitleSet{}, err
	}
	defer s.cov.remember(v)
	marks := s.cov.scratch(h.Slots())
	defer s.cov.release(marks)
	slots := make([]uint32, 0, held.Len())
	v.eachClass(a, held, func(sl, c uint32) {
		slots = append(slots, sl)
		if c == noClass {
			c = unread
		}
		marks[sl].mine = c
	})
	more := map[uint32][]uint32{}
	for _, p := range others {
		v.eachClass(p, byPkg[p], func(sl, c uint32) {
			m := &marks[sl]
			switch {
			case c == noClass || m.mine == noClass: // not read, or not one of a's held titles
			case m.theirs == noClass:
				m.theirs = c
			case m.second == noClass:
				m.second = c
			default:
				more[sl] = append(more[sl], c)
			}
		})
	}
	var fully []uint32
	var cs []uint32
	for _, t := range slots {
		m, th, nd := marks[t].mine, marks[t].theirs, marks[t].second
		if m == unread {
			continue
		}
		if th == m || nd == m {
			fully = append(fully, t)
			continue
		}
		cs = cs[:0]
		if th != noClass {
			cs = append(cs, th)
		}
		if nd != noClass {
			cs = append(cs, nd)
			if ms := more[t]; len(ms) > 0 {
				if slices.Contains(ms, m) {
					fully = append(fully, t)
					continue
				}
				cs = append(cs, ms...)
			}
			slices.Sort(cs)
			cs = slices.Compact(cs)
		}
		if v.coveredBy(m, cs) {
			fully = append(fully, t)
		}
	}
	return h.SetOfSlots(fully), nil
}

// List returns the titles behind one of an overlap's counts (q.List, not
// ListNone): a page of their ids in name order, their number, and the
// versions they were read at (for the store's rows of the page). Only the
// partial and held-fully lists read coverage from the store.
func (s *Service) List(ctx context.Context, custID string, q kb.OverlapQuery, pg kb.Page) (ids []int64, total int, at kb.CustomerAt, err error) {
	set, at, err := s.listSet(ctx, custID, q)
	if err != nil {
		return nil, 0, at, err
	}
	return set.Page(pg.Offset(), pg.Count), set.Len(), at, nil
}

// ListAll returns every title of the list q asks for, in name order, and
// the versions they were read at: a whole file's.
func (s *Service) ListAll(ctx context.Context, custID string, q kb.OverlapQuery) ([]int64, kb.CustomerAt, error) {
	set, at, err := s.listSet(ctx, custID, q)
	if err != nil {
		return nil, at, err
	}
	return set.Page(0, set.Len()), at, nil
}

// listSet is the set of the list q asks for.
func (s *Service) listSet(ctx context.Context, custID string, q kb.OverlapQuery) (search.TitleSet, kb.CustomerAt, error) {
	if q.AgainstHoldings {
		a, err := s.against(ctx, custID, q, q.List.Kind == kb.ListHeldFully)
		if err != nil {
			return search.TitleSet{}, kb.CustomerAt{}, err
		}
		switch q.List.Kind {
		case kb.ListHeld:
			return a.held, a.at, nil
		case kb.ListHeldFully:
			return a.fully, a.at, nil
		case kb.ListNotHeld:
			return a.titles.AndNot(a.held), a.at, nil
		}
		return search.TitleSet{}, a.at, fmt.Errorf("list %d of a package against the holdings", q.List.Kind)
	}
	o, err := s.overlap(ctx, custID, q, q.List.Kind == kb.ListPartial)
	if err != nil {
		return search.TitleSet{}, kb.CustomerAt{}, err
	}
	switch q.List.Kind {
	case kb.ListShared:
		return o.shared, o.at, nil
	case kb.ListPartial:
		return o.shared.AndNot(o.same), o.at, nil
	case kb.ListUnique:
		if i := slices.Index(q.PackageIDs, q.List.PackageID); i >= 0 {
			return o.uniques[i], o.at, nil
		}
		return search.TitleSet{}, o.at, fmt.Errorf("list unique:%d of %v", q.List.PackageID, q.PackageIDs)
	}
	return search.TitleSet{}, o.at, fmt.Errorf("list %d of an overlap", q.List.Kind)
}

// Duplicates returns the titles the customer selects in two packages or
// more (hidden ones included), the cancellation worksheet: a page of
// their ids in name order, their number, and the versions they were read
// at.
func (s *Service) Duplicates(ctx context.Context, custID string, pg kb.Page) (ids []int64, total int, at kb.CustomerAt, err error) {
	set, at, err := s.duplicates(ctx, custID)
	if err != nil {
		return nil, 0, at, err
	}
	return set.Page(pg.Offset(), pg.Count), set.Len(), at, nil
}

// DuplicatesAll returns every title Duplicates pages, in name order.
func (s *Service) DuplicatesAll(ctx context.Context, custID string) ([]int64, kb.CustomerAt, error) {
	set, at, err := s.duplicates(ctx, custID)
	if err != nil {
		return nil, at, err
	}
	return set.Page(0, set.Len()), at, nil
}

// duplicates is the set of the titles selected in two packages or more.
func (s *Service) duplicates(ctx context.Context, custID string) (search.TitleSet, kb.CustomerAt, error) {
	h, at, err := s.finder.Holdings(ctx, custID)
	if err != nil {
		return search.TitleSet{}, at, err
	}
	return h.SelectedTwice(), at, nil
}
