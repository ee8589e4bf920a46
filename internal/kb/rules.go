package kb

import "strings"

// ResourceTypeFromKBART maps a KBART publication_type to a resource type:
// serial → Journal, monograph → Book, anything else → Unspecified.
func ResourceTypeFromKBART(publicationType string) ResourceType {
	switch strings.ToLower(strings.TrimSpace(publicationType)) {
	case "serial":
		return ResourceJournal
	case "monograph":
		return ResourceBook
	}
	return ResourceUnspecified
}

// IsSerialType reports whether a resource type is published serially, so
// that a KBART row for it says publication_type "serial".
func IsSerialType(t ResourceType) bool {
	switch t {
	case ResourceJournal, ResourceNewsletter, ResourceNewspaper, ResourceBookSeries, ResourceProceedings, ResourceReport:
		return true
	}
	return false
}
