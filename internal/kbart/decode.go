package kbart

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"

	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/transform"
)

// This file turns the input bytes into lines: byte-order marks and UTF-16
// are handled before splitting, and lines end at LF, CRLF or a lone CR.

const (
	// readBufSize is the initial size of the line buffer.
	readBufSize = 256 << 10
	// maxLineSize bounds one physical line; a longer line is a fatal error.
	maxLineSize = 64 << 20
)

// errLineTooLong is returned (wrapped) for a line over maxLineSize bytes.
var errLineTooLong = errors.New("line too long")

// sniffEncoding looks at the first bytes of the input and returns a reader
// that yields UTF-8 (or single-byte text, decoded later line by line),
// together with a file note when the encoding was changed.
func sniffEncoding(in io.Reader) (io.Reader, string, error) {
	br := bufio.NewReaderSize(in, 4096)
	head, err := br.Peek(4)
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, "", fmt.Errorf("kbart: reading the start of the file: %w", err)
	}
	switch {
	case bytes.HasPrefix(head, []byte{0xEF, 0xBB, 0xBF}):
		if _, err := br.Discard(3); err != nil {
			return nil, "", fmt.Errorf("kbart: reading the start of the file: %w", err)
		}
		return br, "UTF-8 byte order mark removed", nil
	case bytes.HasPrefix(head, []byte{0xFF, 0xFE}):
		dec := unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM).NewDecoder()
		return transform.NewReader(br, dec), "file is UTF-16LE (with byte order mark): transcoded to UTF-8", nil
	case bytes.HasPrefix(head, []byte{0xFE, 0xFF}):
		dec := unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM).NewDecoder()
		return transform.NewReader(br, dec), "file is UTF-16BE (with byte order mark): transcoded to UTF-8", nil
	case len(head) == 4 && head[0] != 0 && head[1] == 0 && head[2] != 0 && head[3] == 0:
		dec := unicode.UTF16(unicode.LittleEndian, unicode.IgnoreBOM).NewDecoder()
		return transform.NewReader(br, dec), "file is UTF-16LE (no byte order mark): transcoded to UTF-8", nil
	case len(head) == 4 && head[0] == 0 && head[1] != 0 && head[2] == 0 && head[3] != 0:
		dec := unicode.UTF16(unicode.BigEndian, unicode.IgnoreBOM).NewDecoder()
		return transform.NewReader(br, dec), "file is UTF-16BE (no byte order mark): transcoded to UTF-8", nil
	}
	return br, "", nil
}

// newLineScanner returns a scanner that yields physical lines without their
// terminator. A line ends at LF, CRLF or a lone CR, so old Mac files and
// files that mix conventions split like a person would expect.
func newLineScanner(r io.Reader) *bufio.Scanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, readBufSize), maxLineSize)
	// noLF and noCR count bytes at the start of the unread data that are
	// known to hold no LF / no CR, so that a long run without one of them
	// (a CR-only file has no LF at all) is not scanned again for every line.
	var noLF, noCR int
	sc.Split(func(data []byte, atEOF bool) (int, []byte, error) {
		if len(data) == 0 {
			return 0, nil, nil
		}
		lf := -1
		if noLF < len(data) {
			if k := bytes.IndexByte(data[noLF:], '\n'); k >= 0 {
				lf = noLF + k
			}
		}
		end := len(data) // end of the region that may hold the first CR
		if lf >= 0 {
			noLF, end = lf, lf
		} else {
			noLF = len(data)
		}
		cr := -1
		if noCR < end {
			if k := bytes.IndexByte(data[noCR:end], '\r'); k >= 0 {
				cr = noCR + k
			}
		}
		if cr < 0 && end > noCR {
			noCR = end
		}
		advance, token := 0, []byte(nil)
		switch {
		case cr >= 0 && cr+1 < len(data):
			advance, token = cr+1, data[:cr]
			if data[cr+1] == '\n' {
				advance++
			}
		case cr >= 0 && atEOF:
			advance, token = cr+1, data[:cr]
		case cr >= 0:
			// A CR at the very end of the buffer: wait to see if LF follows.
			noCR = cr
			return 0, nil, nil
		case lf >= 0:
			advance, token = lf+1, data[:lf]
		case atEOF:
			advance, token = len(data), data
		default:
			return 0, nil, nil
		}
		noLF = max(noLF-advance, 0)
		noCR = max(noCR-advance, 0)
		return advance, token, nil
	})
	return sc
}
