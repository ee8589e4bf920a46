package alpha

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/collate"
	"golang.org/x/text/language"
)

// A Locale holds the collation and the leading articles of one language.
// It is safe for concurrent use.
type Locale struct {
	tag      string
	classTag language.Tag // the tag without options that change digit weights
	articles []string     // lower-case articles followed by a space
	elided   []string     // lower-case articles followed directly by the rest
	primary  map[uint32]uint8
	ascii    *[utf8.RuneSelf][]byte // the key of each ASCII character, when keys of ASCII names may be built from them
	keyers   sync.Pool              // of *keyer
	runes    runeTable
}

// A keyer is a collator with its buffer; a collate.Collator is not safe for
// concurrent use, so each goroutine takes one from the pool.
type keyer struct {
	c   *collate.Collator
	buf collate.Buffer
}

// articlesOf lists the articles by base language.
var articlesOf = map[string]struct{ spaced, elided []string }{
	"en": {spaced: []string{"the", "a", "an"}},
	"fr": {spaced: []string{"le", "la", "les"}, elided: []string{"l'", "l\u2019"}},
	"de": {spaced: []string{"der", "die", "das"}},
}

// The caches map a localeid as given, and a canonical tag, to its Locale.
// They stop growing at maxCached entries, so that arbitrary tags sent by
// clients cannot exhaust memory; a tag beyond that is built on each call.
var (
	byID, byTag sync.Map
	cached      atomic.Int64
)

const maxCached = 1024

// ParseLocale returns the Locale of id, a BCP 47 language tag such as "en",
// "en-US", "fr-FR" or "de-DE"; an underscore may separate the subtags
// ("en_US"). Any well-formed tag is accepted; a language without its own
// collation sorts by the Unicode default. Locales are cached, so calling
// ParseLocale for every request is cheap.
func ParseLocale(id string) (*Locale, error) {
	if v, ok := byID.Load(id); ok {
		return v.(*Locale), nil
	}
	if strings.TrimSpace(id) == "" {
		return nil, errors.New("localeid is empty: it must be a language tag such as en-US, fr-FR or de-DE.")
	}
	t, err := language.Parse(id)
	if err != nil {
		return nil, fmt.Errorf("localeid %s is not a language tag such as en-US, fr-FR or de-DE.", quote(id))
	}
	canon := t.String()
	var l *Locale
	if v, ok := byTag.Load(canon); ok {
		l = v.(*Locale)
	} else {
		l = cache(&byTag, canon, newLocale(t))
	}
	return cache(&byID, id, l), nil
}

// cache stores l under key in m unless the caches are full, and returns the
// Locale stored under key.
func cache(m *sync.Map, key string, l *Locale) *Locale {
	if cached.Load() >= maxCached {
		return l
	}
	v, loaded := m.LoadOrStore(key, l)
	if !loaded {
		cached.Add(1)
	}
	return v.(*Locale)
}

// quote quotes s for an error message, shortened when it is long.
func quote(s string) string {
	const max = 40
	if utf8.RuneCountInString(s) <= max {
		return fmt.Sprintf("%q", s)
	}
	r := []rune(s)
	return fmt.Sprintf("%q…", string(r[:max]))
}

func newLocale(t language.Tag) *Locale {
	l := &Locale{tag: t.String(), classTag: classTag(t)}
	if b, conf := t.Base(); conf == language.Exact {
		a := articlesOf[b.String()]
		l.articles, l.elided = a.spaced, a.elided
	}
	l.keyers.New = func() any { return &keyer{c: collate.New(t, collate.Loose)} }

	// The primary weights of the digits and the basic Latin letters.
	c := collate.New(l.classTag, collate.Loose)
	var buf collate.Buffer
	l.primary = make(map[uint32]uint8, 36)
	for u := range unitOther {
		ch := byte('0' + u)
		if u >= unitA {
			ch = 'a' + u - unitA
		}
		buf.Reset()
		k := c.Key(&buf, []byte{ch})
		var p uint32
		switch {
		case len(k) >= 3 && k[0]&0x80 != 0:
			p = uint32(k[0]&0x7f)<<16 | uint32(k[1])<<8 | uint32(k[2])
		case len(k) >= 2:
			p = uint32(k[0])<<8 | uint32(k[1])
		default:
			continue
		}
		if _, dup := l.primary[p]; !dup {
			l.primary[p] = u
		}
	}
	l.ascii = asciiKeys(t)
	return l
}

// fastKeys lists the languages whose collation has no contraction of ASCII
// characters (such as Czech ch or Danish aa), so that the key of an ASCII
// name is the keys of its characters one after the other.
var fastKeys = map[string]bool{
	"und": true, "en": true, "fr": true, "de": true, "es": true, "it": true,
	"pt": true, "nl": true, "sv": true, "fi": true, "pl": true, "ro": true,
}

// asciiByBase caches the result of asciiKeys by base language: in the
// languages of fastKeys, the region does not change the collation of ASCII
// characters.
var asciiByBase sync.Map

// asciiKeys returns the keys of the ASCII characters under the collation of
// t, or nil when the key of an ASCII name cannot be built from them: when
// the language may have contractions of ASCII characters, when the tag is
// not in Latin script or has collation options or variants, or when any pair
// of ASCII characters collates differently from its two characters one
// after the other.
func asciiKeys(t language.Tag) *[utf8.RuneSelf][]byte {
	base, conf := t.Base()
	if conf != language.Exact && t != language.Und || !fastKeys[base.String()] {
		return nil
	}
	if s, _ := t.Script(); s.String() != "Latn" || len(t.Variants()) > 0 || len(t.Extensions()) > 0 {
		return nil
	}
	if v, ok := asciiByBase.Load(base.String()); ok {
		return v.(*[utf8.RuneSelf][]byte)
	}
	c := collate.New(t, collate.Loose)
	var buf collate.Buffer
	keys := new([utf8.RuneSelf][]byte)
	for b := range utf8.RuneSelf {
		buf.Reset()
		keys[b] = bytes.Clone(c.Key(&buf, []byte{byte(b)}))
	}
	var pair [2]byte
	var want []byte
pairs:
	for x := range utf8.RuneSelf {
		for y := range utf8.RuneSelf {
			pair = [2]byte{byte(x), byte(y)}
			buf.Reset()
			want = append(append(want[:0], keys[x]...), keys[y]...)
			if !bytes.Equal(c.Key(&buf, pair[:]), want) {
				keys = nil
				break pairs
			}
		}
	}
	asciiByBase.Store(base.String(), keys)
	return keys
}

// classTag returns t with only the parts that choose a collation table:
// options such as numeric ordering (-u-kn-true) change the weights of digits
// and would hide them from the menu.
func classTag(t language.Tag) language.Tag {
	base, script, region := t.Raw()
	c, err := language.Compose(base, script, region)
	if err != nil {
		return t
	}
	for _, k := range []string{"co", "va"} {
		if v := t.TypeForKey(k); v != "" {
			if c2, err := c.SetTypeForKey(k, v); err == nil {
				c = c2
			}
		}
	}
	return c
}

// Tag returns the canonical form of the locale's language tag, such as
// "en-US".
func (l *Locale) Tag() string { return l.tag }

// Key returns the collation sort key of name with its leading article and
// the spaces and punctuation before its first letter or digit removed.
// Keys compare with bytes.Compare; names that differ only in case or accents
// have equal keys. Key is safe for concurrent use.
func (l *Locale) Key(name string) []byte {
	s := l.strip(name)
	if l.ascii != nil {
		if key, ok := l.asciiKey(s); ok {
			return key
		}
	}
	k := l.keyers.Get().(*keyer)
	k.buf.Reset()
	key := bytes.Clone(k.c.KeyFromString(&k.buf, s))
	if key == nil {
		key = []byte{}
	}
	l.keyers.Put(k)
	return key
}

// asciiKey returns the key of s built from the keys of its characters, and
// false when s is not ASCII.
func (l *Locale) asciiKey(s string) ([]byte, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return nil, false
		}
	}
	key := make([]byte, 0, 2*len(s))
	for i := 0; i < len(s); i++ {
		key = append(key, l.ascii[s[i]]...)
	}
	return key, true
}

// Top returns the first-level menu entry of name: "0-9", a letter "A" to
// "Z", or "Other".
func (l *Locale) Top(name string) string {
	sc := scanner{l: l}
	sc.reset(l.strip(name))
	return topNode(topOf(sc.next())).chars
}

// strip removes from name the spaces, punctuation and symbols at its start
// and then the locale's leading article, when something follows it.
func (l *Locale) strip(name string) string {
	s := l.skipLeading(name)
	for _, a := range l.articles {
		if len(s) <= len(a) || !hasPrefixFold(s, a) {
			continue
		}
		r, size := utf8.DecodeRuneInString(s[len(a):])
		if !unicode.IsSpace(r) {
			continue
		}
		if rest := l.skipLeading(s[len(a)+size:]); rest != "" {
			return rest
		}
	}
	for _, a := range l.elided {
		if !hasPrefixFold(s, a) {
			continue
		}
		if rest := l.skipLeading(s[len(a):]); rest != "" {
			return rest
		}
	}
	return s
}

// skipLeading removes the spaces, punctuation and symbols at the start of s.
func (l *Locale) skipLeading(s string) string {
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if asciiCode[b] != codeSkip {
				return s[i:]
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !l.isSkip(r) {
			return s[i:]
		}
		i += size
	}
	return ""
}

// hasPrefixFold reports whether s starts with prefix, a lower-case article,
// ignoring the case of its ASCII letters.
func hasPrefixFold(s, prefix string) bool {
	if len(s) < len(prefix) {
		return false
	}
	for i := 0; i < len(prefix); i++ {
		c := s[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != prefix[i] {
			return false
		}
	}
	return true
}
