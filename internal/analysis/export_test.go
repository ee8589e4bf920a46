package analysis

import "fmt"

// NewSmall returns the analyses over store and finder keeping the
// coverage of at most resources resources and classes classes, so that
// tests reach the bounds.
func NewSmall(store Store, finder Finder, resources, classes int) *Service {
	s := New(store, finder)
	s.cov.maxResources, s.cov.maxClasses = resources, classes
	return s
}

// CheckKept returns an error when s's count of the resources it keeps
// is not the sum of its packages' titles.
func CheckKept(s *Service) error {
	s.cov.mu.Lock()
	defer s.cov.mu.Unlock()
	n := 0
	for _, p := range s.cov.pkgs {
		n += len(p.titles)
	}
	if n != s.cov.kept {
		return fmt.Errorf("%d resources kept, counted as %d", n, s.cov.kept)
	}
	return nil
}

// Kept returns the number of resources and of distinct coverages s keeps.
func Kept(s *Service) (resources, classes int) {
	s.cov.mu.Lock()
	defer s.cov.mu.Unlock()
	return s.cov.kept, len(s.cov.dict.classes)
}
