package web

import (
	"encoding/csv"
	"io"
	"net/http"
	"strings"
	"unicode"
)

// The CSV files the API and the console write: RFC 4180 with CRLF line
// ends, UTF-8, saved as attachments, their text cells safe to open in a
// spreadsheet.

// ContentTypeCSV is the Content-Type of the CSV files.
const ContentTypeCSV = "text/csv; charset=utf-8"

// SetCSVHeaders sets the headers of a CSV file named name, to be saved
// (Content-Disposition attachment).
func SetCSVHeaders(w http.ResponseWriter, name string) {
	h := w.Header()
	h.Set("Content-Type", ContentTypeCSV)
	h.Set("Content-Disposition", `attachment; filename="`+name+`"`)
	h.Set("X-Content-Type-Options", "nosniff")
}

// FileSafe returns s with every character but ASCII letters, digits and
// hyphens made a hyphen, for a file name in a header.
func FileSafe(s string) string {
	return strings.Map(func(r rune) rune {
		if r == '-' || r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)) {
			return r
		}
		return '-'
	}, s)
}

// NewCSV returns a CSV writer of w with CRLF line ends.
func NewCSV(w io.Writer) *csv.Writer {
	cw := csv.NewWriter(w)
	cw.UseCRLF = true
	return cw
}

// CSVCell returns a text value as a CSV cell. The values come from citing
// sources and KBART files, and a spreadsheet takes a cell that starts with
// =, +, -, @ or a tab or carriage return for a formula: such a cell is
// prefixed with an apostrophe, which shows it as text.
func CSVCell(s string) string {
	if s != "" && strings.ContainsRune("=+-@\t\r", rune(s[0])) {
		return "'" + s
	}
	return s
}
