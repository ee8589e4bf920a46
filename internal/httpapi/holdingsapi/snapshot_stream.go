package holdingsapi

import (
	"bufio"
	"fmt"
	"net/http"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
)

// writeWindow is how long one write of a streamed answer may take. Each
// write extends the connection's write deadline by it, so that a download
// of a large snapshot is not cut by the server's overall WriteTimeout
// while a client that stops reading is still dropped.
const writeWindow = 2 * time.Minute

// lazyWriter writes a streamed 200 answer. Its headers are set, and the
// status written, only at the first Write: until then the handler may
// still answer an error instead.
type lazyWriter struct {
	w       http.ResponseWriter
	rc      *http.ResponseController
	header  func(http.Header)
	started bool
}

func newLazyWriter(w http.ResponseWriter, header func(http.Header)) *lazyWriter {
	return &lazyWriter{w: w, rc: http.NewResponseController(w), header: header}
}

// Write implements io.Writer.
func (l *lazyWriter) Write(b []byte) (int, error) {
	if !l.started {
		l.started = true
		l.header(l.w.Header())
		l.w.WriteHeader(http.StatusOK)
	}
	// Not every ResponseWriter has deadlines (a test recorder has none);
	// the answer is then written without one.
	_ = l.rc.SetWriteDeadline(time.Now().Add(writeWindow))
	return l.w.Write(b)
}

// holdingsJSON streams {"offset":M,"format":"kbart2","holdings":[…]}, one
// record at a time, through a buffer: the opening is written with the first
// record (or by close), so nothing reaches the client before the store has
// produced a row or finished without error.
type holdingsJSON struct {
	w      *bufio.Writer
	offset int
	n      int    // records written
	buf    []byte // reused for each record
}

func newHoldingsJSON(w *lazyWriter, offset int) *holdingsJSON {
	return &holdingsJSON{w: bufio.NewWriterSize(w, 64<<10), offset: offset}
}

// open appends the opening of the answer to b.
func (j *holdingsJSON) open(b []byte) []byte {
	b = append(b, `{"offset":`...)
	b = strconv.AppendInt(b, int64(j.offset), 10)
	return append(b, `,"format":"kbart2","holdings":[`...)
}

// row writes one record; it is the callback of kb.SnapshotStore.Holdings.
func (j *holdingsJSON) row(h *kb.Holding) error {
	b := j.buf[:0]
	if j.n == 0 {
		b = j.open(b)
	} else {
		b = append(b, ',')
	}
	b, err := appendHolding(b, h)
	if err != nil {
		return err
	}
	j.buf = b
	j.n++
	if _, err := j.w.Write(b); err != nil {
		return fmt.Errorf("write holdings: %w", err)
	}
	return nil
}

// close ends the answer and flushes it.
func (j *holdingsJSON) close() error {
	var b []byte
	if j.n == 0 {
		b = j.open(b)
	}
	b = append(b, "]}\n"...)
	if _, err := j.w.Write(b); err != nil {
		return fmt.Errorf("write holdings: %w", err)
	}
	if err := j.w.Flush(); err != nil {
		return fmt.Errorf("write holdings: %w", err)
	}
	return nil
}

// vendorIDColumn is the index of vendor_id, the one number of a record.
const vendorIDColumn = 28

// titleIDColumn is the index of title_id, which a JSON record gives as our
// title id (kb.Holding.TitleID), not the provider's KBART title_id.
const titleIDColumn = int(kbart.TitleID)

// holdingKeys are the JSON member names of a record with their quotes and
// colon, in kb.HoldingColumns order.
var holdingKeys = func() (keys [kb.HoldingFieldCount]string) {
	if kb.HoldingColumns[vendorIDColumn] != "vendor_id" || kb.HoldingColumns[titleIDColumn] != "title_id" {
		panic("holdingsapi: vendor_id and title_id are not columns 28 and 11 of kb.HoldingColumns")
	}
	for i, c := range kb.HoldingColumns {
		keys[i] = strconv.Quote(c) + ":"
	}
	return keys
}()

// appendHolding appends the JSON object of one record: its 30 members in
// kb.HoldingColumns order, every one a string but vendor_id, a number.
// title_id is our title id, as a decimal string (the provider's KBART
// title_id is only in a record without one).
func appendHolding(b []byte, h *kb.Holding) ([]byte, error) {
	b = append(b, '{')
	for i, v := range h.Values {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, holdingKeys[i]...)
		if i == titleIDColumn && h.TitleID != 0 {
			b = append(b, '"')
			b = strconv.AppendInt(b, h.TitleID, 10)
			b = append(b, '"')
			continue
		}
		if i == vendorIDColumn {
			id, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				return b, fmt.Errorf("holding %q: vendor_id %q is not an integer", h.Values[0], v)
			}
			b = strconv.AppendInt(b, id, 10)
			continue
		}
		b = appendJSONString(b, v)
	}
	return append(b, '}'), nil
}

const hexDigits = "0123456789abcdef"

// jsonPlain tells the bytes appendJSONString copies as they are: ASCII but
// control characters, quote and backslash.
var jsonPlain = func() (plain [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		plain[c] = c != '"' && c != '\\'
	}
	return plain
}()

// appendJSONString appends s as a JSON string, byte for byte as
// encoding/json writes it with HTML escaping off: quotes, backslashes and
// control characters escaped (\b, \f, \n, \r and \t by name, the others as
// \u00XX), invalid UTF-8 replaced by \ufffd, U+2028 and U+2029 escaped, and
// <, > and & left as they are.
func appendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if jsonPlain[s[i]] {
			i++
			continue
		}
		if c := s[i]; c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, `\b`...)
			case '\f':
				b = append(b, `\f`...)
			case '\n':
				b = append(b, `\n`...)
			case '\r':
				b = append(b, `\r`...)
			case '\t':
				b = append(b, `\t`...)
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
