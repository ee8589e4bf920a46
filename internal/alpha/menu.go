package alpha

import (
	"fmt"
	"strconv"
)

// An Item is one entry of an alpha browser menu.
type Item struct {
	// MenuID identifies the entry, such as 2 for "A" or 203 for "Ab".
	MenuID int
	// Characters is the entry as shown, such as "A", "Ab", "A0-9" or "Other".
	Characters string
	// Order is the 1-based display order of the entry within its list.
	Order int
	// Count is the number of titles under the entry.
	Count int
}

// A Result holds the four positions of an alpha browser menu: position 0
// lists the first level, positions 1 to 3 the entries below the menu id's
// ancestors of the first and second level and below the menu id itself
// (see the package documentation). An empty position is an empty slice.
type Result [4][]Item

// The kinds of menu entries, which decide the entries below them.
type kind uint8

const (
	kindNone   kind = iota // "Other": nothing below
	kindLetter             // "A", "Ab": a digit group and a to z below
	kindGroup              // "0-9", "A0-9": its ten digits below
	kindDigit              // "1", "A1": the ten digits below
)

// A node is one menu entry.
type node struct {
	id    int
	chars string // as shown
	base  string // the characters the entries below extend
	kind  kind
}

const (
	topDigits = 1  // menu id of "0-9"
	topOther  = 28 // menu id of "Other"
)

// topNode returns the first-level entry with menu id t (1 to 28).
func topNode(t int) node {
	switch {
	case t == topDigits:
		return node{id: t, chars: "0-9", kind: kindGroup}
	case t < topOther:
		s := string(rune('A' + t - 2))
		return node{id: t, chars: s, base: s, kind: kindLetter}
	default:
		return node{id: topOther, chars: "Other", kind: kindNone}
	}
}

// topOf returns the menu id of the first-level entry of a name whose first
// unit is u.
func topOf(u uint8) int {
	switch {
	case u < unitA:
		return topDigits
	case u < unitOther:
		return 2 + int(u-unitA)
	default:
		return topOther
	}
}

// size returns the number of entries below n.
func (n node) size() int {
	switch n.kind {
	case kindLetter:
		return 27
	case kindGroup, kindDigit:
		return 10
	default:
		return 0
	}
}

// child returns the entry number c (1 to n.size()) below n.
func (n node) child(c int) node {
	id := n.id*100 + c
	if n.kind == kindLetter {
		if c == 1 {
			return node{id: id, chars: n.base + "0-9", base: n.base, kind: kindGroup}
		}
		s := n.base + string(rune('a'+c-2))
		return node{id: id, chars: s, base: s, kind: kindLetter}
	}
	s := n.base + string(rune('0'+c-1))
	return node{id: id, chars: s, base: s, kind: kindDigit}
}

// items lists the entries below n with their counts (counts[c] for entry c).
func (n node) items(counts *[topOther + 1]int) []Item {
	items := make([]Item, n.size())
	for i := range items {
		ch := n.child(i + 1)
		items[i] = Item{MenuID: ch.id, Characters: ch.chars, Order: i + 1, Count: counts[i+1]}
	}
	return items
}

// A Menu counts the titles of a collection for the alpha browser menu of
// one menu id. Make one with [Locale.NewMenu]. It is not safe for
// concurrent use.
type Menu struct {
	level  int                  // level of the menu id, 1 to 3
	path   [3]int               // entry numbers from the first level down to the menu id
	counts [4][topOther + 1]int // counts[0][t], counts[k][c]; index 0 unused
	sc     scanner
}

// menuIDHelp lists the valid menu ids for error messages.
const menuIDHelp = "the first level is 1 (0-9), 2 (A) to 27 (Z) and 28 (Other); " +
	"an entry below adds its number to its parent's id times 100, such as 203 (Ab) and 20302 (Aba)"

// NewMenu returns an empty Menu for menuID, the id of an entry of the
// first, second or third level.
func (l *Locale) NewMenu(menuID int) (*Menu, error) {
	m := &Menu{sc: scanner{l: l}}
	var path [3]int
	var level int
	switch {
	case menuID <= 0:
		return nil, fmt.Errorf("menuid %d is not an alpha menu entry: it must be a positive number; %s.", menuID, menuIDHelp)
	case menuID <= topOther:
		path, level = [3]int{menuID}, 1
	case menuID < 100:
		return nil, fmt.Errorf("menuid %d is not an alpha menu entry: %s.", menuID, menuIDHelp)
	case menuID < 100_00:
		path, level = [3]int{menuID / 100, menuID % 100}, 2
	case menuID < 100_00_00:
		path, level = [3]int{menuID / 100_00, menuID / 100 % 100, menuID % 100}, 3
	default:
		return nil, fmt.Errorf("menuid %d is not an alpha menu entry: the menu can be asked for an entry of the first three levels; %s.", menuID, menuIDHelp)
	}
	if path[0] > topOther {
		return nil, fmt.Errorf("menuid %d is not an alpha menu entry: %s.", menuID, menuIDHelp)
	}
	n := topNode(path[0])
	for _, c := range path[1:level] {
		switch size := n.size(); {
		case size == 0:
			return nil, fmt.Errorf("menuid %d is not an alpha menu entry: %d (%s) has no entries below it.", menuID, n.id, n.chars)
		case c < 1 || c > size:
			return nil, fmt.Errorf("menuid %d is not an alpha menu entry: the entries below %d (%s) are %d to %d.",
				menuID, n.id, n.chars, n.id*100+1, n.id*100+size)
		}
		n = n.child(c)
	}
	m.path, m.level = path, level
	return m, nil
}

// Add counts the title name. It does not allocate once the locale has seen
// the characters of the name before.
func (m *Menu) Add(name string) {
	m.AddPath(m.sc.path(name))
}

// Locale returns the locale the menu counts names under.
func (m *Menu) Locale() *Locale { return m.sc.l }

// A Path is what places a name in the first three levels of the alpha
// menus: the first four units of the name as the menus read it.
type Path [4]uint8

// Path returns the path of name.
func (l *Locale) Path(name string) Path {
	sc := scanner{l: l}
	return sc.path(name)
}

// path reads the path of name.
func (sc *scanner) path(name string) Path {
	sc.reset(sc.l.strip(name))
	var p Path
	for i := range p {
		p[i] = sc.next()
	}
	return p
}

// TopIndex returns the index in TopEntries of the path's first-level
// entry.
func (p Path) TopIndex() int { return topOf(p[0]) - 1 }

// AddPath counts a title whose name has path p, as Add counts its name.
func (m *Menu) AddPath(p Path) {
	e, n := p.entries()
	m.counts[0][e[0]]++
	for lvl := 1; lvl <= m.level && lvl < n; lvl++ {
		if e[lvl-1] != m.path[lvl-1] {
			return
		}
		m.counts[lvl][e[lvl]]++
	}
}

// Result returns the menu with the counts of the titles added so far.
func (m *Menu) Result() Result {
	var r Result
	r[0] = make([]Item, topOther)
	for t := 1; t <= topOther; t++ {
		r[0][t-1] = Item{MenuID: t, Characters: topNode(t).chars, Order: t, Count: m.counts[0][t]}
	}
	n := topNode(m.path[0])
	r[1] = n.items(&m.counts[1])
	for lvl := 2; lvl <= 3; lvl++ {
		if lvl > m.level {
			r[lvl] = []Item{}
			continue
		}
		n = n.child(m.path[lvl-1])
		r[lvl] = n.items(&m.counts[lvl])
	}
	return r
}

// ParseMenuID parses s, the menuid query parameter: a positive decimal
// number. It does not check that the number is a menu entry; NewMenu does.
func ParseMenuID(s string) (int, error) {
	ok := len(s) > 0 && len(s) <= 9
	for i := 0; ok && i < len(s); i++ {
		ok = s[i] >= '0' && s[i] <= '9'
	}
	if ok {
		if n, err := strconv.Atoi(s); err == nil && n > 0 {
			return n, nil
		}
	}
	return 0, fmt.Errorf("Parameter menuid must be a positive number such as 1 (0-9), 2 (A) … 28 (Other) or 203 (Ab) (got %s).", quote(s))
}

// topEntries lists the first-level entries in display order.
var topEntries = func() (e [topOther]string) {
	for t := 1; t <= topOther; t++ {
		e[t-1] = topNode(t).chars
	}
	return e
}()

// TopEntries returns the characters of the 28 first-level entries in
// display order: "0-9", "A" to "Z" and "Other".
func TopEntries() []string {
	return append([]string(nil), topEntries[:]...)
}
