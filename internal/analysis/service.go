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
	kb.HeldCoverageReader
}

// Finder gives the customer's holdings in the search index.
type Finder interface {
	Holdings(ctx context.Context, custID string) (*search.Holdings, kb.CustomerAt, error)
}

// Service answers the analyses.
type Service struct {
	store  Store
	finder Finder
	now    func() time.Time
}

// New returns the analyses over store and finder.
func New(store Store, finder Finder) *Service {
	return &Service{store: store, finder: finder, now: time.Now}
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
// titles of the same coverage (a read of the store a shared title; the
// other counts and lists are the index's bitmap work).
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

// sameCoverage returns those of the titles whose effective coverage is
// the same in each of the packages (kb.SameCoverage).
func (s *Service) sameCoverage(ctx context.Context, custID string, packageIDs, titles []int64) ([]int64, error) {
	cov, err := s.store.HeldCoverages(ctx, custID, packageIDs, titles)
	if err != nil {
		return nil, err
	}
	var same []int64
	for _, t := range titles {
		first, ok := cov[kb.ResourceKey{PackageID: packageIDs[0], TitleID: t}]
		all := ok
		for _, p := range packageIDs[1:] {
			c, ok := cov[kb.ResourceKey{PackageID: p, TitleID: t}]
			all = all && ok && kb.SameCoverage(first, c)
		}
		if all {
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
// coverage the held titles held fully (a read of the store a held title).
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
	// Each title's other selected packages.
	others := map[int64][]int64{}
	var otherPkgs []int64
	var held []int64
	byPkg := h.SelectedByPackage()
	for _, p := range h.SelectedPackages() {
		sel, ok := byPkg[p]
		if p == a || !ok {
			continue
		}
		in := titles.And(sel).IDs()
		if len(in) > 0 {
			otherPkgs = append(otherPkgs, p)
		}
		for _, t := range in {
			if len(others[t]) == 0 {
				held = append(held, t)
			}
			others[t] = append(others[t], p)
		}
	}
	res := againstSets{Against: kb.Against{Package: pkgs[0], HeldCount: len(held)}, h: h, at: at, titles: titles, held: held}
	if len(held) == 0 || !coverage {
		return res, nil
	}
	cov, err := s.store.HeldCoverages(ctx, custID, append([]int64{a}, otherPkgs...), held)
	if err != nil {
		return againstSets{}, err
	}
	today := s.now()
	for _, t := range held {
		mine, ok := cov[kb.ResourceKey{PackageID: a, TitleID: t}]
		if !ok {
			continue
		}
		var theirs []kb.HeldCoverage
		for _, p := range others[t] {
			if c, ok := cov[kb.ResourceKey{PackageID: p, TitleID: t}]; ok {
				theirs = append(theirs, c)
			}
		}
		if kb.CoveredBy(mine, theirs, today) {
			res.HeldFullyCount++
			res.fully = append(res.fully, t)
		}
	}
	return res, nil
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
