package kb

import "time"

// The rules of knowledge-base updates: how an import tells the items of a
// package apart, which package owns a title's metadata, and how long the
// state of customers on a title that left its package is kept.
//
// An import matches each row of a package's new title list to a title:
//
//  1. by the provider's KBART title_id, when the row has one and the
//     package lists (or listed, before it was removed) an item with it:
//     the same title_id is the same item, whatever else changed (a
//     corrected ISSN, a new URL, a new name);
//  2. else by a valid ISSN or ISBN of the row, to the knowledge base's
//     title with it (the oldest, when several have it);
//  3. else, for a row without a valid identifier, by its name, publisher
//     and type;
//
// and in 2 and 3 a title the package already holds as another item is
// not taken (SameItem): then the row is a new title. Otherwise the row
// creates a title.

// ItemKey is what tells two items of one package apart when their
// identifiers or their name, publisher and type agree: the provider's
// title_id and the URL of their rows.
type ItemKey struct {
	ProviderID string
	URL        string
}

// SameItem reports whether a row (b) is the item that a package holds as
// a: the rows of one item share their title_id, and distinct items that
// share a name, publisher and type (the documents of an archive, the
// volumes of a set) differ in it, or in their URL.
//
// Within one import (sameImport), two rows are the same item when both
// have a title_id and they are equal, or else when their URLs are equal
// (or one has none). Across imports (a is what the package held before),
// a row is the item it matched unless both have a title_id and they
// differ: a provider's new URL for the same title is an update, not a new
// item.
func SameItem(a, b ItemKey, sameImport bool) bool {
	if a.ProviderID != "" && b.ProviderID != "" {
		return a.ProviderID == b.ProviderID
	}
	if !sameImport {
		return true
	}
	return a.URL == "" || b.URL == "" || a.URL == b.URL
}

// TitleSource says which package's imports may change a title's name,
// publisher, type and identifiers: the title's source package (the one
// that created it), or, when it has none (its source no longer lists it),
// the first package to import it next, which becomes its source. Other
// packages listing the title do not change it: when their rows disagree,
// the source wins.
func TitleSource(source *int64, packageID int64) (owns, claims bool) {
	if source == nil {
		return true, true
	}
	return *source == packageID, false
}

// RetiredKept is how long the customers' state on a title that left its
// package is kept for the title's return; an import purges what is older.
const RetiredKept = 400 * 24 * time.Hour

// The actions of the changes an import records.
const (
	ImportAdd        = "kb.add"        // a title joins the package
	ImportRemove     = "kb.remove"     // a title leaves the package
	ImportUpdate     = "kb.update"     // its coverage, URL, embargo or other KBART values change
	ImportRename     = "kb.rename"     // the title's name, publisher or type changes
	ImportReidentify = "kb.reidentify" // the title's identifiers change
	ImportRestore    = "kb.restore"    // customers' state comes back with a returning title
	ImportFirst      = "kb.import"     // a package's first import, recorded once
)
