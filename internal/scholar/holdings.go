package scholar

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kbserver/kbserver/internal/kb"
)

// MaxFileBytes is the most bytes a holdings file holds: Google reads at
// most 1 MB of one (before compression), taken here as 1,000,000 bytes so
// that it holds whether a megabyte is 10^6 or 2^20 bytes.
const MaxFileBytes = 1_000_000

// The text around a holdings file's items.
const (
	holdingsHead = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>
<!DOCTYPE institutional_holdings PUBLIC "-//GOOGLE//Institutional Holdings 1.0//EN" "http://scholar.google.com/scholar/institutional_holdings.dtd">
<institutional_holdings>
`
	holdingsTail = "</institutional_holdings>\n"
)

// HoldingsName returns the name of the n-th holdings file (from 1):
// holdings-1.xml, holdings-2.xml, ….
func HoldingsName(n int) string { return "holdings-" + strconv.Itoa(n) + ".xml" }

// HoldingsNumber returns n for the name HoldingsName(n) gives, and false
// for any other name.
func HoldingsNumber(name string) (int, bool) {
	rest, ok := strings.CutPrefix(name, "holdings-")
	if !ok {
		return 0, false
	}
	num, ok := strings.CutSuffix(rest, ".xml")
	if !ok || len(num) == 0 || len(num) > 9 || num[0] == '0' {
		return 0, false
	}
	n := digits(num)
	if n <= 0 {
		return 0, false
	}
	return n, true
}

// A HoldingsWriter writes holdings files from a stream of holdings
// (Add), starting a new file whenever the next item would take the
// current one past its size limit. It keeps the current file in memory
// (at most the limit) and hands each finished file to save.
type HoldingsWriter struct {
	save    func(name string, content []byte) error
	max     int
	buf     []byte // the current file, head written
	scratch []byte // the item being written
	item    Item
	files   int
	stats   Stats
	closed  bool
}

// Stats counts what a HoldingsWriter wrote.
type Stats struct {
	// Items is the number of items written.
	Items int
	// Skipped counts the holdings that gave no item (ItemOf).
	Skipped int
	// TooLarge counts the items left out because alone they would not
	// fit in a file; with the titles' and coverage's limits of package
	// kb, none.
	TooLarge int
}

// NewHoldingsWriter returns a writer that hands each finished holdings
// file, named by HoldingsName, to save; a file holds at most MaxFileBytes.
func NewHoldingsWriter(save func(name string, content []byte) error) *HoldingsWriter {
	return NewHoldingsWriterSize(save, MaxFileBytes)
}

// NewHoldingsWriterSize is NewHoldingsWriter with files of at most max
// bytes (tests).
func NewHoldingsWriterSize(save func(name string, content []byte) error, max int) *HoldingsWriter {
	w := &HoldingsWriter{save: save, max: max, buf: make([]byte, 0, min(max, 1<<20))}
	w.buf = append(w.buf, holdingsHead...)
	return w
}

// Add writes the item of h, when it gives one (ItemOf). h is not kept.
func (w *HoldingsWriter) Add(h *kb.SerialHolding) error {
	if !itemOf(h, &w.item) {
		w.stats.Skipped++
		return nil
	}
	return w.AddItem(&w.item)
}

// AddItem writes an item.
func (w *HoldingsWriter) AddItem(it *Item) error {
	if w.closed {
		return fmt.Errorf("holdings writer: add after close")
	}
	w.scratch = appendItem(w.scratch[:0], it)
	if len(holdingsHead)+len(w.scratch)+len(holdingsTail) > w.max {
		w.stats.TooLarge++
		return nil
	}
	if len(w.buf)+len(w.scratch)+len(holdingsTail) > w.max {
		if err := w.flush(); err != nil {
			return err
		}
	}
	w.buf = append(w.buf, w.scratch...)
	w.stats.Items++
	return nil
}

// flush hands the current file to save and starts the next one.
func (w *HoldingsWriter) flush() error {
	w.files++
	w.buf = append(w.buf, holdingsTail...)
	name := HoldingsName(w.files)
	if err := w.save(name, w.buf); err != nil {
		return fmt.Errorf("save %s: %w", name, err)
	}
	w.buf = append(w.buf[:0], holdingsHead...)
	return nil
}

// Close writes the last file, an empty one when no item was written,
// and returns the names of all the files in order.
func (w *HoldingsWriter) Close() ([]string, error) {
	if !w.closed {
		w.closed = true
		if w.files == 0 || len(w.buf) > len(holdingsHead) {
			if err := w.flush(); err != nil {
				return nil, err
			}
		}
	}
	names := make([]string, w.files)
	for i := range names {
		names[i] = HoldingsName(i + 1)
	}
	return names, nil
}

// Stats returns what the writer wrote so far.
func (w *HoldingsWriter) Stats() Stats { return w.stats }

// appendItem appends the XML of an item, one line.
func appendItem(b []byte, it *Item) []byte {
	b = append(b, `<item type="electronic"><title>`...)
	b = appendText(b, it.Title)
	b = append(b, "</title>"...)
	for _, s := range it.ISSNs {
		b = append(b, "<issn>"...)
		b = appendText(b, s)
		b = append(b, "</issn>"...)
	}
	for i := range it.Coverage {
		c := &it.Coverage[i]
		b = append(b, "<coverage>"...)
		b = appendIssue(b, "from", c.From)
		b = appendIssue(b, "to", c.To)
		if c.DaysNotAvailable > 0 {
			b = append(b, "<embargo><days_not_available>"...)
			b = strconv.AppendInt(b, int64(c.DaysNotAvailable), 10)
			b = append(b, "</days_not_available></embargo>"...)
		}
		b = append(b, "</coverage>"...)
	}
	return append(b, "</item>\n"...)
}

// appendIssue appends <from> or <to> (name) of an issue; nothing when it
// has no year.
func appendIssue(b []byte, name string, is Issue) []byte {
	if is.Year <= 0 {
		return b
	}
	b = append(b, '<')
	b = append(b, name...)
	b = append(b, '>')
	b = appendNumber(b, "year", is.Year)
	b = appendNumber(b, "month", is.Month)
	b = appendNumber(b, "volume", is.Volume)
	b = appendNumber(b, "issue", is.Issue)
	b = append(b, "</"...)
	b = append(b, name...)
	return append(b, '>')
}

// appendText appends s as XML character data: the markup characters
// escaped, and what XML may not hold (control characters, U+FFFE and
// U+FFFF, invalid UTF-8) replaced by U+FFFD, as encoding/xml.EscapeText
// does. Text without any of them, the common case, is copied as is.
func appendText(b []byte, s string) []byte {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == '&' || c == '<' || c == '>' || c == '"' || c == '\'' {
				return appendEscaped(b, s)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || r == 0xFFFE || r == 0xFFFF {
			return appendEscaped(b, s)
		}
		i += size
	}
	return append(b, s...)
}

// appendEscaped appends s escaped by encoding/xml.EscapeText.
func appendEscaped(b []byte, s string) []byte {
	var buf bytes.Buffer
	_ = xml.EscapeText(&buf, []byte(s)) // writes to a bytes.Buffer cannot fail
	return append(b, buf.Bytes()...)
}

// appendNumber appends <name>n</name>, nothing when n is not positive.
func appendNumber(b []byte, name string, n int) []byte {
	if n <= 0 {
		return b
	}
	b = append(b, '<')
	b = append(b, name...)
	b = append(b, '>')
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, "</"...)
	b = append(b, name...)
	return append(b, '>')
}
