package alpha

import (
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/collate"
)

// A unit is one significant character of a name as the menu sees it: a digit
// 0 to 9 (units 0 to 9), a basic Latin letter a to z (units 10 to 35),
// unitOther for any other letter or number, or unitEnd at the end of the
// name.
const (
	unitA     uint8 = 10
	unitOther uint8 = 36
	unitEnd   uint8 = 37
)

// The code of a rune says how the menu treats it: skip it (spaces,
// punctuation, symbols, marks), stop at "Other", one unit, or several units
// (expansions such as ß for ss or æ for ae) listed in the block's exp.
const (
	codeSkip  uint16 = 0
	codeOther uint16 = 1
	codeUnit  uint16 = 2               // codeUnit+u is the single unit u
	codeExp   uint16 = codeUnit + 36   // codeExp+i is block.exp[i]
	maxExp           = 4               // units kept of an expansion
	maxRune          = unicode.MaxRune // last rune of the tables
)

// asciiCode is the fast path: ASCII letters and digits are their own unit
// in every locale, every other ASCII character is skipped.
var asciiCode = func() (t [utf8.RuneSelf]uint16) {
	for b := range utf8.RuneSelf {
		switch {
		case b >= '0' && b <= '9':
			t[b] = codeUnit + uint16(b-'0')
		case b >= 'a' && b <= 'z':
			t[b] = codeUnit + uint16(unitA) + uint16(b-'a')
		case b >= 'A' && b <= 'Z':
			t[b] = codeUnit + uint16(unitA) + uint16(b-'A')
		}
	}
	return t
}()

// A block holds the codes of 256 consecutive runes. It is immutable once
// published.
type block struct {
	code [256]uint16
	exp  [][]uint8
}

// A plane holds the blocks of 65,536 runes, built when first needed.
type plane [256]atomic.Pointer[block]

// runeTable maps non-ASCII runes to their codes for one locale. Blocks are
// computed with the collator on first use and then read without locking.
type runeTable struct {
	planes [maxRune>>16 + 1]atomic.Pointer[plane]
}

// lookup returns the code of r and the block that holds it.
func (l *Locale) lookup(r rune) (uint16, *block) {
	if r < 0 || r > maxRune {
		r = utf8.RuneError
	}
	pp := &l.runes.planes[r>>16]
	p := pp.Load()
	if p == nil {
		p = new(plane)
		if !pp.CompareAndSwap(nil, p) {
			p = pp.Load()
		}
	}
	bp := &p[(r>>8)&0xff]
	b := bp.Load()
	if b == nil {
		b = l.buildBlock(r &^ 0xff)
		if !bp.CompareAndSwap(nil, b) {
			b = bp.Load()
		}
	}
	return b.code[r&0xff], b
}

// isSkip reports whether the menu skips r at the start of a name or between
// its significant characters.
func (l *Locale) isSkip(r rune) bool {
	if r < utf8.RuneSelf {
		return asciiCode[r] == codeSkip
	}
	c, _ := l.lookup(r)
	return c == codeSkip
}

// buildBlock computes the codes of the 256 runes from first.
func (l *Locale) buildBlock(first rune) *block {
	b := new(block)
	c := collate.New(l.classTag, collate.Loose)
	var buf collate.Buffer
	var enc [utf8.UTFMax]byte
	for i := range rune(256) {
		r := first + i
		if r < utf8.RuneSelf {
			b.code[i] = asciiCode[r]
			continue
		}
		if !utf8.ValidRune(r) || unicode.IsSpace(r) || unicode.IsPunct(r) ||
			unicode.IsSymbol(r) || unicode.IsControl(r) || unicode.IsMark(r) ||
			unicode.Is(unicode.Cf, r) {
			continue // codeSkip
		}
		buf.Reset()
		n := utf8.EncodeRune(enc[:], r)
		units := l.units(c.Key(&buf, enc[:n]))
		switch {
		case len(units) == 0:
			// Ignorable in collation, or a modifier letter such as ʻ
			// that does not collate as a Latin letter: skip it.
			if units == nil || unicode.Is(unicode.Lm, r) {
				continue
			}
			b.code[i] = codeOther
		case len(units) == 1:
			b.code[i] = codeUnit + uint16(units[0])
		default:
			b.code[i] = codeExp + uint16(len(b.exp))
			b.exp = append(b.exp, units)
		}
	}
	return b
}

// units converts the primary weights of a Loose collation key (which holds
// nothing else) into units. It returns nil when the key has no weight, an
// empty non-nil slice when the first weight is not that of a basic Latin
// letter or digit, and otherwise the units of the weights that are (at most
// maxExp).
func (l *Locale) units(key []byte) []uint8 {
	if len(key) == 0 {
		return nil
	}
	out := []uint8{}
	for first := true; len(key) >= 2 && len(out) < maxExp; first = false {
		var p uint32
		if key[0]&0x80 != 0 {
			if len(key) < 3 {
				break
			}
			p = uint32(key[0]&0x7f)<<16 | uint32(key[1])<<8 | uint32(key[2])
			key = key[3:]
		} else {
			p = uint32(key[0])<<8 | uint32(key[1])
			key = key[2:]
		}
		u, ok := l.primary[p]
		switch {
		case ok:
			out = append(out, u)
		case first:
			return []uint8{}
		}
	}
	return out
}

// A scanner reads the units of a name one at a time. It is reused between
// names, so reading does not allocate.
type scanner struct {
	l    *Locale
	s    string
	i    int
	pend [maxExp]uint8
	pi   int
	pn   int
}

func (sc *scanner) reset(s string) {
	sc.s, sc.i, sc.pi, sc.pn = s, 0, 0, 0
}

// next returns the next unit of the name, skipping spaces, punctuation and
// symbols; unitEnd at the end.
func (sc *scanner) next() uint8 {
	if sc.pi < sc.pn {
		u := sc.pend[sc.pi]
		sc.pi++
		return u
	}
	for sc.i < len(sc.s) {
		b := sc.s[sc.i]
		if b < utf8.RuneSelf {
			sc.i++
			if c := asciiCode[b]; c != codeSkip {
				return uint8(c - codeUnit)
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(sc.s[sc.i:])
		sc.i += size
		c, blk := sc.l.lookup(r)
		switch {
		case c == codeSkip:
			continue
		case c == codeOther:
			return unitOther
		case c < codeExp:
			return uint8(c - codeUnit)
		default:
			e := blk.exp[c-codeExp]
			sc.pn = copy(sc.pend[:], e[1:])
			sc.pi = 0
			return e[0]
		}
	}
	return unitEnd
}
