package kb

import "context"

// SerialHolding is one resource of a serial in a customer's collection,
// with what Google Scholar's holdings files say of it (package scholar):
// the title's name and identifiers, and the resource's coverage and
// embargoes, managed and custom.
type SerialHolding struct {
	// Title has its ID, Name and PubType, and as Identifiers its valid
	// ISSNs (NormalizeISSN's form), print first, then online; no
	// Resources.
	Title Title
	// Resource has its TitleID, PackageID, IsSelected, Visibility,
	// ManagedCoverage, CustomCoverage, ManagedEmbargo and CustomEmbargo;
	// nothing else is read.
	Resource Resource
	// KBART holds the resource's KBART rows as imported (newline
	// separated, tab-separated fields; IssueRangesFromKBART reads them)
	// when its effective coverage is the managed one; "" otherwise, and
	// for resources without rows (custom titles).
	KBART string
}

// ScholarStore streams a customer's serials for Google Scholar's holdings
// files.
type ScholarStore interface {
	// CollectionSerials calls fn once for every resource of the
	// customer's collection (selected, not hidden, in a package it
	// selected and did not hide) whose title is a serial (IsSerialType),
	// from one read of one state, in no particular order. The holding
	// may be reused for the next call, but not what it holds: fn may
	// keep a copy of *h. An error of fn stops the read and is returned.
	// An unknown customer is CodeNotFound.
	CollectionSerials(ctx context.Context, custID string, fn func(h *SerialHolding) error) error
}

// SerialTypes lists the resource types IsSerialType accepts, for a store
// to select them.
func SerialTypes() []ResourceType {
	var out []ResourceType
	for t := range ResourceType(len(resourceTypes.names)) {
		if IsSerialType(t) {
			out = append(out, t)
		}
	}
	return out
}
