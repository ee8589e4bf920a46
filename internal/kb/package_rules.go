package kb

// ValidForPackage reports whether a package can have the content type c:
// aggregated full text (1) to online reference (7). ContentAll is a
// filter value only.
func (c ContentType) ValidForPackage() bool {
	return c >= ContentAggregatedFullText && c <= ContentOnlineReference
}
