package kbart

import (
	"strings"
	"unicode/utf8"
)

// This file reads the year out of date values written in words, as archive
// lists do: "1929 Jan.-June", "1905 Jan.-Mar.", "Jul-Sep 1853",
// "1883-1884 June", "1873, 1885-1887". KBART dates carry no such ranges, so
// the year is kept, with the same choice as for ranges of years: the first
// year named, or the last one for date_last_issue_online.

// textHow is the repair-note phrase for a year read out of words.
const textHow = "is not a date but names a year: read as"

// textYear reads the year out of a value that names one in words. A value
// made only of years, day numbers, month names and punctuation (see
// dateWords) gives its first year, or its last for date_last_issue_online.
// Otherwise a value that starts with a year followed by a space or a comma
// and goes on in words gives that year ("1901 September 21 - 1909"), or, for
// date_last_issue_online, a year ending the value.
func textYear(f Field, s string) dateResult {
	if first, last, several, ok := dateWords(s); ok {
		y, reason := first, "not a date but names a year"
		switch {
		case several && f == DateLastIssueOnline:
			y, reason = last, "not a date but names years: the last one is used"
		case several:
			reason = "not a date but names years: the first one is used"
		}
		return dateResult{norm: y, how: textHow, reason: reason}
	}
	if f == DateLastIssueOnline && len(s) > 5 {
		if y := s[len(s)-4:]; isDigits(y) && !isDigit(s[len(s)-5]) && isDigits(s[:4]) {
			if n, _ := atoiDigits(y); validDate(n, 0, 0) {
				return dateResult{norm: y, how: textHow, reason: "not a date but names years: the last one is used"}
			}
		}
	}
	if len(s) > 5 && isDigits(s[:4]) && (s[4] == ' ' || s[4] == ',') && hasLetter(s[5:]) {
		if n, _ := atoiDigits(s[:4]); validDate(n, 0, 0) {
			return dateResult{norm: s[:4], how: textHow, reason: "not a date but starts with a year"}
		}
	}
	return invalidDate(s)
}

// dateWords reads a value made only of years (four digits, 1000 to 2100),
// day numbers (one or two digits, at most 31), month and season names and a
// few linking words (see dateWord), separated by spaces, dashes, commas,
// dots, slashes, brackets or question marks. It returns the first and the
// last year named, whether they differ, and whether the value has that
// shape and names at least one year.
func dateWords(s string) (first, last string, several, ok bool) {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case isDigit(c):
			j := i + 1
			for j < len(s) && isDigit(s[j]) {
				j++
			}
			tok := s[i:j]
			n, _ := atoiDigits(tok)
			switch {
			case len(tok) == 4 && validDate(n, 0, 0):
				if first == "" {
					first = tok
				}
				several = several || tok != first
				last = tok
			case len(tok) <= 2 && n <= 31:
			default:
				return "", "", false, false
			}
			i = j
		case c|0x20 >= 'a' && c|0x20 <= 'z':
			j := i + 1
			for j < len(s) && s[j]|0x20 >= 'a' && s[j]|0x20 <= 'z' {
				j++
			}
			if !dateWord(s[i:j]) {
				return "", "", false, false
			}
			i = j
		case c < utf8.RuneSelf:
			if strings.IndexByte(" ,.-/[]?", c) < 0 {
				return "", "", false, false
			}
			i++
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			switch r {
			case '–', '—', '\u00a0':
			default:
				return "", "", false, false
			}
			i += size
		}
	}
	return first, last, several, first != ""
}

// dateWordList lists the words dateWords accepts, in lower case: English month
// names and their abbreviations, seasons, "circa" and linking words.
var dateWordList = map[string]bool{
	"january": true, "february": true, "march": true, "april": true, "may": true, "june": true,
	"july": true, "august": true, "september": true, "october": true, "november": true, "december": true,
	"jan": true, "feb": true, "mar": true, "apr": true, "jun": true, "jul": true, "aug": true,
	"sep": true, "sept": true, "oct": true, "nov": true, "dec": true,
	"spring": true, "summer": true, "autumn": true, "fall": true, "winter": true,
	"c": true, "ca": true, "circa": true, "to": true, "and": true,
}

// dateWord reports whether w (ASCII letters) is in dateWordList, in any
// case.
func dateWord(w string) bool {
	if len(w) > len("september") {
		return false
	}
	var b [9]byte
	for i := 0; i < len(w); i++ {
		b[i] = w[i] | 0x20
	}
	return dateWordList[string(b[:len(w)])]
}
