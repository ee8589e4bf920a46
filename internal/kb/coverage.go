package kb

import (
	"sort"
	"strconv"
	"time"
)

// CoverageFromKBART turns a KBART row's date_first_issue_online and
// date_last_issue_online (yyyy, yyyy-mm or yyyy-mm-dd) into a coverage range
// of full dates: a partial begin date takes the first day of its year or
// month, a partial end date the last. ok is false when begin is empty or
// unreadable; an empty or unreadable end means "to the present".
func CoverageFromKBART(first, last string) (c Coverage, ok bool) {
	b, ok := expandDate(first, false)
	if !ok {
		return Coverage{}, false
	}
	e, _ := expandDate(last, true)
	return Coverage{Begin: b, End: e}, true
}

// expandDate reads yyyy, yyyy-mm or yyyy-mm-dd and returns yyyy-mm-dd, taking
// the first (or, when end is true, the last) day of a partial date.
func expandDate(s string, end bool) (string, bool) {
	var y, m, d int
	var err error
	switch len(s) {
	case 4:
		if y, err = strconv.Atoi(s); err != nil {
			return "", false
		}
		m, d = 1, 1
		if end {
			m, d = 12, 31
		}
	case 7:
		if s[4] != '-' {
			return "", false
		}
		if y, err = strconv.Atoi(s[:4]); err != nil {
			return "", false
		}
		if m, err = strconv.Atoi(s[5:]); err != nil || m < 1 || m > 12 {
			return "", false
		}
		d = 1
		if end {
			d = time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day()
		}
	case 10:
		// A full date is its own expansion when it is one: read without
		// time.Parse, which costs most of an import row's dates.
		if s[4] != '-' || s[7] != '-' {
			return "", false
		}
		y, m, d = fixedDigits(s[:4]), fixedDigits(s[5:7]), fixedDigits(s[8:])
		if y < 0 || m < 1 || m > 12 || d < 1 || d > time.Date(y, time.Month(m)+1, 0, 0, 0, 0, 0, time.UTC).Day() {
			return "", false
		}
		return s, true
	default:
		return "", false
	}
	return time.Date(y, time.Month(m), d, 0, 0, 0, 0, time.UTC).Format(time.DateOnly), true
}

// fixedDigits reads s, decimal digits only, as a number; -1 when s holds
// anything else.
func fixedDigits(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return -1
		}
		n = n*10 + int(s[i]-'0')
	}
	return n
}

// SortCoverage orders coverage ranges newest first (by begin date, then end
// date with "to the present" newest), the order the API uses.
func SortCoverage(cs []Coverage) {
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].Begin != cs[j].Begin {
			return cs[i].Begin > cs[j].Begin
		}
		return endKey(cs[i].End) > endKey(cs[j].End)
	})
}

func endKey(e string) string {
	if e == "" {
		return "9999-99-99"
	}
	return e
}

// CheckCoverageList checks custom coverage ranges as the API receives them:
// dates are yyyy-mm-dd, a begin date is required and not after its end date
// (an empty end date means "to the present"), and the ranges come newest
// first: no date of a range may exceed the begin date of the range before.
func CheckCoverageList(cs []Coverage) error {
	for i, c := range cs {
		if !isDate(c.Begin) {
			return Errorf(CodeInvalid, "beginCoverage has an invalid date.")
		}
		if c.End != "" && !isDate(c.End) {
			return Errorf(CodeInvalid, "endCoverage has an invalid date.")
		}
		if c.End != "" && c.End < c.Begin {
			return Errorf(CodeInvalid, "beginCoverage %s is after endCoverage %s.", c.Begin, c.End)
		}
		if i > 0 {
			prev := cs[i-1].Begin
			if c.Begin > prev || c.End == "" || c.End > prev {
				return Errorf(CodeInvalid, "CoverageList contains a date that exceeds a previous date value")
			}
		}
	}
	return nil
}

func isDate(s string) bool {
	if len(s) != 10 {
		return false
	}
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}
