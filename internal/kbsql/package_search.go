package kbsql

import (
	"context"
	"errors"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// Vendor and package name searches. The search engine matches the names
// (kb.TitleIndex's MatchNames, with kb.NameTest's rules): the store reads
// the ids it matched, in one list, and keeps to those the customer may
// see; the list's count and page then look ids up rather than each
// matching every name again, and a search that matches no name ends
// before any read.

// nameMatch restricts the rows of alias (v, a vendor, or p, a package) to
// those whose name holds every word of search as a word prefix. none is
// true when search matches nothing (only punctuation, or no name); the
// Match is empty when there is no search.
//
// Relevance: every match holds every word, so what tells matches apart is
// what else their names hold; a name of fewer words ranks first (ties in
// name order). It is BM25's order over the matches without repeated
// words, where every word's document frequency is the number of matches.
func (s *Store) nameMatch(ctx context.Context, alias, search string, args *Args) (m Match, none bool, err error) {
	if strings.TrimSpace(search) == "" {
		return Match{}, false, nil
	}
	kind := kb.NamePackages
	if alias == "v" {
		kind = kb.NameVendors
	}
	ids, none, err := s.matchNames(ctx, kb.NameSearch{Kind: kind, Search: search})
	if err != nil || none {
		return Match{}, none, err
	}
	name := alias + ".sort_name"
	return Match{Cond: s.d.InIDs(alias+".id", args.Add(ids)), Rank: `LENGTH(` + name + `) - LENGTH(REPLACE(` + name + `, ' ', ''))`}, false, nil
}

// matchNames returns the ids of the vendors or packages whose names q
// matches, from the search engine; none is true when there are none (q
// has no word, or no name matches).
func (s *Store) matchNames(ctx context.Context, q kb.NameSearch) (ids []int64, none bool, err error) {
	if _, none := kb.CompileNameSearch(q); none {
		return nil, true, nil
	}
	ix := s.titleIndex()
	if ix == nil {
		return nil, false, errors.New("name search: the store has no search index (UseTitleIndex)")
	}
	ids, err = ix.MatchNames(ctx, q)
	return ids, len(ids) == 0, err
}

// visibilityCondition is the SQL condition of a visibility filter over the
// customer's state cp; "" for none.
func visibilityCondition(f kb.VisibilityFilter) string {
	switch f {
	case kb.VisibilityShown:
		return `COALESCE(cp.hidden, FALSE) = FALSE`
	case kb.VisibilityHidden:
		return `COALESCE(cp.hidden, FALSE) = TRUE`
	}
	return ""
}
