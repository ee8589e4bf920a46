// Package search is every search of kbserver: the search service
// (Service), which the holdings service, publication search and the pages
// ask, and the in-memory index it answers from: an index of
// the knowledge base's titles in which every posting list is a roaring
// bitmap over title ordinals, and ordinals follow name order, so that a
// search's exact total is a bitmap cardinality and a name-ordered page is
// the first matching ordinals past the offset.
//
// The index is built from a stream of titles (Builder) and answers the
// holdings service's title searches (Index.Titles) with the semantics the
// SQLite store's FTS5 translation had before the stores' text indexes
// were dropped: the seven search types over the four fields, the
// selection, resource-type and package filters, any offset.
// docs/search-engine.md holds the design and, in its "As built" sections,
// what this package does differently; reference_test.go is a slow
// reference that the property tests hold it to.
//
// Live keeps an index in step with a store (kb.TitleFeed): it answers a
// search only when its index holds the version of the indexed data that
// the request read, catching up with the changes or rebuilding it when that
// version moves on (searches wait for the rebuild, and are refused with
// kb.CodeUnavailable when it takes too long), and reads each customer's
// selected set at the customer's version. The Service asks it for ids,
// totals, facets and ranks, then the store for those rows by id; the
// stores keep no text index and never hold this one.
package search
