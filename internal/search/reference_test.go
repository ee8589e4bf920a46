package search

import (
	"context"
	"math"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/kbserver/kbserver/internal/kb"
)

// The slow reference of the property tests: every title as the store
// feeds it, each search tried on each title in turn with its semantics
// written plainly (docs/search-engine.md, "What it must answer"), with no
// posting list, term dictionary, trigram or pruning. Only the parse of an
// advanced search (kb.ParseAdvanced) and the field's words (kb.Words,
// kb.Fold) are shared with the index: they are the rules, not the
// algorithm under test.

// refField names a searched field's tokens in refTitle.toks.
const (
	refName = iota
	refPublisher
	refSubject
)

// refTitle is one title of the reference with its fields cut into folded
// words.
type refTitle struct {
	kb.IndexedTitle
	toks [3][]string
	pkgs map[int64]bool
}

// refKB is the reference's knowledge base: its titles in the store's name
// order and the owners of custom packages.
type refKB struct {
	titles []*refTitle
	owner  map[int64]string // package → owning customer ("" managed)
	total  [3]int           // tokens of each field over every title
}

// newRefKB reads the store's feed into a reference.
func newRefKB(ctx context.Context, feed kb.TitleFeed) (*refKB, error) {
	ref := &refKB{owner: map[int64]string{}}
	var order []int64
	byID := map[int64]*refTitle{}
	_, err := feed.FeedTitles(ctx, func(p kb.IndexedPackage) { ref.owner[p.ID] = p.CustomerID },
		func(id int64) { order = append(order, id) },
		func(t kb.IndexedTitle) {
			rt := &refTitle{IndexedTitle: t, pkgs: map[int64]bool{}}
			rt.toks[refName] = refWords(t.Name)
			rt.toks[refPublisher] = refWords(t.Publisher)
			for _, s := range t.Subjects {
				rt.toks[refSubject] = append(rt.toks[refSubject], refWords(s.Name)...)
			}
			for _, p := range t.Packages {
				rt.pkgs[p] = true
			}
			byID[t.ID] = rt
		})
	if err != nil {
		return nil, err
	}
	for _, id := range order {
		rt := byID[id]
		if rt == nil {
			continue // (deleted between the feed's reads)
		}
		if rt.SortName == "" {
			rt.SortName = kb.Fold(rt.Name)
		}
		ref.titles = append(ref.titles, rt)
		for f := range rt.toks {
			ref.total[f] += len(rt.toks[f])
		}
	}
	return ref, nil
}

// refWords returns a text's folded words.
func refWords(text string) []string {
	var out []string
	for _, w := range kb.Words(text) {
		if f := kb.Fold(w); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// refWord is one word of a search: which tokens it matches.
type refWord struct {
	w      string
	prefix bool // a word prefix
	substr bool // a substring of a word
}

// matches reports whether token tok is one the word matches.
func (w refWord) matches(tok string) bool {
	switch {
	case w.substr:
		return strings.Contains(tok, w.w)
	case w.prefix:
		return strings.HasPrefix(tok, w.w)
	}
	return tok == w.w
}

// refExpr is a search as a tree, tried on one title at a time.
type refExpr struct {
	op    int // the index's operators (opPhrase …)
	words []refWord
	kids  []*refExpr
	test  func(t *refTitle) bool // opSet
}

// holds reports whether the field toks of title t matches e.
func (e *refExpr) holds(t *refTitle, toks []string) bool {
	switch e.op {
	case opSet:
		return e.test(t)
	case opPhrase:
		for p := 0; p+len(e.words) <= len(toks); p++ {
			ok := true
			for i, w := range e.words {
				if !w.matches(toks[p+i]) {
					ok = false
					break
				}
			}
			if ok {
				return true
			}
		}
		return false
	case opNear:
		// Some window of nearDistance+2 positions holds every word.
		for s := range toks {
			ok := true
			for _, w := range e.words {
				found := false
				for p := s; p < len(toks) && p <= s+nearDistance+1; p++ {
					if w.matches(toks[p]) {
						found = true
						break
					}
				}
				if !found {
					ok = false
					break
				}
			}
			if ok {
				return true
			}
		}
		return false
	case opAnd:
		for _, k := range e.kids {
			if !k.holds(t, toks) {
				return false
			}
		}
		return true
	case opOr:
		for _, k := range e.kids {
			if k.holds(t, toks) {
				return true
			}
		}
		return false
	case opNot:
		return e.kids[0].holds(t, toks) && !e.kids[1].holds(t, toks)
	}
	panic("unknown operator")
}

// positive appends the words that count toward relevance: all but those
// under the right side of a NOT, in the order of the search.
func (e *refExpr) positive(out *[]refWord) {
	switch e.op {
	case opPhrase, opNear:
		*out = append(*out, e.words...)
	case opAnd, opOr:
		for _, k := range e.kids {
			k.positive(out)
		}
	case opNot:
		e.kids[0].positive(out)
	}
}

// refCompile turns q's search into a tree over one field; nil when it can
// match nothing.
func refCompile(q kb.TitleQuery) (e *refExpr, field int, err error) {
	search := strings.TrimSpace(q.Search)
	if q.Field == kb.FieldISXN {
		n, issn := kb.ISXNForms(search)
		if n == "" {
			return nil, 0, nil
		}
		prefix := q.Type == kb.SearchBeginsWith || q.Type == kb.SearchContains
		return &refExpr{op: opSet, test: func(t *refTitle) bool {
			for _, id := range t.Identifiers {
				for _, f := range []string{n, issn} {
					if id == f || prefix && strings.HasPrefix(id, f) {
						return true
					}
				}
			}
			return false
		}}, 0, nil
	}
	field = refName
	switch q.Field {
	case kb.FieldPublisher:
		field = refPublisher
	case kb.FieldSubject:
		field = refSubject
	}
	var toks []kb.AdvancedToken
	if q.Type == kb.SearchAdvanced {
		if toks, err = kb.ParseAdvanced(search); err != nil {
			return nil, 0, err
		}
	}
	ws := kb.Words(search)
	if len(ws) == 0 {
		return nil, 0, nil
	}
	phrase := func(ws []string, prefix bool) *refExpr {
		e := &refExpr{op: opPhrase}
		for i, w := range ws {
			e.words = append(e.words, refWord{w: kb.Fold(w), prefix: prefix && i == len(ws)-1})
		}
		return e
	}
	switch q.Type {
	case kb.SearchExactMatch, kb.SearchBeginsWith:
		prefix := q.Type == kb.SearchBeginsWith
		if q.Field == kb.FieldSubject {
			return phrase(ws, prefix), field, nil
		}
		f := kb.Fold(search)
		return &refExpr{op: opSet, test: func(t *refTitle) bool {
			s := t.SortName
			if q.Field == kb.FieldPublisher {
				s = kb.Fold(t.Publisher)
			}
			return s == f || prefix && strings.HasPrefix(s, f)
		}}, field, nil
	case kb.SearchAny:
		e := &refExpr{op: opOr}
		for _, w := range ws {
			e.kids = append(e.kids, phrase([]string{w}, false))
		}
		return e, field, nil
	case kb.SearchProximity:
		e := phrase(ws, false)
		if len(ws) > 1 {
			e.op = opNear
		}
		return e, field, nil
	case kb.SearchExactPhrase:
		return phrase(ws, false), field, nil
	case kb.SearchAdvanced:
		return refAdvanced(toks, phrase), field, nil
	}
	// Contains: a word of three or more characters as a substring of a
	// word (not in subjects), a shorter one as a word prefix.
	e = &refExpr{op: opAnd}
	for _, w := range ws {
		long := utf8.RuneCountInString(w) >= 3 && q.Field != kb.FieldSubject
		e.kids = append(e.kids, &refExpr{op: opPhrase, words: []refWord{{w: kb.Fold(w), prefix: !long, substr: long}}})
	}
	return e, field, nil
}

// refAdvanced builds an advanced search's tree by precedence climbing:
// OR over AND over NOT, each left to right, parentheses first.
func refAdvanced(toks []kb.AdvancedToken, phrase func([]string, bool) *refExpr) *refExpr {
	i := 0
	var level func(l int) *refExpr
	ops := []string{"OR", "AND", "NOT"}
	kinds := []int{opOr, opAnd, opNot}
	level = func(l int) *refExpr {
		if l == len(ops) {
			t := toks[i]
			i++
			if t.Op == "(" {
				e := level(0)
				i++ // ")"
				return e
			}
			return phrase(t.Words, t.Prefix)
		}
		e := level(l + 1)
		for i < len(toks) && toks[i].Op == ops[l] {
			i++
			e = &refExpr{op: kinds[l], kids: []*refExpr{e, level(l + 1)}}
		}
		return e
	}
	return level(0)
}

// refRanked reports whether the stores rank q's matches by relevance: the
// word searches, not name, publisher or identifier matches.
func refRanked(q kb.TitleQuery) bool {
	switch q.Field {
	case kb.FieldISXN:
		return false
	case kb.FieldSubject:
		return true
	}
	return q.Type != kb.SearchExactMatch && q.Type != kb.SearchBeginsWith
}

// refAnswer is the reference's answer to a title search: every match in
// the order asked, with its relevance.
type refAnswer struct {
	ids    []int64
	scores map[int64]float64 // relevance of every match, when ranked
}

// search answers q for customer custID, whose selected titles (or, with
// q.PackageID, the titles of that package whose resource it selected) are
// selected.
func (ref *refKB) search(custID string, q kb.TitleQuery, selected map[int64]bool) (refAnswer, error) {
	var e *refExpr
	field := 0
	if strings.TrimSpace(q.Search) != "" {
		if err := kb.CheckSearch("Search", q.Search); err != nil {
			return refAnswer{}, err
		}
		var err error
		if e, field, err = refCompile(q); err != nil {
			return refAnswer{}, err
		}
		if e == nil {
			return refAnswer{}, nil
		}
	}
	var allowed []int64 // q.PackageIDs the customer may see
	for _, id := range q.PackageIDs {
		if owner, ok := ref.owner[id]; ok && (owner == "" || owner == custID) {
			allowed = append(allowed, id)
		}
	}
	keep := func(t *refTitle) bool {
		switch {
		case t.CustomerID != "" && t.CustomerID != custID,
			q.PackageID != 0 && !t.pkgs[q.PackageID],
			q.Selection == kb.SelectionSelected && !selected[t.ID],
			q.Selection == kb.SelectionNotSelected && selected[t.ID],
			q.Selection == kb.SelectionOrderedThroughOperator,
			q.ResourceType != kb.ResourceAll && t.Type != q.ResourceType,
			len(q.PackageIDs) > 0 && !slices.ContainsFunc(allowed, func(p int64) bool { return t.pkgs[p] }):
			return false
		}
		return e == nil || e.holds(t, t.toks[field])
	}
	var ans refAnswer
	var matched []*refTitle
	for _, t := range ref.titles {
		if keep(t) {
			matched = append(matched, t)
			ans.ids = append(ans.ids, t.ID)
		}
	}
	if e == nil || !refRanked(q) || q.OrderBy == kb.OrderName {
		return ans, nil
	}
	ans.scores = ref.scores(e, field, matched)
	pos := map[int64]int{}
	for i, id := range ans.ids {
		pos[id] = i
	}
	slices.SortStableFunc(ans.ids, func(a, b int64) int {
		if sa, sb := ans.scores[a], ans.scores[b]; sa != sb {
			if sa > sb {
				return -1
			}
			return 1
		}
		return pos[a] - pos[b]
	})
	return ans, nil
}

// scores returns the BM25 relevance (k1 1.2, b 0.75) of each of the
// titles for e's positive words in field: a word's document frequency
// counts every title that holds it, the field's mean length is over
// every title.
func (ref *refKB) scores(e *refExpr, field int, titles []*refTitle) map[int64]float64 {
	var words []refWord
	e.positive(&words)
	n := len(ref.titles)
	idf := make([]float64, len(words))
	for i, w := range words {
		df := 0
		for _, t := range ref.titles {
			if slices.ContainsFunc(t.toks[field], w.matches) {
				df++
			}
		}
		idf[i] = math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
	}
	avg := max(1, float64(ref.total[field])/float64(max(1, n)))
	out := make(map[int64]float64, len(titles))
	for _, t := range titles {
		toks := t.toks[field]
		norm := 1.2 * (1 - 0.75 + 0.75*float64(len(toks))/avg)
		s := 0.0
		for i, w := range words {
			tf := 0
			for _, tok := range toks {
				if w.matches(tok) {
					tf++
				}
			}
			if tf > 0 {
				s += idf[i] * float64(tf) * (1.2 + 1) / (float64(tf) + norm)
			}
		}
		out[t.ID] = s
	}
	return out
}

// samePage reports whether got is the page of count titles from off of a
// relevance order: as many titles, none twice, each the reference's title
// at its place or a match whose relevance equals, within rounding, that
// title's (ties of equal scores computed in another order).
func (a refAnswer) samePage(got []int64, off, count int) bool {
	want := a.ids[min(off, len(a.ids)):]
	want = want[:min(len(want), max(count, 0))]
	if len(want) != len(got) {
		return false
	}
	seen := map[int64]bool{}
	for i := range got {
		if seen[got[i]] {
			return false
		}
		seen[got[i]] = true
		if got[i] == want[i] {
			continue
		}
		g, ok := a.scores[got[i]]
		if !ok || math.Abs(g-a.scores[want[i]]) > 1e-9*max(1, math.Abs(g)) {
			return false
		}
	}
	return true
}
