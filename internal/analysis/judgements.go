package analysis

import (
	"fmt"
	"maps"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// judgements keeps kb.CoveredBy's judgements of classes on one day: of a
// class by one other (or by none: noClass), by two others, and by more.
// The dictionary's are read by requests without a lock and never
// changed: a request's new judgements replace them with a copy that has
// them too (remember).
type judgements struct {
	day   int64 // days since 1970, UTC
	one   map[uint64]bool
	two   map[[3]uint32]bool
	other map[string]bool
}

// keptJudgements bounds a dictionary's judgements.
const keptJudgements = 1 << 20

func newJudgements(day int64) *judgements {
	return &judgements{day: day, one: map[uint64]bool{}, two: map[[3]uint32]bool{}, other: map[string]bool{}}
}

func (j *judgements) len() int { return len(j.one) + len(j.two) + len(j.other) }

// coveredBy returns kb.CoveredBy of the coverage of class mine by those
// of theirs (ascending, without repeats; none, or noClass alone, for no
// other coverage), as judged before or judged now.
func (v *coverageView) coveredBy(mine uint32, theirs []uint32) bool {
	judge := func() bool { return v.judge(mine, theirs) }
	switch len(theirs) {
	case 0, 1:
		th := noClass
		if len(theirs) == 1 {
			th = theirs[0]
		}
		return judged(v.judged.one, v.fresh.one, uint64(mine)<<32|uint64(th), judge)
	case 2:
		return judged(v.judged.two, v.fresh.two, [3]uint32{mine, theirs[0], theirs[1]}, judge)
	}
	return judged(v.judged.other, v.fresh.other, fmt.Sprint(mine, theirs), judge)
}

// judged returns the judgement under k in kept or fresh, or judges it now
// and keeps it in fresh.
func judged[K comparable](kept, fresh map[K]bool, k K, judge func() bool) bool {
	if c, ok := kept[k]; ok {
		return c
	}
	if c, ok := fresh[k]; ok {
		return c
	}
	c := judge()
	fresh[k] = c
	return c
}

// judge returns kb.CoveredBy of the classes' coverage, today.
func (v *coverageView) judge(mine uint32, theirs []uint32) bool {
	hcs := make([]kb.HeldCoverage, 0, len(theirs))
	for _, c := range theirs {
		if c != noClass {
			hcs = append(hcs, v.coverage(c))
		}
	}
	return kb.CoveredBy(v.coverage(mine), hcs, time.Unix(v.fresh.day*86400, 0).UTC())
}

// remember keeps the view's new judgements with its dictionary's, while
// that dictionary and day are current and there are fewer than
// keptJudgements; a few new ones among many are not worth a copy.
func (c *coverages) remember(v *coverageView) {
	if v.fresh.len() == 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	j := c.dict.judged
	if c.dict != v.dict || j == nil || j.day != v.fresh.day || j.len()+v.fresh.len() > keptJudgements {
		return
	}
	if j.len() > 1<<16 && v.fresh.len() < j.len()/16 {
		return // a copy for a few: judge them again next time instead
	}
	n := &judgements{day: j.day, one: maps.Clone(j.one), two: maps.Clone(j.two), other: maps.Clone(j.other)}
	maps.Copy(n.one, v.fresh.one)
	maps.Copy(n.two, v.fresh.two)
	maps.Copy(n.other, v.fresh.other)
	c.dict.judged = n
}
