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
	same    []int64
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
	var same []int64
	if coverage {
		if same, err = s.sameCoverage(ctx, custID, q.PackageIDs, shared.IDs()); err != nil {
			return overlapSets{}, err
		}
	}
	return overlapSets{Overlap: kb.Overlap{Packages: pkgs, SharedCount: shared.Len(), SameCoverageCount: len(same)},
		h: h, at: at, sets: sets, shared: shared, same: same, uniques: uniques}, nil
}

// sameCoverage returns those of the titles (ascending) whose effective
// coverage is the same in each of the packages (kb.SameCoverage: the same
// class of coverage, kb.HeldCoverage.Key).
func (s *Service) sameCoverage(ctx context.Context, custID string, packageIDs, titles []int64) ([]int64, error) {
	v, err := s.cov.view(ctx, custID, packageIDs)
	if err != nil {
		return nil, err
	}
	first := v.classesOf(packageIDs[0], titles)
	for _, p := range packageIDs[1:] {
		for i, c := range v.classesOf(p, titles) {
			if c != first[i] {
				first[i] = noClass
			}
		}
	}
	var same []int64
	for i, t := range titles {
		if first[i] != noClass {
			same = append(same, t)
		}
	}
	return same, nil
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
	held, fully []int64
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
	held := h.Union(in...).IDs()
	res := againstSets{Against: kb.Against{Package: pkgs[0], HeldCount: len(held)}, h: h, at: at, titles: titles, held: held}
	if len(held) == 0 || !coverage {
		return res, nil
	}
	if res.fully, err = s.heldFully(ctx, custID, a, held, others, in); err != nil {
		return againstSets{}, err
	}
	res.HeldFullyCount = len(res.fully)
	return res, nil
}

// heldFully returns those of the held titles of package a (ascending)
// whose coverage in a the other packages' coverage covers, as of today
// (kb.CoveredBy): others[i] has the titles in[i]. A title whose coverage
// in a is the same as in another package is covered; the others are
// judged by CoveredBy once for each distinct pair, or set, of classes.
func (s *Service) heldFully(ctx context.Context, custID string, a int64, held, others []int64, in []search.TitleSet) ([]int64, error) {
	v, err := s.cov.view(ctx, custID, append([]int64{a}, others...))
	if err != nil {
		return nil, err
	}
	mine := v.classesOf(a, held)
	// theirs[i] is the class of held[i] in the first other package that
	// has it (noClass: none yet); more go to more[i].
	theirs := make([]uint32, len(held))
	for i := range theirs {
		theirs[i] = noClass
	}
	more := map[int][]uint32{}
	for k, p := range others {
		ids := in[k].IDs()
		at := positions(held, ids)
		for j, c := range v.classesOf(p, ids) {
			i := at[j]
			switch {
			case c == noClass:
			case theirs[i] == noClass:
				theirs[i] = c
			default:
				more[i] = append(more[i], c)
			}
		}
	}
	today := s.now()
	pairs := map[[2]uint32]bool{}
	sets := map[string]bool{}
	var fully []int64
	for i, t := range held {
		m := mine[i]
		if m == noClass {
			continue
		}
		if theirs[i] == m || slices.Contains(more[i], m) {
			fully = append(fully, t)
			continue
		}
		var covered, ok bool
		if len(more[i]) == 0 { // one other class, or none read
			k := [2]uint32{m, theirs[i]}
			if covered, ok = pairs[k]; !ok {
				var hcs []kb.HeldCoverage
				if theirs[i] != noClass {
					hcs = append(hcs, v.coverage(theirs[i]))
				}
				covered = kb.CoveredBy(v.coverage(m), hcs, today)
				pairs[k] = covered
			}
		} else {
			cs := append([]uint32{theirs[i]}, more[i]...)
			slices.Sort(cs)
			cs = slices.Compact(cs)
			k := fmt.Sprint(m, cs)
			if covered, ok = sets[k]; !ok {
				hcs := make([]kb.HeldCoverage, len(cs))
				for j, c := range cs {
					hcs[j] = v.coverage(c)
				}
				covered = kb.CoveredBy(v.coverage(m), hcs, today)
				sets[k] = covered
			}
		}
		if covered {
			fully = append(fully, t)
		}
	}
	return fully, nil
}

// positions returns the index in all of each of ids; both ascending, ids
// a subset of all.
func positions(all, ids []int64) []int {
	at := make([]int, len(ids))
	if len(ids) > len(all)/16 {
		j := 0
		for i, t := range ids {
			for all[j] < t {
				j++
			}
			at[i] = j
		}
		return at
	}
	for i, t := range ids {
		at[i], _ = slices.BinarySearch(all, t)
	}
	return at
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
			return a.h.SetOf(a.held), a.at, nil
		case kb.ListHeldFully:
			return a.h.SetOf(a.fully), a.at, nil
		case kb.ListNotHeld:
			return a.titles.AndNot(a.h.SetOf(a.held)), a.at, nil
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
		return o.shared.AndNot(o.h.SetOf(o.same)), o.at, nil
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
	var once, twice search.TitleSet
	byPkg := h.SelectedByPackage()
	for i, p := range h.SelectedPackages() {
		sel, ok := byPkg[p]
		if !ok {
			sel = h.SetOf(nil)
		}
		if i == 0 {
			once, twice = sel, sel.AndNot(sel)
			continue
		}
		twice = twice.Or(once.And(sel))
		once = once.Or(sel)
	}
	if once == (search.TitleSet{}) {
		return h.SetOf(nil), at, nil
	}
	return twice, at, nil
}
