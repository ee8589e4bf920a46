package kbart

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/kbserver/kbserver/internal/kb"
)

// ErrNotKBART is wrapped by NewReader when the input is not a KBART file: an
// HTML page, a comma-separated or fixed-width file, a file without a
// publication_title column, or empty input. The wrapping error says why.
var ErrNotKBART = errors.New("not a KBART file")

// reasonRepeatedHeader is the RowError reason for a header line found again
// inside the data (as in files made by concatenating two KBART files).
const reasonRepeatedHeader = "repeated header line skipped"

// Row is one data row of a KBART file, with its values normalised.
type Row struct {
	// Line is the 1-based physical line number of the row in the source,
	// counting lines after decoding (CR, LF and CRLF each end one line).
	Line int
	// Values holds the normalised values in standard order; a field the
	// file does not have is "".
	Values [NumFields]string
	// Extra holds the values of the file's non-standard columns, in the
	// order of Reader.ExtraColumns (same length), cleaned like the other
	// values. It is nil when the file has no such column.
	Extra []string
	// Repairs has one human-readable message per repair or warning (the
	// Repaired and Flagged problems), each naming the field and the
	// original value. It is nil for a row that has neither.
	Repairs []string
	// Problems lists every problem of the row, normalisations included, in
	// the order they were found. It is nil for a clean row.
	Problems []Problem
}

// RowError reports a rejected row. Next returns it and the caller may keep
// reading.
type RowError struct {
	Line   int    // 1-based physical line number
	Reason string // what is wrong, for a person to act on
	// Problem says the same for a program: its Kind is Rejected and its
	// Field the field at fault, or "" when the row as a whole is.
	Problem Problem
	// Values holds the row's values as far as they could be read, in
	// standard order and cleaned but not normalised (best effort: some may
	// be empty or misplaced), so that a caller can tell which title the row
	// stood for by its title_id, identifiers and URL.
	Values [NumFields]string
}

// Error returns "line N: reason".
func (e *RowError) Error() string {
	return "line " + strconv.Itoa(e.Line) + ": " + e.Reason
}

// reject returns the *RowError for a row rejected because of field f
// (noField for the whole row). reason is the short reason of the Problem;
// the RowError's reason adds detail, such as the row's identifiers.
func reject(line int, f Field, orig, reason, detail string, v *[NumFields]string) *RowError {
	e := &RowError{Line: line, Reason: reason + detail}
	e.Problem = Problem{Kind: Rejected, Original: cutBytes(orig, maxOriginal), Action: "row rejected", Reason: reason}
	if f != noField {
		e.Problem.Field = f.String()
	}
	if v != nil {
		e.Values = *v
	}
	return e
}

// Reader reads and normalises the rows of a KBART file. Create one with
// NewReader.
type Reader struct {
	sc     *bufio.Scanner
	line   int
	m      columnMap
	notes  []string
	dates  dateParser
	fields []string // reused buffer for the fields of a line
	noted  uint8    // file-level notes already given while reading
	// macRoman is set once a value showed bytes of Mac OS Roman rather
	// than Windows-1252; later undecodable values use it too.
	macRoman bool
	err      error // sticky fatal error
	// pending holds lines read ahead while looking for the end of a
	// quoted value that spans lines.
	pending []pendingLine
	// extraSlab holds Row.Extra values handed out by newExtra.
	extraSlab []string
}

// pendingLine is a line read ahead, with its line number.
type pendingLine struct {
	b    []byte
	line int
}

// maxJoinLines bounds how many lines a quoted value may span.
const maxJoinLines = 4

// File-level notes given at most once while reading (Reader.noted).
const (
	notedQuoted  uint8 = 1 << iota // CSV-style quotes removed
	notedPubType                   // empty publication_type inferred
)

// NewReader reads the start of r, handling byte-order marks and UTF-16,
// skips up to 20 preamble lines to find the header line, and maps its
// columns. It returns an error wrapping ErrNotKBART when the input is not a
// KBART file, and another error when reading fails.
func NewReader(r io.Reader) (*Reader, error) {
	in, encNote, err := sniffEncoding(r)
	if err != nil {
		return nil, err
	}
	kr := &Reader{sc: newLineScanner(in), dates: newDateParser(time.Now())}
	if encNote != "" {
		kr.notes = append(kr.notes, encNote)
	}
	first := ""         // the first non-blank line
	seen := 0           // non-blank lines looked at
	header, at := "", 0 // the header line and its line number
	for seen < maxPreamble && kr.sc.Scan() {
		kr.line++
		b := kr.sc.Bytes()
		if isBlank(b) {
			continue
		}
		line, fixed := decodeLine(b)
		line = strings.TrimPrefix(line, "\uFEFF")
		if seen == 0 {
			first = line
			if isHTMLStart(line) {
				return nil, fmt.Errorf("%w: an HTML page (starts with %s)", ErrNotKBART, quoteShort(trimValue(line)))
			}
		}
		seen++
		if strings.Contains(strings.ToLower(line), Header[PublicationTitle]) {
			header, at = line, kr.line
			if fixed {
				kr.notes = append(kr.notes, "header line is not valid UTF-8: read as Windows-1252")
			}
			break
		}
	}
	if err := kr.sc.Err(); err != nil {
		return nil, kr.fatal(err)
	}
	switch {
	case seen == 0:
		return nil, fmt.Errorf("%w: empty input", ErrNotKBART)
	case at == 0:
		header = first // explain the refusal with the first line
	}
	if strings.IndexByte(header, '\t') < 0 {
		return nil, refuseLayout(header)
	}
	m, notes, err := parseHeader(header)
	if err != nil {
		return nil, err
	}
	if n := at - 1; n > 0 {
		kr.notes = append(kr.notes, fmt.Sprintf("%d lines before the header line (line %d) skipped", n, at))
	}
	kr.m = m
	kr.notes = append(kr.notes, notes...)
	return kr, nil
}

// FileNotes returns notes about the whole file: encoding repairs, columns
// ignored, kept as extra columns, missing or renamed, a Phase I header,
// skipped preamble lines, and notes on quirks seen in every row (given
// once, when first seen, so the list may grow while reading; call it after
// io.EOF for all of them).
func (r *Reader) FileNotes() []string { return r.notes }

// Next returns the next row. It returns io.EOF at the end of the input and
// a *RowError for a rejected row, after which the caller may call Next
// again. A repeated header line is reported as a *RowError with the reason
// "repeated header line skipped" (and the Problem reason "repeated header
// line"). Any other error is a fatal read error.
func (r *Reader) Next() (Row, error) {
	if r.err != nil {
		return Row{}, r.err
	}
	for {
		b, line, ok := r.readLine()
		if !ok {
			break
		}
		if isBlank(b) {
			continue
		}
		var joined joinedLines
		if opensQuotedValue(b) {
			b, joined = r.joinQuoted(b, line)
		}
		return r.parseLine(b, line, joined)
	}
	if err := r.sc.Err(); err != nil {
		r.err = r.fatal(err)
		return Row{}, r.err
	}
	r.err = io.EOF
	return Row{}, io.EOF
}

// readLine returns the next physical line and its number, from the
// look-ahead queue first.
func (r *Reader) readLine() ([]byte, int, bool) {
	if len(r.pending) > 0 {
		p := r.pending[0]
		r.pending = r.pending[1:]
		return p.b, p.line, true
	}
	if !r.sc.Scan() {
		return nil, 0, false
	}
	r.line++
	return r.sc.Bytes(), r.line, true
}

// opensQuotedValue reports whether the last field of a line starts a
// CSV-style quoted value that the line does not close: it starts with a
// double quote and holds an odd number of them.
func opensQuotedValue(b []byte) bool {
	last := b[bytes.LastIndexByte(b, '\t')+1:]
	last = bytes.TrimLeft(last, " ")
	return len(last) > 0 && last[0] == '"' && bytes.Count(last, []byte{'"'})%2 == 1
}

// joinedLines says which lines joinQuoted joined into one; last is 0 when
// it joined none.
type joinedLines struct{ first, last int }

// joinQuoted joins a line that leaves a quoted value open with the
// following lines when one of the next maxJoinLines lines closes it (its
// first field holds an odd number of double quotes) and the lines between
// have no tab. The line break becomes a space. Otherwise the lines read
// ahead are queued and the line is returned unchanged. The second result
// says which lines were joined.
func (r *Reader) joinQuoted(b []byte, line int) ([]byte, joinedLines) {
	b = bytes.Clone(b)
	var ahead []pendingLine
	for len(ahead) < maxJoinLines {
		nb, nline, ok := r.readLine()
		if !ok {
			break
		}
		ahead = append(ahead, pendingLine{b: bytes.Clone(nb), line: nline})
		first := nb
		tab := bytes.IndexByte(nb, '\t')
		if tab >= 0 {
			first = nb[:tab]
		}
		if bytes.Count(first, []byte{'"'})%2 == 1 {
			for _, p := range ahead {
				b = append(append(b, ' '), p.b...)
			}
			return b, joinedLines{line, nline}
		}
		if tab >= 0 {
			break
		}
	}
	r.pending = append(ahead, r.pending...)
	return b, joinedLines{}
}

// fatal wraps a read error with the line it happened after.
func (r *Reader) fatal(err error) error {
	if errors.Is(err, bufio.ErrTooLong) {
		err = fmt.Errorf("%w (over %d bytes)", errLineTooLong, maxLineSize)
	}
	return fmt.Errorf("kbart: reading after line %d: %w", r.line, err)
}

// isBlank reports whether a line holds only spaces and tabs.
func isBlank(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\v' && c != '\f' {
			return false
		}
	}
	return true
}

// decodeLine returns a line as a string, decoding it as Windows-1252 when
// it is not valid UTF-8 (reported by fixed).
func decodeLine(b []byte) (s string, fixed bool) {
	if utf8.Valid(b) {
		return string(b), false
	}
	return decodeWindows1252(string(b)), true
}

// splitTabs splits s at tabs, appending the fields to buf, and returns the
// union of the byte classes of s (see lineFlags) as well: one pass does
// both.
func splitTabs(s string, buf []string) ([]string, uint8) {
	var flags uint8
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\t' {
			buf = append(buf, s[start:i])
			start = i + 1
			continue
		}
		flags |= byteFlags[c]
	}
	return append(buf, s[start:]), flags
}

// fieldLimit is the limit of a field's values: the stores index titles
// and publishers (kb.LimitName) and keep URLs (kb.LimitURL); a longer
// value rejects its row.
func fieldLimit(f Field) kb.TextLimit {
	switch f {
	case PublicationTitle, PublisherName:
		return kb.LimitName
	case TitleURL:
		return kb.LimitURL
	}
	return kb.LimitText
}

// parseLine turns one non-blank data line into a Row or a *RowError. joined
// says which lines joinQuoted joined to make it.
func (r *Reader) parseLine(b []byte, line int, joined joinedLines) (Row, error) {
	s := string(b)
	var p rowProblems
	p.extraNames = r.m.extraNames
	if joined.last != 0 {
		p.add(Repaired, noField, "", fmt.Sprintf("lines %d to %d joined", joined.first, joined.last), "line break inside a quoted value",
			fmt.Sprintf("line break inside a quoted value: lines %d to %d joined", joined.first, joined.last))
	}
	if strings.HasPrefix(s, "\uFEFF") {
		s = s[3:] // a byte order mark left by concatenating files
		p.add(Normalized, noField, "", "removed", "byte order mark at the start of the line (left by joining files)", "")
	}
	fields, flags := splitTabs(s, r.fields[:0])
	r.fields = fields
	valid := flags&flagHigh == 0 || utf8.ValidString(s)
	m := &r.m
	if len(fields) == 1 && m.width > 1 {
		var v [NumFields]string
		if f := m.cols[0]; f >= 0 {
			v[f] = r.cleanForError(s, f)
		}
		return Row{}, reject(line, noField, s, fmt.Sprintf("line has no tab (one field where the header has %d columns): not a KBART row", m.width),
			": "+quoteShort(s), &v)
	}
	fields = r.mergeQuotedTabs(fields, &p)
	off := 0
	if r.isShifted(fields) {
		off = 1
		p.add(Repaired, noField, cutBytes(s, maxOriginal), "moved one column left", "row starts with an extra empty field",
			"row starts with an extra empty field: values moved one column to the left")
	}
	n := len(fields)
	row := Row{Line: line}
	if len(m.extraNames) > 0 {
		row.Extra = r.newExtra(len(m.extraNames))
	}
	for i := 0; i < m.rawWidth && i+off < n; i++ {
		f, x := m.cols[i], m.extra[i]
		if f < 0 && x < 0 {
			continue
		}
		v := fields[i+off]
		switch {
		case !valid:
			v = r.cleanLegacy(v, line, f, x, &p)
		case flags&(flagCtl|flagC3|flagAmp) != 0 || needsTrim(v):
			orig := v
			var kinds uint8
			if v, kinds = cleanValue(v, flags, f == PublicationTitle || f == PublisherName); kinds != 0 {
				r.noteClean(&p, line, f, x, orig, v, kinds)
			}
		}
		switch {
		case x >= 0:
			if len(v) <= maxExtraLen {
				row.Extra[x] = v
				break
			}
			if c, cut := cutExtra(v); cut {
				p.addExtra(Repaired, x, v, fmt.Sprintf("cut to %d characters", maxExtraLen), "value too long",
					fmt.Sprintf("%s (%d characters) cut to %d characters", m.extraNames[x], utf8.RuneCountInString(v), maxExtraLen))
				v = c
			}
			row.Extra[x] = v
		case f == Notes && row.Values[Notes] != "":
			if v != "" && v != row.Values[Notes] {
				p.add(Normalized, Notes, v, "joined", "the file has several notes columns (notes, coverage_notes)", "")
				row.Values[Notes] += "; " + v
			}
		default:
			row.Values[f] = v
		}
	}
	if got := n - off; got < m.rawWidth && m.lastStd >= got {
		p.add(Normalized, noField, "", "missing fields read as empty", fmt.Sprintf("row has %d fields where the header has %d", got, m.width), "")
	} else if got > m.rawWidth {
		var dropped []string
		for _, v := range fields[m.rawWidth+off:] {
			if v = trimValue(v); v != "" {
				dropped = append(dropped, quoteShort(v))
			}
		}
		if len(dropped) > 0 {
			msg := fmt.Sprintf("row has %d fields where the header has %d: extra values dropped: %s", got, m.width, strings.Join(dropped, ", "))
			p.add(Flagged, noField, strings.Join(dropped, ", "), "extra values dropped", fmt.Sprintf("row has %d fields where the header has %d", got, m.width), msg)
		}
	}
	if isRepeatedHeader(&row.Values) {
		e := reject(line, noField, s, "repeated header line", "", &row.Values)
		e.Reason = reasonRepeatedHeader
		return Row{}, e
	}
	if sh, ok := r.detectShift(fields[off:], &row.Values); ok {
		reason := sh.reason()
		if t := row.Values[PublicationTitle]; isSpreadsheetError(t) {
			reason += "; besides, its publication_title is " + quoteShort(t) + ", a spreadsheet error value"
		}
		sh.realign(fields[off:], &row.Values)
		return Row{}, reject(line, noField, s, reason, describeRow(&row.Values), &row.Values)
	}
	switch t := row.Values[PublicationTitle]; {
	case t == "":
		return Row{}, reject(line, PublicationTitle, "", "publication_title is empty", describeRow(&row.Values), &row.Values)
	case t[0] == '#' && isSpreadsheetError(t):
		return Row{}, reject(line, PublicationTitle, t, "publication_title is "+quoteShort(t)+", a spreadsheet error value, not a title",
			describeRow(&row.Values), &row.Values)
	}
	for f := range row.Values {
		if e := fieldLimit(Field(f)).Exceeded(row.Values[f]); e != "" {
			return Row{}, reject(line, Field(f), row.Values[f], Field(f).String()+" "+e, describeRow(&row.Values), &row.Values)
		}
	}
	// A value starting with "#" may be a spreadsheet error.
	r.normalize(&row.Values, line, strings.IndexByte(s, '#') >= 0, &p)
	row.Repairs, row.Problems = p.rep, p.probs
	return row, nil
}

// cleanLegacy returns the clean value of one field of a line that is not
// valid UTF-8: decoded when the field itself is not (see decodeLegacy),
// then trimmed and unquoted (see cleanValue). f is the field of its
// column, or -1 for extra column x.
func (r *Reader) cleanLegacy(v string, line int, f Field, x int, p *rowProblems) string {
	legacy := ""
	if !utf8.ValidString(v) {
		v, legacy = decodeLegacy(v, r.macRoman)
		r.macRoman = legacy == "Mac OS Roman"
	}
	if flags := lineFlags(v); flags&(flagCtl|flagC3|flagAmp) != 0 || needsTrim(v) {
		orig := v
		var kinds uint8
		v, kinds = cleanValue(v, flags, f == PublicationTitle || f == PublisherName)
		if kinds != 0 {
			r.noteClean(p, line, f, x, orig, v, kinds)
		}
	}
	if legacy != "" {
		name := r.columnName(f, x)
		p.addNamed(Repaired, name, v, "read as "+legacy, "not valid UTF-8", name+" is not valid UTF-8: read as "+legacy+": "+quoteShort(v))
	}
	return v
}

// cleanForError cleans the text of a rejected line, read as field f, for
// RowError.Values.
func (r *Reader) cleanForError(s string, f Field) string {
	if !utf8.ValidString(s) {
		s, _ = decodeLegacy(s, r.macRoman)
	}
	v, _ := cleanValue(s, lineFlags(s), f == PublicationTitle || f == PublisherName)
	return v
}

// columnName names field f, or extra column x when f < 0.
func (r *Reader) columnName(f Field, x int) string {
	if f >= 0 {
		return f.String()
	}
	return r.m.extraNames[x]
}

// needsTrim reports whether v may have white space or quotes to remove.
func needsTrim(v string) bool {
	if v == "" {
		return false
	}
	c, d := v[0], v[len(v)-1]
	return c <= ' ' || c >= utf8.RuneSelf || c == '"' || d <= ' ' || d >= utf8.RuneSelf
}

// noteClean records the problems for the lexical changes made to a value
// of field f (or extra column x when f < 0). Removing CSV-style quotes is a
// file-level note, given once.
func (r *Reader) noteClean(p *rowProblems, line int, f Field, x int, orig, v string, kinds uint8) {
	if kinds&cleanQuoted != 0 && r.noted&notedQuoted == 0 {
		r.noted |= notedQuoted
		r.notes = append(r.notes, fmt.Sprintf("values are wrapped in CSV-style double quotes (first on line %d): quotes removed", line))
	}
	var what []string
	if kinds&cleanMojibake != 0 {
		what = append(what, "double-encoded UTF-8 repaired")
	}
	if kinds&cleanEntities != 0 {
		what = append(what, "HTML entities decoded")
	}
	if kinds&cleanControls != 0 {
		what = append(what, "control characters replaced by spaces")
	}
	name := r.columnName(f, x)
	if len(what) > 0 {
		how := strings.Join(what, ", ")
		p.addNamed(Repaired, name, orig, "read as "+quoteShort(v), how, name+" "+quoteShort(orig)+": "+how+": "+quoteShort(v))
	} else if kinds&cleanTrimmed != 0 {
		p.addNamed(Normalized, name, orig, "trimmed", "white space around the value", "")
	}
}

// isRepeatedHeader reports whether the (cleaned) values of a row are a
// header line: publication_title holds "publication_title" and at least one
// other field holds a standard column name.
func isRepeatedHeader(v *[NumFields]string) bool {
	if !strings.EqualFold(v[PublicationTitle], Header[PublicationTitle]) {
		return false
	}
	for f := PublicationTitle + 1; f < NumFields; f++ {
		if name := strings.ToLower(strings.TrimLeft(v[f], "#")); name != "" {
			if _, ok := standardIndex[name]; ok {
				return true
			}
			if _, ok := headerAliases[name]; ok {
				return true
			}
		}
	}
	return false
}

// describeRow names the first identifying values of a rejected row, so that
// a person can find it: " (print_identifier "…", title_url "…")".
func describeRow(v *[NumFields]string) string {
	var parts []string
	for _, f := range []Field{PrintIdentifier, OnlineIdentifier, TitleID, TitleURL, PublisherName} {
		if v[f] != "" {
			parts = append(parts, f.String()+" "+quoteShort(v[f]))
			if len(parts) == 2 {
				break
			}
		}
	}
	if len(parts) == 0 {
		return " (and the row has no identifier, title_id or title_url either)"
	}
	return " (row has " + strings.Join(parts, ", ") + ")"
}
