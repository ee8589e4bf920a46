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

// packages reads the listed packages as the customer sees them.
func (s *Service) packages(ctx context.Context, custID string, ids []int64) ([]kb.OverlapPackage, error) {
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
	if q.AgainstHoldings || len(q.PackageIDs) < kb.MinOverlapPackages {
		return kb.Overlap{}, fmt.Errorf("overlap of %v: not an overlap of packages", q.PackageIDs)
	}
	pkgs, err := s.packages(ctx, custID, q.PackageIDs)
	if err != nil {
		return kb.Overlap{}, err
	}
	h, _, err := s.finder.Holdings(ctx, custID)
	if err != nil {
		return kb.Overlap{}, err
	}
	sets := make([]search.TitleSet, len(pkgs))
	for i, p := range pkgs {
		sets[i] = h.PackageTitles(p.PackageID)
	}
	shared := sets[0]
	for _, t := range sets[1:] {
		shared = shared.And(t)
	}
	for i := range pkgs {
		pkgs[i].TitleCount = sets[i].Len()
		unique := sets[i]
		for j, t := range sets {
			if j != i {
				unique = unique.AndNot(t)
			}
		}
		pkgs[i].UniqueCount = unique.Len()
	}
	same, err := s.sameCoverage(ctx, custID, q.PackageIDs, shared.IDs())
	if err != nil {
		return kb.Overlap{}, err
	}
	return kb.Overlap{Packages: pkgs, SharedCount: shared.Len(), SameCoverageCount: len(same)}, nil
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
	if !q.AgainstHoldings || len(q.PackageIDs) != 1 {
		return kb.Against{}, fmt.Errorf("against the holdings: %v is not one package", q.PackageIDs)
	}
	pkgs, err := s.packages(ctx, custID, q.PackageIDs)
	if err != nil {
		return kb.Against{}, err
	}
	a := pkgs[0].PackageID
	h, _, err := s.finder.Holdings(ctx, custID)
	if err != nil {
		return kb.Against{}, err
	}
	titles := h.PackageTitles(a)
	pkgs[0].TitleCount = titles.Len()
	// Each title's other selected packages.
	others := map[int64][]int64{}
	var otherPkgs []int64
	var held []int64
	for _, p := range h.SelectedPackages() {
		if p == a {
			continue
		}
		in := titles.And(h.Selected(p)).IDs()
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
	res := kb.Against{Package: pkgs[0], HeldCount: len(held)}
	if len(held) == 0 {
		return res, nil
	}
	cov, err := s.store.HeldCoverages(ctx, custID, append([]int64{a}, otherPkgs...), held)
	if err != nil {
		return kb.Against{}, err
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
		}
	}
	return res, nil
}
