package search

import "github.com/kbserver/kbserver/internal/kb"

// Title is what the index needs to know of one title (the store's feed
// gives it).
type Title = kb.IndexedTitle

// Package is what the index needs to know of one package.
type Package = kb.IndexedPackage
