// Package search is the in-memory search engine of issue 22: an index of
// the knowledge base's titles in which every posting list is a roaring
// bitmap over title ordinals, and ordinals follow name order, so that a
// search's exact total is a bitmap cardinality and a name-ordered page is
// the first matching ordinals past the offset.
//
// The index is built from a stream of titles (Builder) and answers the
// holdings service's title searches (Index.Titles) with the semantics of
// the SQLite store's FTS5 translation (internal/sqlite/search.go): the
// seven search types over the four fields, the selection, resource-type
// and package filters, any offset. docs/search-engine.md holds the design
// and, in its "As built" section, what this package does differently.
//
// Live keeps an index in step with a store (kb.TitleFeed): it answers a
// search only when its index holds the store's current version of the
// indexed data, rebuilding it when that version moves on, and reads each
// customer's selected set at the customer's version. The stores'
// Titles asks it first (kb.TitleIndex) and answers with SQL when it
// declines.
package search
