package kbart

import (
	"fmt"
	"strconv"
	"strings"
)

// This file finds rows whose values do not line up with the header. Two
// shapes are repaired, because the fix is certain: an extra empty field at
// the start of the row (Portico), and a tab inside a CSV-quoted value,
// which splits it in two fields. Any other shift is found by the values
// that sit in the wrong column and the row is rejected: a program cannot
// tell where the stray or missing fields are.

// maxShift bounds the shifts detectShift looks for, in columns.
const maxShift = 3

// isShifted reports whether a row has one extra, empty, leading field that
// pushed every value one column to the right (seen in Portico files): the
// row is one field longer than the header and the field that lands under
// publication_title is empty while the next one is not an identifier.
func (r *Reader) isShifted(fields []string) bool {
	n := len(fields)
	if n != r.m.rawWidth+1 && n != r.m.width+1 {
		return false
	}
	if trimValue(fields[0]) != "" || r.m.cols[0] != PublicationTitle {
		return false
	}
	next := trimValue(fields[1])
	return next != "" && !looksLikeIdentifier(next)
}

// mergeQuotedTabs repairs a row in which a tab inside a CSV-quoted value
// split the value into several fields: a field opens a double-quoted value
// it does not close (it starts with a quote and holds an odd number of
// them), a later field closes it (it ends with a quote and holds an odd
// number of them), the fields between hold no quote, and the row is longer
// than the header by at least the fields to join. The fields are joined
// with spaces (a tab in a value becomes a space, as the Writer writes it)
// and the values after them move left. Only the first such value is
// repaired.
func (r *Reader) mergeQuotedTabs(fields []string, p *rowProblems) []string {
	n := len(fields)
	surplus := n - r.m.width
	if surplus <= 0 {
		return fields
	}
	for i := 0; i < n-1; i++ {
		v := strings.TrimLeft(fields[i], " ")
		if len(v) == 0 || v[0] != '"' || strings.Count(v, `"`)%2 == 0 {
			continue
		}
		for j := i + 1; j < n && j-i <= surplus; j++ {
			w := strings.TrimRight(fields[j], " ")
			q := strings.Count(w, `"`)
			if q == 0 {
				continue
			}
			if q%2 == 0 || w[len(w)-1] != '"' {
				return fields
			}
			orig := strings.Join(fields[i:j+1], "\t")
			joined := strings.Join(fields[i:j+1], " ")
			fields[i] = joined
			fields = append(fields[:i+1], fields[j+1:]...)
			name := ""
			if i < len(r.m.cols) && (r.m.cols[i] >= 0 || r.m.extra[i] >= 0) {
				name = r.columnName(r.m.cols[i], r.m.extra[i])
			}
			what, moved := "a tab inside a quoted value split it in two fields", "one column"
			if j-i > 1 {
				what = fmt.Sprintf("tabs inside a quoted value split it in %d fields", j-i+1)
				moved = strconv.Itoa(j-i) + " columns"
			}
			label := name
			if label == "" {
				label = "column " + strconv.Itoa(i+1)
			}
			p.addNamed(Repaired, name, orig, "fields joined, later values moved left", what,
				fmt.Sprintf("%s %s: %s: fields joined, later values moved %s to the left", label, quoteShort(orig), what, moved))
			return fields
		}
		return fields
	}
	return fields
}

// shiftFields are the fields whose values have a recognisable form, used to
// find shifted rows.
var shiftFields = [...]Field{PrintIdentifier, OnlineIdentifier, DateFirstIssueOnline, DateLastIssueOnline,
	TitleURL, EmbargoInfo, CoverageDepth, PublicationType, DateMonographPublishedPrint,
	DateMonographPublishedOnline, AccessType}

// shiftClue is a value found in the wrong column: a value of field f sits
// in column at (0-based) instead of its header column.
type shiftClue struct {
	f      Field
	at     int
	value  string
	strong bool // its own column holds a wrong value, or value cannot be at
}

// shift describes a row whose values from some column on sit by columns
// to the right (by > 0) or to the left (by < 0) of their header column. The
// shift starts at a column from first to last (0-based).
type shift struct {
	by          int
	first, last int
	clues       []shiftClue
	m           *columnMap
}

// mayBeShifted is the quick test run on every row before detectShift: a
// value sits where it cannot belong. publication_type holds something other
// than serial or monograph, a date field holds a word, or, when
// publication_type is empty or title_url holds no URL, a field up to
// maxShift columns away holds serial, monograph or a URL (where a shift
// would have put them).
func (r *Reader) mayBeShifted(v *[NumFields]string) bool {
	if t := v[PublicationType]; t != "" && !isPubType(t) {
		return true
	}
	for _, f := range dateFields {
		if d := v[f]; d != "" && !isDigit(d[0]) && hasLetter(d) && !hasDigit(d) {
			return true
		}
	}
	// A home column that holds a value of its form has not lost it.
	return v[PublicationType] == "" && r.strayNear(v, true) || !isURL(v[TitleURL]) && r.strayNear(v, false)
}

// strayNear reports whether a field near publication_type (pubType) or
// title_url (!pubType) holds a value of that field's form: serial or
// monograph, or a URL. See nearFields.
func (r *Reader) strayNear(v *[NumFields]string, pubType bool) bool {
	if pubType {
		for _, f := range r.m.nearPubType {
			if s := v[f]; len(s) >= 6 && (s[0]|0x20 == 's' || s[0]|0x20 == 'm') && isPubType(s) {
				return true
			}
		}
		return false
	}
	for _, f := range r.m.nearURL {
		if s := v[f]; len(s) >= 7 && s[0]|0x20 == 'h' && isURL(s) {
			return true
		}
	}
	return false
}

// nearFields returns the fields whose columns are up to maxShift columns
// away from the column of field home, where a shift would put home's
// values. publication_title, title_url, notes and publication_type are
// left out: they may hold anything.
func (m *columnMap) nearFields(home Field) []Field {
	h := m.owner[home]
	if h < 0 {
		return nil
	}
	var near []Field
	for i := max(h-maxShift, 0); i <= h+maxShift && i < len(m.cols); i++ {
		switch f := m.cols[i]; f {
		case -1, PublicationTitle, TitleURL, Notes, PublicationType:
		default:
			near = append(near, f)
		}
	}
	return near
}

// isPubType reports whether s is serial or monograph, in any case.
func isPubType(s string) bool {
	return (len(s) == 6 || len(s) == 9) && (strings.EqualFold(s, "serial") || strings.EqualFold(s, "monograph"))
}

// isURL reports whether s starts with http:// or https://, in any case.
func isURL(s string) bool {
	if len(s) < 7 || s[0]|0x20 != 'h' {
		return false
	}
	l := strings.ToLower(s[:min(len(s), 8)])
	return strings.HasPrefix(l, "http://") || strings.HasPrefix(l, "https://")
}

// outOfPlace reports whether v, found in header column i, is a value that
// column cannot hold: serial, monograph, a URL, an ISSN or an ISBN where
// the column's field is not of that kind (or the column is not a standard
// one).
func (r *Reader) outOfPlace(i int, v string) bool {
	if !isPubType(v) && !isURL(v) && !looksLikeIdentifier(v) {
		return false
	}
	if i >= len(r.m.cols) || r.m.cols[i] < 0 {
		return true
	}
	f := r.m.cols[i]
	switch f {
	case PublicationTitle, Notes:
		return false
	}
	return !r.fits(f, v)
}

// detectShift looks for a shift of the values of a row (fields as split,
// v as mapped to the header). For each shift of 1 to maxShift columns
// either way, a field with a recognisable form supports it when its own
// column does not hold a value of that form and the shifted column does,
// and contradicts it when the reverse is true. A support is strong when its
// own column holds a wrong value (not an empty one) or when the value it
// found cannot be where it is (see outOfPlace). A shift is found when at
// least two fields support it, one of them strongly, and every
// contradicting field comes before every supporting one: the shift starts
// between them. The shift with the most support wins.
func (r *Reader) detectShift(fields []string, v *[NumFields]string) (shift, bool) {
	if !r.mayBeShifted(v) {
		return shift{}, false
	}
	at := func(i int) string {
		if i < 0 || i >= len(fields) {
			return ""
		}
		return shiftValue(fields[i])
	}
	best := shift{m: &r.m}
	for by := -maxShift; by <= maxShift; by++ {
		if by == 0 {
			continue
		}
		var supports []shiftClue
		lastContra := -1
		for _, f := range shiftFields {
			i := r.m.owner[f]
			if i < 0 {
				continue
			}
			a, b := at(i), at(i+by)
			fa, fb := r.fits(f, a), r.fits(f, b)
			switch {
			case fb && !fa:
				supports = append(supports, shiftClue{f: f, at: i + by, value: b, strong: a != "" || r.outOfPlace(i+by, b)})
			case fa && !fb:
				lastContra = max(lastContra, i)
			}
		}
		// Supports before the last contradiction are coincidences (an
		// empty print_identifier beside an online one) unless strong.
		var clues []shiftClue
		strong, consistent := 0, true
		for _, c := range supports {
			switch {
			case c.at-by > lastContra:
				clues = append(clues, c)
				if c.strong {
					strong++
				}
			case c.strong:
				consistent = false
			}
		}
		if consistent && len(clues) >= 2 && strong >= 1 && len(clues) > len(best.clues) {
			best = shift{by: by, first: lastContra + 1, last: clues[0].at - by, clues: clues, m: &r.m}
		}
	}
	return best, best.by != 0
}

// realign moves the values of the columns from s.last on (where the shift
// is certain) back under their header, for RowError.Values.
func (s shift) realign(fields []string, v *[NumFields]string) {
	for i := s.last; i < len(s.m.cols); i++ {
		f := s.m.cols[i]
		if f < 0 {
			continue
		}
		v[f] = ""
		if j := i + s.by; j >= 0 && j < len(fields) {
			v[f] = shiftValue(fields[j])
		}
	}
}

// shiftValue returns a field's value trimmed and unquoted, for detectShift.
func shiftValue(s string) string {
	s = trimValue(s)
	if t, ok := unquoteCSV(s); ok {
		s = trimValue(t)
	}
	return s
}

// fits reports whether v has the form of a value of field f.
func (r *Reader) fits(f Field, v string) bool {
	if v == "" {
		return false
	}
	switch f {
	case PrintIdentifier, OnlineIdentifier:
		return looksLikeIdentifier(strings.TrimPrefix(v, "#"))
	case DateFirstIssueOnline, DateLastIssueOnline, DateMonographPublishedPrint, DateMonographPublishedOnline:
		p := r.dates // a copy: trying values must not teach the parser
		return isDigit(v[0]) && !p.parse(f, v).invalid
	case TitleURL:
		return isURL(v)
	case EmbargoInfo:
		_, ok := ParseEmbargo(v)
		return ok
	case CoverageDepth:
		_, ok := coverageDepth(v)
		return ok
	case PublicationType:
		return isPubType(v)
	case AccessType:
		_, ok := accessType(v)
		return ok
	}
	return false
}

// reason explains the shift for a person.
func (s shift) reason() string {
	dir := "right"
	if s.by < 0 {
		dir = "left"
	}
	n := s.by
	if n < 0 {
		n = -n
	}
	cols := "columns"
	if n == 1 {
		cols = "column"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "values do not line up with the header: they sit %d %s to the %s of their header column from ", n, cols, dir)
	if s.first == s.last {
		fmt.Fprintf(&b, "%s on", s.column(s.first))
	} else {
		fmt.Fprintf(&b, "somewhere between %s and %s on", s.column(s.first), s.column(s.last))
	}
	b.WriteString(" (")
	for k, c := range s.clues {
		if k == 3 {
			b.WriteString(", …")
			break
		}
		if k > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s value %s under %s", c.f, quoteShort(c.value), s.column(c.at))
	}
	b.WriteString("); the row was not read: put its values back in their columns")
	return b.String()
}

// column names header column i (0-based) for a message.
func (s shift) column(i int) string {
	name := ""
	if i < len(s.m.cols) {
		switch {
		case s.m.cols[i] >= 0:
			name = s.m.cols[i].String()
		case s.m.extra[i] >= 0:
			name = s.m.extraNames[s.m.extra[i]]
		}
	}
	if name == "" {
		return "column " + strconv.Itoa(i+1)
	}
	return "column " + strconv.Itoa(i+1) + " (" + name + ")"
}
