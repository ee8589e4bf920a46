package kbsql

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kbserver/kbserver/internal/kb"
)

// DecodeTitleLists sets the subjects and contributors of t from their
// stored JSON [[type,name],...].
func DecodeTitleLists(t *kb.Title, subjects, contributors string) error {
	var err error
	if t.Subjects, err = DecodeSubjects(t.ID, subjects); err != nil {
		return err
	}
	ps, err := DecodePairs(contributors)
	if err != nil {
		return fmt.Errorf("title %d contributors: %w", t.ID, err)
	}
	t.Contributors = make([]kb.Contributor, len(ps))
	for i, p := range ps {
		t.Contributors[i] = kb.Contributor{Type: p[0], Name: p[1]}
	}
	return nil
}

// DecodeSubjects reads title id's subjects stored as JSON [[type,name],...].
func DecodeSubjects(id int64, s string) ([]kb.Subject, error) {
	ps, err := DecodePairs(s)
	if err != nil {
		return nil, fmt.Errorf("title %d subjects: %w", id, err)
	}
	subjects := make([]kb.Subject, len(ps))
	for i, p := range ps {
		subjects[i] = kb.Subject{Type: p[0], Name: p[1]}
	}
	return subjects, nil
}

// DecodeCoverage reads coverage stored as JSON [[begin,end],...]; "" is none.
func DecodeCoverage(s string) ([]kb.Coverage, error) {
	vs, err := decodeRows(s, 2)
	cs := make([]kb.Coverage, len(vs)/2)
	for i := range cs {
		cs[i] = kb.Coverage{Begin: vs[2*i], End: vs[2*i+1]}
	}
	return cs, err
}

// DecodePairs reads a JSON array of string pairs, [[a,b],...]; "" is none.
func DecodePairs(s string) ([][2]string, error) {
	vs, err := decodeRows(s, 2)
	if err != nil || vs == nil {
		return nil, err
	}
	ps := make([][2]string, len(vs)/2)
	for i := range ps {
		ps[i] = [2]string{vs[2*i], vs[2*i+1]}
	}
	return ps, nil
}

// DecodeIdentifiers reads identifiers stored as a JSON array of [type,
// subtype, value] string triples.
func DecodeIdentifiers(s string) ([]kb.Identifier, error) {
	vs, err := decodeRows(s, 3)
	if err != nil {
		return nil, err
	}
	ids := make([]kb.Identifier, len(vs)/3)
	for i := range ids {
		typ, err1 := strconv.Atoi(vs[3*i])
		sub, err2 := strconv.Atoi(vs[3*i+1])
		if err := errors.Join(err1, err2); err != nil {
			return nil, err
		}
		ids[i] = kb.Identifier{ID: vs[3*i+2], Source: "ResourceIdentifier",
			Type: kb.IdentifierType(typ), Subtype: kb.IdentifierSubtype(sub)}
	}
	return ids, nil
}

// decodeRows reads s, a JSON array of arrays of strings ([["a","b"],...]),
// as encoding/json decodes it into [][width]string, but flattened: the
// values of the i-th array are at [i*width, (i+1)*width). "" is none. The
// arrays the stores write (no white space, no escapes in strings) are read
// without encoding/json, whose reflection costs more than the rest of
// reading a title; anything else goes through encoding/json.
func decodeRows(s string, width int) ([]string, error) {
	if s == "" {
		return nil, nil
	}
	if vs, ok := scanRows(s, width); ok {
		return vs, nil
	}
	var rows [][]string
	if err := json.Unmarshal([]byte(s), &rows); err != nil {
		return nil, err
	}
	vs := make([]string, len(rows)*width)
	for i, r := range rows {
		copy(vs[i*width:(i+1)*width], r)
	}
	return vs, nil
}

// DecodeUserDefined reads the user-defined fields stored as a JSON array
// of strings into udf, as encoding/json decodes it; "" is none.
func DecodeUserDefined(s string, udf *[5]string) error {
	if s == "" {
		return nil
	}
	c := jsonCursor{s: s}
	var vs [5]string
	ok := c.skip('[')
	for n := 0; ok && !c.skip(']'); n++ {
		if n > 0 && !c.skip(',') {
			ok = false
			break
		}
		var v string
		v, ok = c.str()
		if n < len(vs) {
			vs[n] = v
		}
	}
	if ok && c.end() && utf8.ValidString(s) {
		*udf = vs
		return nil
	}
	return json.Unmarshal([]byte(s), udf)
}

// scanRows is the fast path of decodeRows: ok is false when s is not an
// array of arrays of width strings without white space or escapes, or not
// valid UTF-8 (which encoding/json would replace).
func scanRows(s string, width int) (vs []string, ok bool) {
	if !utf8.ValidString(s) {
		return nil, false
	}
	c := jsonCursor{s: s}
	if !c.skip('[') {
		return nil, false
	}
	vs = make([]string, 0, width*strings.Count(s, "],["))
	if c.skip(']') {
		return vs, c.end()
	}
	for {
		if !c.skip('[') {
			return nil, false
		}
		for k := range width {
			if k > 0 && !c.skip(',') {
				return nil, false
			}
			v, ok := c.str()
			if !ok {
				return nil, false
			}
			vs = append(vs, v)
		}
		if !c.skip(']') {
			return nil, false
		}
		if c.skip(']') {
			return vs, c.end()
		}
		if !c.skip(',') {
			return nil, false
		}
	}
}

// jsonCursor reads the compact JSON the stores write, a byte at a time.
type jsonCursor struct {
	s string
	i int
}

// skip consumes b if it is the next byte.
func (c *jsonCursor) skip(b byte) bool {
	if c.i < len(c.s) && c.s[c.i] == b {
		c.i++
		return true
	}
	return false
}

// end reports whether all of s has been read.
func (c *jsonCursor) end() bool { return c.i == len(c.s) }

// str consumes a string without escapes or control characters and returns
// its contents, a substring of s.
func (c *jsonCursor) str() (string, bool) {
	if !c.skip('"') {
		return "", false
	}
	start := c.i
	for ; c.i < len(c.s); c.i++ {
		switch b := c.s[c.i]; {
		case b == '"':
			c.i++
			return c.s[start : c.i-1], true
		case b < 0x20 || b == '\\':
			return "", false
		}
	}
	return "", false
}
