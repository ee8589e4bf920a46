package kb

import "strconv"

// BadEscape returns the offset and the text of the first \\u escape of the
// JSON text b (valid JSON) that encoding/json accepts but that is no
// character to keep: \\u0000, or a surrogate escape that is not a high one
// followed by a low one (encoding/json turns those into U+FFFD; PostgreSQL's
// jsonb refuses both). It returns -1, "" when there is none.
func BadEscape(b []byte) (int, string) {
	in := false
	for i := 0; i < len(b); i++ {
		switch c := b[i]; {
		case !in:
			in = c == '"'
		case c == '"':
			in = false
		case c == '\\':
			i++
			if i+4 >= len(b) || b[i] != 'u' {
				continue
			}
			at := i - 1
			r, _ := strconv.ParseUint(string(b[i+1:i+5]), 16, 32)
			esc := string(b[at : i+5])
			i += 4
			switch {
			case r == 0, 0xDC00 <= r && r <= 0xDFFF:
				return at, esc
			case 0xD800 <= r && r <= 0xDBFF:
				if i+6 >= len(b) || b[i+1] != '\\' || b[i+2] != 'u' {
					return at, esc
				}
				lo, _ := strconv.ParseUint(string(b[i+3:i+7]), 16, 32)
				if lo < 0xDC00 || lo > 0xDFFF {
					return at, esc
				}
				i += 6
			}
		}
	}
	return -1, ""
}
