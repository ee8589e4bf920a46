package alpha

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// maxLevel is the deepest level of a menu entry: a path holds four units,
// and a menu asked for an entry of the third level lists the entries of
// the fourth below it.
const maxLevel = 4

// entries returns the entry numbers of the menus a name with path p falls
// under, level by level (e[0] the first level's menu id, e[k] the number
// of the entry of level k+1 below e[k-1]), and how many levels it reaches:
// a name stops at "Other", or where its next unit has no entry below the
// last (a letter entry followed by a character of "Other", the end of the
// name).
func (p Path) entries() (e [maxLevel]int, n int) {
	next := 0
	u := p[next]
	t := topOf(u)
	e[0], n = t, 1
	k := topNode(t).kind
	for n < maxLevel {
		var c int
		switch k {
		case kindGroup: // refines the digit already read
			c, k = int(u)+1, kindDigit
		case kindLetter:
			next++
			if next == len(p) {
				return e, n
			}
			switch u = p[next]; {
			case u < unitA:
				c, k = 1, kindGroup
			case u < unitOther:
				c, k = 2+int(u-unitA), kindLetter
			default:
				return e, n
			}
		case kindDigit:
			next++
			if next == len(p) {
				return e, n
			}
			if u = p[next]; u >= unitA {
				return e, n
			}
			c = int(u) + 1
		default:
			return e, n
		}
		e[n] = c
		n++
	}
	return e, n
}

// An Entry is an entry of the alpha menus at any level, as the
// alphamenufacet filter names it by the characters the menus show: "A",
// "Ab", "A0-9", "A1", "0-9", "1", "12", "Other".
type Entry struct {
	path  [maxLevel]int // entry numbers from the first level down
	level int           // 1 to maxLevel
}

// ParseEntry reads the characters of a menu entry, letters in either
// case; spaces around them are ignored.
func ParseEntry(s string) (Entry, error) {
	v := strings.TrimSpace(s)
	for i := 0; i < len(v); i++ {
		if v[i] >= utf8.RuneSelf { // entries are ASCII: no Kelvin sign for K
			v = "\x00"
			break
		}
	}
	v = strings.ToLower(v)
	if strings.TrimSpace(s) == "" {
		return Entry{}, errors.New("alphamenufacet is empty: it must be an entry of the alpha menus, such as A, Ab, A0-9, 0-9 or Other.")
	}
	bad := func() (Entry, error) {
		return Entry{}, fmt.Errorf("alphamenufacet %s is not an alpha menu entry: entries are a letter A to Z, 0-9 or Other, "+
			"then below a letter another letter or a digit group (Ab, A0-9), below a digit group or digit a digit (A1, 12), "+
			"at most %d levels deep.", quote(s), maxLevel)
	}
	if v == "other" {
		return Entry{path: [maxLevel]int{topOther}, level: 1}, nil
	}
	var e Entry
	var k kind
	add := func(c int, next kind) bool {
		if e.level == maxLevel {
			return false
		}
		e.path[e.level], k = c, next
		e.level++
		return true
	}
	for v != "" {
		group := strings.HasPrefix(v, "0-9")
		r := v[0]
		switch {
		case e.level == 0 && group:
			add(topDigits, kindGroup)
			v = v[3:]
		case e.level == 0 && r >= '0' && r <= '9':
			add(topDigits, kindGroup)
			add(int(r-'0')+1, kindDigit)
			v = v[1:]
		case e.level == 0 && r >= 'a' && r <= 'z':
			add(2+int(r-'a'), kindLetter)
			v = v[1:]
		case k == kindLetter && group:
			if !add(1, kindGroup) {
				return bad()
			}
			v = v[3:]
		case k == kindLetter && r >= 'a' && r <= 'z':
			if !add(2+int(r-'a'), kindLetter) {
				return bad()
			}
			v = v[1:]
		case k == kindLetter && r >= '0' && r <= '9':
			if !add(1, kindGroup) || !add(int(r-'0')+1, kindDigit) {
				return bad()
			}
			v = v[1:]
		case (k == kindGroup || k == kindDigit) && r >= '0' && r <= '9' && !group:
			if !add(int(r-'0')+1, kindDigit) {
				return bad()
			}
			v = v[1:]
		default:
			return bad()
		}
	}
	// Only an entry as the menus spell it: "0-90" would read as "0".
	if !strings.EqualFold(e.String(), strings.TrimSpace(s)) {
		return bad()
	}
	return e, nil
}

// Level returns the entry's level, 1 for the first.
func (e Entry) Level() int { return e.level }

// TopIndex returns the index in TopEntries of the entry's first-level
// entry.
func (e Entry) TopIndex() int { return e.path[0] - 1 }

// Match reports whether a name with path p falls under the entry.
func (e Entry) Match(p Path) bool {
	got, n := p.entries()
	if n < e.level {
		return false
	}
	return slices.Equal(got[:e.level], e.path[:e.level])
}

// String returns the entry as the menus show it: "Ab", "A0-9", "12".
func (e Entry) String() string {
	n := topNode(e.path[0])
	for lvl := 1; lvl < e.level; lvl++ {
		n = n.child(e.path[lvl])
	}
	return n.chars
}

// Entry returns the entry of the given level (1 to 4) that a name with
// path p falls under; ok is false when the name reaches no entry that deep
// (it stops at Other, or at a character below the last entry).
func (p Path) Entry(level int) (e Entry, ok bool) {
	path, n := p.entries()
	if level < 1 || level > n {
		return Entry{}, false
	}
	return Entry{path: path, level: level}, true
}
