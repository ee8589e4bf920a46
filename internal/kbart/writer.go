package kbart

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// Writer writes KBART Phase II files: UTF-8, tab-separated, LF line
// endings. Values are written as they are, except that tabs and line breaks
// become spaces and a value that starts with a double quote is written
// CSV-style (wrapped in quotes, inner quotes doubled) so that it reads back
// unchanged. Create one with NewWriter.
type Writer struct {
	w       *bufio.Writer
	extra   []string
	started bool
	err     error
}

// NewWriter returns a Writer to w. It writes the 25 standard column names,
// followed by extraColumns, as the header line before the first row.
func NewWriter(w io.Writer, extraColumns ...string) *Writer {
	return &Writer{w: bufio.NewWriterSize(w, 64<<10), extra: extraColumns}
}

// Write writes one row, preceded by the header line if it is the first.
// values holds the 25 standard fields in order followed by one value per
// extra column; another count is an error. Tabs, CR and LF inside a value
// are written as spaces, since they would break the line apart, and a
// value that starts with a double quote is CSV-quoted (see Writer). Errors
// are sticky: after one, every call returns it.
func (w *Writer) Write(values []string) error {
	if w.err != nil {
		return w.err
	}
	if want := int(NumFields) + len(w.extra); len(values) != want {
		return fmt.Errorf("kbart: writing a row: %d values, want %d", len(values), want)
	}
	if !w.started {
		w.started = true
		w.writeLine(Header[:], w.extra)
	}
	w.writeLine(values, nil)
	return w.err
}

// Flush writes any buffered data to the underlying writer, and the header
// line if no row was written.
func (w *Writer) Flush() error {
	if w.err != nil {
		return w.err
	}
	if !w.started {
		w.started = true
		w.writeLine(Header[:], w.extra)
	}
	if err := w.w.Flush(); err != nil {
		w.err = fmt.Errorf("kbart: writing: %w", err)
	}
	return w.err
}

// writeLine writes a and then b as one tab-separated line.
func (w *Writer) writeLine(a, b []string) {
	first := true
	for _, vs := range [2][]string{a, b} {
		for _, v := range vs {
			if !first {
				w.w.WriteByte('\t')
			}
			first = false
			if strings.ContainsAny(v, "\t\r\n") {
				v = strings.Map(func(r rune) rune {
					switch r {
					case '\t', '\r', '\n':
						return ' '
					}
					return r
				}, v)
			}
			if len(v) > 0 && v[0] == '"' {
				// Readers (this one included) take a value that starts
				// with a quote for CSV-style quoting: quote it so that it
				// reads back as it is.
				v = `"` + strings.ReplaceAll(v, `"`, `""`) + `"`
			}
			w.w.WriteString(v)
		}
	}
	if err := w.w.WriteByte('\n'); err != nil && w.err == nil {
		w.err = fmt.Errorf("kbart: writing: %w", err)
	}
}
