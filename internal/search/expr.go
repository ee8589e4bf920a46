package search

import (
	"github.com/RoaringBitmap/roaring/v2"

	"github.com/kbserver/kbserver/internal/kb"
)

// nearDistance is the largest number of tokens between two words of a
// proximity search (the SQLite store's NEAR(…, 10)).
const nearDistance = 10

// termSet is what one word of a query matches in a field: a range of term
// ids (one term, or the terms of a word prefix) or, for a substring, a set
// of them; and the titles that hold any of those terms.
type termSet struct {
	lo, hi uint32          // term ids [lo, hi) when set is nil
	set    *roaring.Bitmap // term ids of a substring's terms; nil for a range
	post   *roaring.Bitmap // the titles holding one of the terms; read only
}

// has reports whether term id t is one of the set's terms.
func (s *termSet) has(t uint32) bool {
	if s.set != nil {
		return s.set.Contains(t)
	}
	return s.lo <= t && t < s.hi
}

// Expression operators.
const (
	opPhrase = iota // words at consecutive positions (one word: the word)
	opNear          // every word within nearDistance tokens of the others
	opAnd
	opOr
	opNot // the first operand but not the second
	opSet // a fixed set of titles (name, publisher and identifier matches)
)

// expr is a search's match over one field, as a tree.
type expr struct {
	op    int
	words []termSet       // opPhrase, opNear
	kids  []*expr         // opAnd, opOr (any number), opNot (two)
	set   *roaring.Bitmap // opSet; read only
}

// eval returns the titles e matches. within, when not nil, is a set the
// caller will intersect the answer with: titles outside it need no
// verification and may or may not be in the answer. The answer must not
// be modified (it may be a posting list).
func (e *expr) eval(f *field, within *roaring.Bitmap) *roaring.Bitmap {
	switch e.op {
	case opSet:
		return e.set
	case opPhrase, opNear:
		if len(e.words) == 1 {
			return e.words[0].post
		}
		cand := e.candidates(within)
		var buf []uint32
		if e.op == opPhrase {
			cand, exact := f.pairCandidates(e.words, cand)
			if exact {
				return cand
			}
			return filter(cand, f.perList(func(o uint32) bool {
				buf = f.tokens(o, buf)
				return phraseAt(buf, e.words)
			}))
		}
		// A field of at most nearDistance+2 tokens holds every word
		// within the window: only longer ones are read.
		short := roaring.And(cand, f.nearShort)
		long := filter(roaring.AndNot(cand, f.nearShort), f.perList(func(o uint32) bool {
			buf = f.tokens(o, buf)
			return near(buf, e.words, nearDistance)
		}))
		short.Or(long)
		return short
	case opAnd:
		var res *roaring.Bitmap
		for _, k := range e.kids {
			in := within
			if res != nil {
				in = res
			}
			r := k.eval(f, in)
			if res == nil {
				res = r
			} else {
				res = roaring.And(res, r)
			}
		}
		return res
	case opOr:
		bms := make([]*roaring.Bitmap, len(e.kids))
		for i, k := range e.kids {
			bms[i] = k.eval(f, within)
		}
		if len(bms) == 1 {
			return bms[0]
		}
		return roaring.FastOr(bms...)
	case opNot:
		l := e.kids[0].eval(f, within)
		in := l
		if within != nil {
			in = roaring.And(l, within)
		}
		return roaring.AndNot(in, e.kids[1].eval(f, in))
	}
	panic("search: unknown operator")
}

// candidates returns the titles holding every word of e (within within).
func (e *expr) candidates(within *roaring.Bitmap) *roaring.Bitmap {
	bms := make([]*roaring.Bitmap, 0, len(e.words)+1)
	for i := range e.words {
		bms = append(bms, e.words[i].post)
	}
	if within != nil {
		bms = append(bms, within)
	}
	return roaring.FastAnd(bms...)
}

// pairCandidates narrows the candidates of a phrase with the pair postings
// of its adjacent common words. exact is true when the result needs no
// verification: a phrase of two common words, which is its pair.
func (f *field) pairCandidates(words []termSet, cand *roaring.Bitmap) (out *roaring.Bitmap, exact bool) {
	out = cand
	pairsUsed := 0
	for i := 1; i < len(words); i++ {
		a, b := &words[i-1], &words[i]
		if a.set != nil || b.set != nil || a.hi != a.lo+1 || b.hi != b.lo+1 || !f.common.Contains(a.lo) || !f.common.Contains(b.lo) {
			continue
		}
		p := f.pairs[uint64(a.lo)<<32|uint64(b.lo)]
		if p == nil {
			return roaring.New(), true // no title holds the pair
		}
		out = roaring.And(out, p)
		pairsUsed++
	}
	return out, len(words) == 2 && pairsUsed == 1
}

// filter returns the members of bm for which keep is true.
func filter(bm *roaring.Bitmap, keep func(uint32) bool) *roaring.Bitmap {
	out := roaring.New()
	it := bm.Iterator()
	for it.HasNext() {
		if o := it.Next(); keep(o) {
			out.Add(o)
		}
	}
	return out
}

// phraseAt reports whether toks holds the words at consecutive positions.
func phraseAt(toks []uint32, words []termSet) bool {
	for i := 0; i+len(words) <= len(toks); i++ {
		ok := true
		for k := range words {
			if !words[k].has(toks[i+k]) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// near reports whether toks holds every word within a window in which at
// most dist tokens separate the first word from the last (FTS5's NEAR:
// the positions span at most dist+1; one token may serve two equal
// words).
func near(toks []uint32, words []termSet, dist int) bool {
	last := make([]int, len(words)) // the latest position of each word so far
	for i := range last {
		last[i] = -1
	}
	for p, t := range toks {
		for k := range words {
			if words[k].has(t) {
				last[k] = p
			}
		}
		lo := p
		for _, q := range last {
			if q < 0 {
				lo = -1
				break
			}
			lo = min(lo, q)
		}
		if lo >= 0 && p-lo <= dist+1 {
			return true
		}
	}
	return false
}

// advancedExpr turns a parsed advanced search into an expression: NOT
// binds tighter than AND, AND tighter than OR, each left to right (FTS5's
// precedence).
func advancedExpr(toks []kb.AdvancedToken, term func(t kb.AdvancedToken) *expr) *expr {
	p := &advParser{toks: toks, term: term}
	return p.or()
}

type advParser struct {
	toks []kb.AdvancedToken
	i    int
	term func(kb.AdvancedToken) *expr
}

func (p *advParser) peek(op string) bool { return p.i < len(p.toks) && p.toks[p.i].Op == op }

func (p *advParser) or() *expr {
	e := p.and()
	for p.peek("OR") {
		p.i++
		e = &expr{op: opOr, kids: []*expr{e, p.and()}}
	}
	return e
}

func (p *advParser) and() *expr {
	e := p.not()
	for p.peek("AND") {
		p.i++
		e = &expr{op: opAnd, kids: []*expr{e, p.not()}}
	}
	return e
}

func (p *advParser) not() *expr {
	e := p.primary()
	for p.peek("NOT") {
		p.i++
		e = &expr{op: opNot, kids: []*expr{e, p.primary()}}
	}
	return e
}

func (p *advParser) primary() *expr {
	if p.peek("(") {
		p.i++
		e := p.or()
		p.i++ // ")": kb.ParseAdvanced checked the balance
		return e
	}
	t := p.toks[p.i]
	p.i++
	return p.term(t)
}
