package kbart

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file keeps the columns of a file that are not among the 25 standard
// ones (bestppn, zdb_id, doi, collection, ...): Reader.ExtraColumns names
// them and Row.Extra holds their values.

const (
	// maxExtraColumns bounds the extra columns kept; the others are
	// dropped with a file note.
	maxExtraColumns = 64
	// maxExtraLen bounds an extra value, in characters; a longer one is
	// cut, with a repair note.
	maxExtraLen = 10000
	// extraSlab is how many rows' worth of Extra values are allocated at
	// once, so that a row does not cost an allocation of its own.
	extraSlab = 256
)

// ExtraColumns returns the names of the file's non-standard columns, in
// header order: the columns whose name is not a standard KBART name nor an
// accepted variant of one (see the package documentation). Row.Extra
// holds a row's values of these columns, in the same order. The names are
// trimmed and unquoted, with their case kept. A column without a name
// (empty names at the end of the header excepted) is called "column_N",
// N being its 1-based position in the header. Names are made unique, in
// any case: the second column called "doi" becomes "doi_2", the third
// "doi_3", skipping names the header already uses. At most 64 columns are
// kept; the others are dropped, with a file note. The result is nil when
// the file has none, and a new slice at each call.
func (r *Reader) ExtraColumns() []string { return slices.Clone(r.m.extraNames) }

// keepExtra names the extra columns at the given header positions (see
// ExtraColumns), records them in m and returns the file notes about them.
func (m *columnMap) keepExtra(raw []string, cols []int) []string {
	if len(cols) == 0 {
		return nil
	}
	var notes []string
	if len(cols) > maxExtraColumns {
		var dropped []string
		for _, i := range cols[maxExtraColumns:] {
			dropped = append(dropped, extraName(raw[i], i))
		}
		notes = append(notes, fmt.Sprintf("%d non-standard columns beyond the first %d dropped: %s",
			len(dropped), maxExtraColumns, listNames(dropped)))
		cols = cols[:maxExtraColumns]
	}
	used := make(map[string]bool, len(cols))
	for _, i := range cols {
		used[strings.ToLower(extraName(raw[i], i))] = true
	}
	taken := make(map[string]bool, len(cols))
	var unnamed []string
	for _, i := range cols {
		name := extraName(raw[i], i)
		if normalizeName(raw[i]) == "" {
			unnamed = append(unnamed, name)
		}
		if taken[strings.ToLower(name)] {
			base := name
			for k := 2; ; k++ {
				name = base + "_" + strconv.Itoa(k)
				if l := strings.ToLower(name); !taken[l] && !used[l] {
					break
				}
			}
		}
		taken[strings.ToLower(name)] = true
		m.extra[i] = len(m.extraNames)
		m.extraNames = append(m.extraNames, name)
	}
	notes = append(notes, "non-standard columns kept as extra columns: "+listNames(m.extraNames))
	if len(unnamed) > 0 {
		notes = append(notes, "columns without a name kept as extra columns: "+strings.Join(unnamed, ", "))
	}
	return notes
}

// extraName returns the name of the extra column at header position i:
// its header name trimmed and unquoted, or "column_N" when it has none.
func extraName(raw string, i int) string {
	s := trimValue(raw)
	if t, ok := unquoteCSV(s); ok {
		s = trimValue(t)
	}
	if s == "" {
		return "column_" + strconv.Itoa(i+1)
	}
	return s
}

// newExtra returns a row's Extra slice of n values, cut from a slab shared
// by the next rows.
func (r *Reader) newExtra(n int) []string {
	if len(r.extraSlab) < n {
		r.extraSlab = make([]string, n*extraSlab)
	}
	e := r.extraSlab[:n:n]
	r.extraSlab = r.extraSlab[n:]
	return e
}

// cutExtra cuts an extra value to maxExtraLen characters, reporting
// whether it did.
func cutExtra(v string) (string, bool) {
	if len(v) <= maxExtraLen || utf8.RuneCountInString(v) <= maxExtraLen {
		return v, false
	}
	n := 0
	for i := range v {
		if n == maxExtraLen {
			return trimValue(v[:i]), true
		}
		n++
	}
	return v, false
}
