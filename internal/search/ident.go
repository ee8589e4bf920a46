package search

import (
	"bytes"
	"encoding/binary"
	"sort"
)

// identList holds the titles' identifiers in their matching form, sorted
// by that form and then by ordinal, front-coded: each block of identBlock
// identifiers starts with one written whole, and every other one is
// written as the length of the prefix it shares with the one before and
// the rest. Sorted identifiers share long prefixes (ISBNs begin alike), so
// this keeps them in about half the bytes of a string and an offset
// each; a look-up binary-searches the blocks' first identifiers and reads
// on from there.
type identList struct {
	text  []byte   // the blocks, one after the other
	heads []uint32 // by block: where it starts in text
	ords  []uint32 // by identifier: its title's ordinal
}

// identBlock is the number of identifiers in a block.
const identBlock = 16

// newIdentList packs identifiers sorted by norm, then ordinal.
func newIdentList(sorted []ident) identList {
	l := identList{ords: make([]uint32, len(sorted)), heads: make([]uint32, 0, (len(sorted)+identBlock-1)/identBlock)}
	prev := ""
	for i, id := range sorted {
		shared := 0
		if i%identBlock == 0 {
			l.heads = append(l.heads, uint32(len(l.text)))
		} else {
			for shared < len(prev) && shared < len(id.norm) && prev[shared] == id.norm[shared] {
				shared++
			}
		}
		l.text = binary.AppendUvarint(l.text, uint64(shared))
		l.text = binary.AppendUvarint(l.text, uint64(len(id.norm)-shared))
		l.text = append(l.text, id.norm[shared:]...)
		l.ords[i] = id.ord
		prev = id.norm
	}
	return l
}

// next decodes the identifier at text[at:] into buf, which holds the one
// before it, and returns it and where the next one starts.
func (l *identList) next(at uint32, buf []byte) ([]byte, uint32) {
	shared, n := binary.Uvarint(l.text[at:])
	at += uint32(n)
	size, n := binary.Uvarint(l.text[at:])
	at += uint32(n)
	buf = append(buf[:shared], l.text[at:at+uint32(size)]...)
	return buf, at + uint32(size)
}

// addRange adds to out the ordinals of the titles with an identifier
// equal to s, or beginning with it when prefix is set.
func (l *identList) addRange(out interface{ Add(uint32) }, s string, prefix bool) {
	// The first block whose head is s or after; the one before it may
	// hold identifiers equal to s too.
	q := []byte(s)
	buf := make([]byte, 0, 32)
	b := sort.Search(len(l.heads), func(b int) bool {
		buf, _ = l.next(l.heads[b], buf)
		return bytes.Compare(buf, q) >= 0
	})
	if b > 0 {
		b--
	}
	var at uint32
	for i := b * identBlock; i < len(l.ords); i++ {
		if i%identBlock == 0 {
			at = l.heads[i/identBlock]
		}
		buf, at = l.next(at, buf)
		switch c := bytes.Compare(buf, q); {
		case c < 0:
		case c == 0 || prefix && bytes.HasPrefix(buf, q):
			out.Add(l.ords[i])
		default:
			return
		}
	}
}
