package kbart

import (
	"strconv"
	"strings"
	"time"
)

// This file normalises the four KBART date fields to YYYY, YYYY-MM or
// YYYY-MM-DD. No regular expressions: dates are on the hot path.

// Date-order evidence gathered from a file's slash dates.
const (
	orderUnknown    int8 = iota
	orderDayFirst        // dd/mm/yyyy seen (first number > 12)
	orderMonthFirst      // mm/dd/yyyy seen (second number > 12)
)

// Year bounds for a plausible KBART date.
const (
	minYear = 1000
	maxYear = 2100
)

// Excel serial day numbers accepted as dates (about 1927 to 2119).
const (
	minExcelSerial = 10000
	maxExcelSerial = 80000
)

// dateParser holds what a file teaches about its dates.
type dateParser struct {
	pivot int  // two-digit years <= pivot are 20yy, others 19yy
	order int8 // orderUnknown, orderDayFirst or orderMonthFirst
}

// newDateParser returns a parser whose two-digit-year pivot is the current
// year's last two digits plus one.
func newDateParser(now time.Time) dateParser {
	return dateParser{pivot: now.Year()%100 + 1}
}

// dateResult says how a date value was read.
type dateResult struct {
	norm string // the normalised value; "" when invalid
	// how is empty when the value was already canonical, otherwise a short
	// phrase for the repair note ("read as", "ambiguous ...", "invalid").
	how     string
	invalid bool
	// normalized is set when the change is harmless: a time of day
	// 00:00:00 dropped from a timestamp.
	normalized bool
	// reason says why the value was changed, for Problem.Reason.
	reason string
}

// parse normalises one date value of field f (already trimmed). For a
// range of years the first year is used, except for date_last_issue_online
// which takes the last.
func (p *dateParser) parse(f Field, s string) dateResult {
	if y, m, d, ok := parseISO(s); ok {
		if !validISO(y, m, d) {
			return invalidDate(s)
		}
		return dateResult{norm: s}
	}
	// Timestamps: 2008-05-19 00:00:00, 2008-05-19T00:00:00Z.
	if len(s) > 10 && (s[10] == ' ' || s[10] == 'T') && isTimeSuffix(s[11:]) {
		if y, m, d, ok := parseISO(s[:10]); ok && validISO(y, m, d) {
			r := readAs(s[:10])
			r.reason = "a timestamp: its time of day is dropped"
			if isMidnight(s[11:]) {
				r.normalized = true
				r.reason = "a timestamp at midnight: its time of day 00:00:00 is dropped"
			}
			return r
		}
		return invalidDate(s)
	}
	// Bracketed (supplied) years: [1840].
	if len(s) > 2 && s[0] == '[' && s[len(s)-1] == ']' {
		inner := strings.TrimSpace(s[1 : len(s)-1])
		if y, ok := atoiDigits(inner); ok && len(inner) == 4 && validDate(y, 0, 0) {
			r := readAs(inner)
			r.reason = "a year in brackets"
			return r
		}
		return invalidDate(s)
	}
	if isDigits(s) {
		return p.parseNumber(s)
	}
	// Floats from spreadsheets: 2013.0 (a year) or 43214.0 (a serial).
	if i := strings.IndexByte(s, '.'); i > 0 && isDigits(s[:i]) && isDigits(s[i+1:]) && len(s) > i+1 {
		if strings.Trim(s[i+1:], "0") == "" || len(s[:i]) == 5 {
			if r := p.parseNumber(s[:i]); !r.invalid {
				return r
			}
		}
		return invalidDate(s)
	}
	if r, ok := p.parseRange(f, s); ok {
		return r
	}
	// Numbers separated by slashes or dots; a value with letters goes on
	// to textYear ("1905 Jan.-Mar." has two dots but is not d.m.y).
	if (strings.IndexByte(s, '/') >= 0 || strings.Count(s, ".") == 2) && !hasLetter(s) {
		return p.parseSlash(s)
	}
	// Loose ISO: 2010-1-5, 2010-01.
	if parts := strings.Split(s, "-"); len(parts) >= 2 && len(parts) <= 3 && len(parts[0]) == 4 {
		y, ok1 := atoiDigits(parts[0])
		m, ok2 := atoiDigits(parts[1])
		d, ok3 := 0, true
		if len(parts) == 3 {
			d, ok3 = atoiDigits(parts[2])
		}
		if ok1 && ok2 && ok3 && len(parts[1]) <= 2 && (len(parts) < 3 || len(parts[2]) <= 2) && m >= 1 && (len(parts) < 3 || d >= 1) {
			if !validDate(y, m, d) {
				return invalidDate(s)
			}
			return readAs(formatDate(y, m, d))
		}
	}
	return textYear(f, s)
}

// hasLetter reports whether s has an ASCII letter.
func hasLetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c >= 'a' && c <= 'z' {
			return true
		}
	}
	return false
}

// hasDigit reports whether s has an ASCII digit.
func hasDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if isDigit(s[i]) {
			return true
		}
	}
	return false
}

// isDigit reports whether c is an ASCII digit.
func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// parseNumber reads an all-digit value: YYYY, YYYYMM, YYYYMMDD or an Excel
// serial day number.
func (p *dateParser) parseNumber(s string) dateResult {
	n, ok := atoiDigits(s)
	if !ok {
		return invalidDate(s)
	}
	switch len(s) {
	case 4:
		if validDate(n, 0, 0) {
			return readAs(s)
		}
	case 6:
		y, m := n/100, n%100
		if validDate(y, m, 0) && m >= 1 {
			return readAs(formatDate(y, m, 0))
		}
	case 8:
		y, m, d := n/10000, n/100%100, n%100
		if m >= 1 && d >= 1 && validDate(y, m, d) {
			return readAs(formatDate(y, m, d))
		}
	case 5:
		if n >= minExcelSerial && n <= maxExcelSerial {
			t := time.Date(1899, 12, 30+n, 0, 0, 0, 0, time.UTC)
			if validDate(t.Year(), 0, 0) {
				r := readAs(formatDate(t.Year(), int(t.Month()), t.Day()))
				r.how = "read as an Excel serial day number:"
				r.reason = "an Excel serial day number"
				return r
			}
		}
	}
	return invalidDate(s)
}

// parseRange reads a range of years, 1848-1857 or 1977/1978 (spaces
// allowed around the separator), and returns its first year, or its last
// for date_last_issue_online.
func (p *dateParser) parseRange(f Field, s string) (dateResult, bool) {
	i := strings.IndexAny(s, "-/")
	if i < 0 {
		return dateResult{}, false
	}
	a, b := strings.TrimSpace(s[:i]), strings.TrimSpace(s[i+1:])
	if len(a) != 4 || len(b) != 4 || !isDigits(a) || !isDigits(b) {
		return dateResult{}, false
	}
	ya, _ := atoiDigits(a)
	yb, _ := atoiDigits(b)
	if !validDate(ya, 0, 0) || !validDate(yb, 0, 0) {
		return invalidDate(s), true
	}
	y, which := a, "first"
	if f == DateLastIssueOnline {
		y, which = b, "last"
	}
	return dateResult{norm: y, how: "is a range of years: read as its " + which + " year,",
		reason: "a range of years: its " + which + " year is used"}, true
}

// parseSlash reads dates written with slashes or dots: yyyy/mm/dd,
// dd/mm/yyyy, mm/dd/yyyy, m/d/yy and mm/yyyy. When both of the first two
// numbers are <= 12 the order is ambiguous: the file's earlier unambiguous
// dates decide, else day/month is assumed for four-digit years and
// month/day (the US spreadsheet form) for two-digit years.
func (p *dateParser) parseSlash(s string) dateResult {
	sep := "/"
	if strings.IndexByte(s, '/') < 0 {
		sep = "."
	}
	parts := strings.Split(s, sep)
	nums := make([]int, len(parts))
	for i, part := range parts {
		part = strings.TrimSpace(part)
		n, ok := atoiDigits(part)
		if !ok || len(part) > 4 {
			return invalidDate(s)
		}
		nums[i] = n
		parts[i] = part
	}
	switch len(parts) {
	case 2: // mm/yyyy
		if len(parts[1]) == 4 && len(parts[0]) <= 2 && nums[0] >= 1 && validDate(nums[1], nums[0], 0) {
			return readAs(formatDate(nums[1], nums[0], 0))
		}
		return invalidDate(s)
	case 3:
	default:
		return invalidDate(s)
	}
	if len(parts[0]) == 4 { // yyyy/mm/dd
		if len(parts[1]) <= 2 && len(parts[2]) <= 2 && nums[1] >= 1 && nums[2] >= 1 && validDate(nums[0], nums[1], nums[2]) {
			return readAs(formatDate(nums[0], nums[1], nums[2]))
		}
		return invalidDate(s)
	}
	if len(parts[0]) > 2 || len(parts[1]) > 2 {
		return invalidDate(s)
	}
	a, b, y := nums[0], nums[1], nums[2]
	switch len(parts[2]) {
	case 4:
	case 2:
		if y <= p.pivot {
			y += 2000
		} else {
			y += 1900
		}
	default:
		return invalidDate(s)
	}
	var d, m int
	how := ""
	switch {
	case a > 12 && b > 12:
		return invalidDate(s)
	case a > 12:
		d, m = a, b
		if p.order == orderUnknown {
			p.order = orderDayFirst
		}
	case b > 12:
		m, d = a, b
		if p.order == orderUnknown {
			p.order = orderMonthFirst
		}
	case a == b:
		d, m = a, b
	default:
		dayFirst := len(parts[2]) == 4
		why := "assumed"
		if p.order != orderUnknown {
			dayFirst = p.order == orderDayFirst
			why = "as in this file's other dates"
		}
		if dayFirst {
			d, m = a, b
			how = "is ambiguous (day/month or month/day): read as day/month (" + why + "),"
		} else {
			m, d = a, b
			how = "is ambiguous (day/month or month/day): read as month/day (" + why + "),"
		}
	}
	if d < 1 || m < 1 || !validDate(y, m, d) {
		return invalidDate(s)
	}
	r := readAs(formatDate(y, m, d))
	if how != "" {
		r.how = how
		r.reason = strings.TrimSuffix(how[len("is "):], ",")
	}
	return r
}

// readAs returns a successful result for a reformatted value.
func readAs(norm string) dateResult {
	return dateResult{norm: norm, how: "read as", reason: "not written YYYY, YYYY-MM or YYYY-MM-DD"}
}

// reasonWordDate is the Problem.Reason for a word in a date column.
const reasonWordDate = "a word, not a date"

// invalidDate returns the result for a value that is not a usable date.
// Its reason tells a word (free text, a publisher's name, "Serial") from a
// malformed or impossible date.
func invalidDate(s string) dateResult {
	reason := "not a valid date (YYYY, YYYY-MM or YYYY-MM-DD with a year from 1000 to 2100)"
	if hasLetter(s) && !hasDigit(s) {
		reason = reasonWordDate
	}
	return dateResult{how: "is not a valid date", invalid: true, reason: reason}
}

// isMidnight reports whether the time part of a timestamp (see
// isTimeSuffix) is midnight: 00:00, 00:00:00, 00:00:00.000, with or
// without a zone.
func isMidnight(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '0', ':', '.':
		case 'Z', '+', '-':
			return i > 0
		default:
			return false
		}
	}
	return true
}

// parseISO parses the shape of canonical YYYY, YYYY-MM or YYYY-MM-DD. It
// returns the numbers with -1 for the absent parts, so that an explicit 00
// month or day (0) can be told from an absent one; see validISO.
func parseISO(s string) (y, m, d int, ok bool) {
	m, d = -1, -1
	switch len(s) {
	case 4, 7, 10:
	default:
		return 0, 0, 0, false
	}
	if y, ok = atoiDigits(s[:4]); !ok {
		return 0, 0, 0, false
	}
	if len(s) >= 7 {
		if s[4] != '-' {
			return 0, 0, 0, false
		}
		if m, ok = atoiDigits(s[5:7]); !ok {
			return 0, 0, 0, false
		}
	}
	if len(s) == 10 {
		if s[7] != '-' {
			return 0, 0, 0, false
		}
		if d, ok = atoiDigits(s[8:10]); !ok {
			return 0, 0, 0, false
		}
	}
	return y, m, d, true
}

// validISO checks the numbers returned by parseISO.
func validISO(y, m, d int) bool {
	if m == 0 || d == 0 {
		return false
	}
	return validDate(y, max(m, 0), max(d, 0))
}

// validDate checks a year (minYear..maxYear), an optional month (0 = none)
// and an optional day (0 = none) that must exist in that month.
func validDate(y, m, d int) bool {
	if y < minYear || y > maxYear || m < 0 || m > 12 || d < 0 {
		return false
	}
	if m == 0 {
		return d == 0
	}
	return d <= daysIn(y, m)
}

// daysIn returns the number of days in month m of year y.
func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// formatDate formats y, m (0 = none) and d (0 = none) as YYYY[-MM[-DD]].
func formatDate(y, m, d int) string {
	b := make([]byte, 0, 10)
	b = append(b, byte('0'+y/1000), byte('0'+y/100%10), byte('0'+y/10%10), byte('0'+y%10))
	if m > 0 {
		b = append(b, '-', byte('0'+m/10), byte('0'+m%10))
		if d > 0 {
			b = append(b, '-', byte('0'+d/10), byte('0'+d%10))
		}
	}
	return string(b)
}

// isTimeSuffix reports whether s looks like the time part of a timestamp
// (00:00:00, 00:00:00.000, 00:00:00Z, 00:00+01:00).
func isTimeSuffix(s string) bool {
	if len(s) < 4 || s[0] < '0' || s[0] > '9' {
		return false
	}
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c == ':', c == '.', c == 'Z', c == '+', c == '-':
		default:
			return false
		}
	}
	return true
}

// isDigits reports whether s is a non-empty run of ASCII digits.
func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// atoiDigits parses a non-empty run of at most 9 ASCII digits.
func atoiDigits(s string) (int, bool) {
	if len(s) == 0 || len(s) > 9 {
		return 0, false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// dateBefore reports whether normalised date a is before b, comparing only
// the precision both have (2010 is not before 2010-05).
func dateBefore(a, b string) bool {
	n := min(len(a), len(b))
	return a[:n] < b[:n]
}

// quoteShort quotes a value for a message, shortening very long values.
func quoteShort(s string) string {
	const maxLen = 120
	if len(s) > maxLen {
		cut := maxLen
		for cut > 0 && s[cut]&0xC0 == 0x80 {
			cut--
		}
		s = s[:cut] + "…"
	}
	return strconv.Quote(s)
}
