package analysis

// NewSmall returns the analyses over store and finder keeping the
// coverage of at most resources resources and classes classes, so that
// tests reach the bounds.
func NewSmall(store Store, finder Finder, resources, classes int) *Service {
	s := New(store, finder)
	s.cov.maxResources, s.cov.maxClasses = resources, classes
	return s
}
