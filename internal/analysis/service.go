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
	// The other selected packages, and the package's titles in each.
	var others []int64
	var in []search.TitleSet
	byPkg := h.SelectedByPackage()
	for _, p := range h.SelectedPackages() {
		sel, ok := byPkg[p]
		if p == a || !ok {
			continue
		}
		if t := titles.And(sel); t.Len() > 0 {
			others, in = append(others, p), append(in, t)
		}
	}
	held := h.Union(in...)
	res := againstSets{Against: kb.Against{Package: pkgs[0], HeldCount: held.Len()}, h: h, at: at, titles: titles, held: held}
	if !coverage {
		return res, nil // no fully: only its list and its count read it
	}
	if held.Len() == 0 {
		res.fully = held
		return res, nil
	}
	if res.fully, err = s.heldFully(ctx, custID, h, a, held, others, in); err != nil {
		return againstSets{}, err
	}
	res.HeldFullyCount = res.fully.Len()
	return res, nil
}

// heldFully returns those of the held titles of package a (ascending)
// whose coverage in a the other packages' coverage covers, as of today
// (kb.CoveredBy): others[i] has the titles in[i]. A title whose coverage
// in a is the same as in another package is covered; the others are
// judged by CoveredBy once a day for each distinct pair, or set, of
// classes (coverageView.judge).
func (s *Service) heldFully(ctx context.Context, custID string, h *search.Holdings, a int64, held search.TitleSet, others []int64, in []search.TitleSet) (search.TitleSet, error) {
	today := s.now()
	v, err := s.cov.view(ctx, custID, h, append([]int64{a}, others...), today)
	if err != nil {
		return search.TitleSet{}, err
	}
	// theirs[slot] is a held title's class in the first other package
	// that has it (noClass: none yet), second in the second; more go to
	// more. Arrays over every slot: no search for a title's place.
	n := h.Slots()
	theirs, second := make([]uint32, n), make([]uint32, n)
	for i := range theirs {
		theirs[i], second[i] = noClass, noClass
	}
	more := map[uint32][]uint32{}
	for k, p := range others {
		v.eachClass(p, in[k], func(sl, c uint32) {
			switch {
			case c == noClass:
			case theirs[sl] == noClass:
				theirs[sl] = c
			case second[sl] == noClass:
				second[sl] = c
			default:
				more[sl] = append(more[sl], c)
			}
		})
	}
	pairs := map[[2]uint32]bool{} // this request's, before the shared judge
	var fully []uint32
	v.eachClass(a, held, func(t, m uint32) {
		th := theirs[t]
		if m == noClass {
			return
		}
		if th == m || second[t] == m || (second[t] != noClass && slices.Contains(more[t], m)) {
			fully = append(fully, t)
			return
		}
		var covered bool
		if second[t] == noClass { // one other class, or none read
			k := [2]uint32{m, th}
			var ok bool
			if covered, ok = pairs[k]; !ok {
				var cs []uint32
				if th != noClass {
					cs = []uint32{th}
				}
				covered = v.judge(k, m, cs, today)
				pairs[k] = covered
			}
		} else {
			cs := append([]uint32{th, second[t]}, more[t]...)
			slices.Sort(cs)
			cs = slices.Compact(cs)
			covered = v.judge(fmt.Sprint(m, cs), m, cs, today)
		}
		if covered {
			fully = append(fully, t)
		}
	})
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
	byPkg := h.SelectedByPackage()
	sets := make([]search.TitleSet, 0, len(byPkg))
	for _, p := range h.SelectedPackages() {
		if sel, ok := byPkg[p]; ok {
			sets = append(sets, sel)
		}
	}
	return h.Twice(sets...), at, nil
}
