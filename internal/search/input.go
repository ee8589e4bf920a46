package search

import "github.com/kbserver/kbserver/internal/kb"

// Title is what the index needs to know of one title: the texts it
// searches, the filters it applies and the packages that hold it. The
// store that feeds the index fills it from its title, identifier and
// resource rows.
type Title struct {
	ID        int64
	Name      string
	Publisher string
	// Subjects are the title's subject names in stored order: they are
	// searched as one text, so a phrase may run from one subject into the
	// next (as it does in the SQLite store's subjects column).
	Subjects []string
	Type     kb.ResourceType
	// CustomerID is the owner of a custom title; "" for a managed title.
	CustomerID string
	// Identifiers are the title's ISSNs and ISBNs in their matching form
	// (the stores' title_identifiers.norm: a valid ISSN as 1234-567X, a
	// valid ISBN as its 13 digits, others upper-cased).
	Identifiers []string
	// Packages are the ids of the packages that hold the title.
	Packages []int64
}

// Package is what the index needs to know of one package.
type Package struct {
	ID int64
	// CustomerID is the owner of a custom package; "" for a managed one.
	CustomerID string
}
