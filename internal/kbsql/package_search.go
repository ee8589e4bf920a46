package kbsql

import (
	"context"
	"fmt"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// Vendor and package name searches. The search service matches the names
// (search.Live's MatchNames, with kb.NameTest's rules) and passes the
// matches in the query (kb.NameMatches): the store keeps
// to those the customer may see, by the ids the engine matched (or those
// it did not, when they are fewer); the list's count and page then look
// ids up rather than each matching every name again, and a search that
// matches no name ends before any read.

// nameMatch restricts the rows of alias (v, a vendor, or p, a package) to
// those whose name holds every word of search as a word prefix. none is
// true when search matches nothing (only punctuation, or no name); the
// Match is empty when there is no search.
//
// Relevance: every match holds every word, so what tells matches apart is
// what else their names hold; a name of fewer words ranks first (ties in
// name order). It is BM25's order over the matches without repeated
// words, where every word's document frequency is the number of matches.
func (s *Store) nameMatch(ctx context.Context, alias, search string, names *kb.NameMatches, args *Args) (m Match, none bool, err error) {
	if strings.TrimSpace(search) == "" {
		return Match{}, false, nil
	}
	kind := kb.NamePackages
	if alias == "v" {
		kind = kb.NameVendors
	}
	cond, none, err := s.nameCond(ctx, alias, kb.NameSearch{Kind: kind, Search: search}, names, args)
	if err != nil || none {
		return Match{}, none, err
	}
	name := alias + ".sort_name"
	return Match{Cond: cond, Rank: `LENGTH(` + name + `) - LENGTH(REPLACE(` + name + `, ' ', ''))`}, false, nil
}

// nameCond returns the condition that the row of alias (v or p) is a
// vendor or package whose name q matches, adding its arguments to args;
// none is true when no name matches (or q has no word). names are the
// matching ids and the others, as the search service found them: the
// condition names the shorter list
// (a broad word matches most names, and a list of nearly all ids would
// be read for the count and again for the page), with the largest id it
// knows as a bound, so that a name written after the engine read them is
// never taken for a match.
//
// Without names (a caller without the search service: the command line)
// the store reads the names and tests them itself, by the same rules.
func (s *Store) nameCond(ctx context.Context, alias string, q kb.NameSearch, names *kb.NameMatches, args *Args) (cond string, none bool, err error) {
	if _, none := kb.CompileNameSearch(q); none {
		return "", true, nil
	}
	if names == nil {
		var l kb.NameList
		if _, err := s.FeedEntityNames(ctx, l.AddVendor, l.AddPackage); err != nil {
			return "", false, fmt.Errorf("match names: %w", err)
		}
		m, o := l.Match(q)
		names = &kb.NameMatches{Match: m, Others: o}
	}
	match, others := names.Match, names.Others
	if len(match) == 0 {
		return "", true, nil
	}
	if len(others) >= len(match) {
		return s.d.InIDs(alias+".id", args.Add(match)), false, nil
	}
	known := alias + ".id <= " + args.Add(max(match[len(match)-1], lastOr0(others)))
	if len(others) == 0 {
		return known, false, nil
	}
	return `NOT (` + s.d.InIDs(alias+".id", args.Add(others)) + `) AND ` + known, false, nil
}

// lastOr0 returns the last of ids, 0 for none.
func lastOr0(ids []int64) int64 {
	if len(ids) == 0 {
		return 0
	}
	return ids[len(ids)-1]
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
