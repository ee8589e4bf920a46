package kbart

import (
	"fmt"
	"strings"
)

// This file finds the header line and maps its columns to fields.

// maxPreamble is how many non-blank lines may precede the header.
const maxPreamble = 20

// maxListedColumns bounds the column names listed in one file note.
const maxListedColumns = 10

// headerAliases maps variant column names to their fields. Exact standard
// names are listed in Header.
var headerAliases = map[string]Field{
	"coverage_notes":   Notes,            // KBART Phase I
	"mongraph_edition": MonographEdition, // a typo seen in real files
}

// standardIndex maps each standard column name to its field.
var standardIndex = func() map[string]Field {
	m := make(map[string]Field, NumFields)
	for f, name := range Header {
		m[name] = Field(f)
	}
	return m
}()

// columnMap says where each field is in a file's rows.
type columnMap struct {
	cols     []Field // field of each header column, or -1 when ignored
	rawWidth int     // number of header columns, trailing empty ones included
	width    int     // number of header columns without trailing empty ones
	lastStd  int     // index of the last column mapped to a field
	// owner is the header column of each field, or -1 when the file does
	// not have it. Further columns read as notes are in cols only.
	owner [NumFields]int
	// extra is the index in extraNames of each header column kept as an
	// extra column, or -1.
	extra      []int
	extraNames []string
	// nearPubType and nearURL are the fields near publication_type and
	// title_url, for mayBeShifted (see nearFields).
	nearPubType, nearURL []Field
}

// normalizeName returns the comparable form of a header name: trimmed,
// unquoted and lower case.
func normalizeName(s string) string {
	s = trimValue(s)
	if t, ok := unquoteCSV(s); ok {
		s = trimValue(t)
	}
	return strings.ToLower(s)
}

// lookupName returns the field of a normalised header name, and whether
// the name was a variant (Phase I name, typo, "#" prefix, trailing "_",
// spaces or nothing for underscores) rather than the standard name.
func lookupName(name string) (Field, bool, bool) {
	if f, ok := standardIndex[name]; ok {
		return f, false, true
	}
	v := strings.TrimRight(strings.TrimLeft(name, "#"), "_")
	v = strings.ReplaceAll(v, " ", "_")
	if f, ok := standardIndex[v]; ok {
		return f, true, true
	}
	if f, ok := headerAliases[v]; ok {
		return f, true, true
	}
	if f, ok := squashedIndex[squash(v)]; ok {
		return f, true, true
	}
	return -1, false, false
}

// squashedIndex maps each standard name without its underscores
// ("onlineidentifier") to its field.
var squashedIndex = func() map[string]Field {
	m := make(map[string]Field, NumFields)
	for f, name := range Header {
		m[squash(name)] = Field(f)
	}
	return m
}()

// squash removes everything but letters and digits from a name.
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			return r
		}
		return -1
	}, s)
}

// parseHeader maps the columns of a header line and returns file notes
// about it. It fails (wrapping ErrNotKBART) when there is no
// publication_title column.
func parseHeader(line string) (columnMap, []string, error) {
	raw := strings.Split(line, "\t")
	m := columnMap{cols: make([]Field, len(raw)), extra: make([]int, len(raw)), rawWidth: len(raw), lastStd: -1}
	names := make([]string, len(raw))
	for i, r := range raw {
		names[i] = normalizeName(r)
		m.cols[i], m.extra[i] = -1, -1
	}
	m.width = len(names)
	for m.width > 0 && names[m.width-1] == "" {
		m.width--
	}
	var notes []string
	if n := len(names) - m.width; n > 0 {
		what := "empty column names"
		if n == 1 {
			what = "empty column name"
		}
		notes = append(notes, fmt.Sprintf("%d %s at the end of the header ignored", n, what))
	}
	// Standard names claim their fields first, then variants. Every column
	// read as notes is kept (notes and the Phase I coverage_notes): their
	// values are joined.
	for f := range m.owner {
		m.owner[f] = -1
	}
	var extra []int
	var variants, dups []string
	joined := false
	for pass := 0; pass < 2; pass++ {
		for i := 0; i < m.width; i++ {
			name := names[i]
			f, variant, ok := lookupName(name)
			if pass == 0 && !ok {
				extra = append(extra, i)
			}
			if !ok || variant != (pass == 1) {
				continue
			}
			switch {
			case m.owner[f] < 0:
				m.owner[f] = i
			case f == Notes:
				joined = true
			default:
				dups = append(dups, fmt.Sprintf("%s (column %d, %q) is a duplicate of column %d: ignored", f, i+1, name, m.owner[f]+1))
				continue
			}
			m.cols[i] = f
			if variant {
				variants = append(variants, fmt.Sprintf("column %q read as %s", name, f))
			}
		}
	}
	if m.owner[PublicationTitle] < 0 {
		return m, nil, fmt.Errorf("%w: no publication_title column in the header line %s", ErrNotKBART, quoteShort(line))
	}
	for i, f := range m.cols {
		if f >= 0 {
			m.lastStd = max(m.lastStd, i)
		}
	}
	notes = append(notes, variants...)
	notes = append(notes, dups...)
	if joined {
		var cols []string
		for i, f := range m.cols {
			if f == Notes {
				cols = append(cols, fmt.Sprintf("%d (%q)", i+1, names[i]))
			}
		}
		notes = append(notes, fmt.Sprintf("columns %s and %s are read as notes: a row's values are joined with \"; \" when they differ",
			strings.Join(cols[:len(cols)-1], ", "), cols[len(cols)-1]))
	}
	notes = append(notes, m.keepExtra(raw, extra)...)
	m.nearPubType, m.nearURL = m.nearFields(PublicationType), m.nearFields(TitleURL)
	var missing []string
	phaseI := true
	for f := range NumFields {
		if m.owner[f] >= 0 {
			if int(f) >= phaseIFields {
				phaseI = false
			}
			continue
		}
		missing = append(missing, f.String())
	}
	switch {
	case phaseI:
		notes = append(notes, "KBART Phase I header: the Phase II columns publication_type to access_type are empty")
		if len(missing) > int(NumFields)-phaseIFields {
			notes = append(notes, "missing standard columns read as empty: "+listNames(missing[:len(missing)-(int(NumFields)-phaseIFields)]))
		}
	case len(missing) > 0:
		notes = append(notes, "missing standard columns read as empty: "+listNames(missing))
	}
	return m, notes, nil
}

// listNames joins names for a note, eliding all but the first few.
func listNames(names []string) string {
	if len(names) <= maxListedColumns {
		return strings.Join(names, ", ")
	}
	return strings.Join(names[:maxListedColumns], ", ") + fmt.Sprintf(" and %d more", len(names)-maxListedColumns)
}

// isHTMLStart reports whether a first line shows an HTML or XML document.
func isHTMLStart(line string) bool {
	s := strings.ToLower(trimValue(line))
	for _, p := range []string{"<!doctype", "<html", "<?xml", "<head", "<body"} {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}

// refuseLayout returns the ErrNotKBART error for a header line without a
// tab, naming the layout it seems to have.
func refuseLayout(line string) error {
	if strings.IndexByte(line, ',') >= 0 {
		return fmt.Errorf("%w: comma-separated (KBART files are tab-separated)", ErrNotKBART)
	}
	if strings.IndexByte(line, ';') >= 0 {
		return fmt.Errorf("%w: semicolon-separated (KBART files are tab-separated)", ErrNotKBART)
	}
	return fmt.Errorf("%w: not tab-separated (fixed-width or space-separated)", ErrNotKBART)
}
