package kbreport

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// A report row is stored as one text (report_rows.vals,
// report_delta_rows.vals): the 30 values of the holding, then its
// package's content type, separated by tabs; a backslash, tab or newline
// inside a value is written \\, \t or \n.

// reportFields is the number of fields of a stored report row.
const reportFields = kb.HoldingFieldCount + 1

// valueEscaper escapes what would break a stored report row.
var valueEscaper = strings.NewReplacer(`\`, `\\`, "\t", `\t`, "\n", `\n`)

// encodeReportRow returns the stored text of a report row.
func encodeReportRow(h *kb.ReportHolding) string {
	var b strings.Builder
	b.Grow(512)
	for i, v := range h.Values {
		if i > 0 {
			b.WriteByte('\t')
		}
		writeValue(&b, v)
	}
	b.WriteByte('\t')
	writeValue(&b, h.ContentType)
	return b.String()
}

// writeValue writes a value to b, escaped (most values need no escape).
func writeValue(b *strings.Builder, v string) {
	if strings.IndexAny(v, "\\\t\n") < 0 {
		b.WriteString(v)
		return
	}
	valueEscaper.WriteString(b, v)
}

// decodeReportRow fills h's values and content type from the stored text
// of a report row.
func decodeReportRow(s string, h *kb.ReportHolding) error {
	n := 0
	for {
		field, rest, more := strings.Cut(s, "\t")
		if strings.IndexByte(field, '\\') >= 0 {
			field = unescapeValue(field)
		}
		switch {
		case n < kb.HoldingFieldCount:
			h.Values[n] = field
		case n == kb.HoldingFieldCount:
			h.ContentType = field
		}
		n++
		if !more {
			break
		}
		s = rest
	}
	if n != reportFields {
		return fmt.Errorf("stored report row has %d fields, want %d", n, reportFields)
	}
	return nil
}

// unescapeValue undoes valueEscaper.
func unescapeValue(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 't':
				c = '\t'
			case 'n':
				c = '\n'
			default:
				c = s[i]
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// Stored rows are kept reportChunk to a table row (report_rows.body,
// report_delta_rows.body): chunk k of a report holds its rows k*reportChunk+1
// to (k+1)*reportChunk, one a line, each line the row's package id, title
// id and change type (kb.ChangeType; 0 in a transaction) and then its
// stored text (encodeReportRow), separated by tabs. Table rows, not report
// rows, are what an engine pays per insert and per read.

// reportChunk is the number of report rows a table row holds.
const reportChunk = 64

// chunkStart returns the 1-based number of the first row of the chunk
// holding row (1-based).
func chunkStart(row int64) int64 { return (row-1)/reportChunk*reportChunk + 1 }

// appendReportLine appends one line of a chunk's body to b.
func appendReportLine(b []byte, pkg, title int64, change kb.ChangeType, vals string) []byte {
	b = strconv.AppendInt(b, pkg, 10)
	b = append(b, '\t')
	b = strconv.AppendInt(b, title, 10)
	b = append(b, '\t')
	b = strconv.AppendInt(b, int64(change), 10)
	b = append(b, '\t')
	return append(b, vals...)
}

// reportLine is one line of a chunk's body.
type reportLine struct {
	pkg, title int64
	change     kb.ChangeType
	vals       string
}

// eachReportLine calls fn for each line of a chunk's body, in order; fn's
// error stops it.
func eachReportLine(body string, fn func(reportLine) error) error {
	for body != "" {
		var line string
		line, body, _ = strings.Cut(body, "\n")
		var l reportLine
		var fields [3]string
		rest := line
		for i := range fields {
			var ok bool
			if fields[i], rest, ok = strings.Cut(rest, "\t"); !ok {
				return fmt.Errorf("stored report line %.40q has no values", line)
			}
		}
		pkg, err1 := strconv.ParseInt(fields[0], 10, 64)
		title, err2 := strconv.ParseInt(fields[1], 10, 64)
		change, err3 := strconv.Atoi(fields[2])
		if err := errors.Join(err1, err2, err3); err != nil {
			return fmt.Errorf("stored report line %.40q: %w", line, err)
		}
		l.pkg, l.title, l.change, l.vals = pkg, title, kb.ChangeType(change), rest
		if err := fn(l); err != nil {
			return err
		}
	}
	return nil
}
