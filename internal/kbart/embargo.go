package kbart

import "strconv"

// Embargo is a parsed KBART embargo_info value. Recent is the "R" part:
// only the most recent Value units are available. Period is the "P" part:
// the most recent Value units are not available (a moving wall). Either may
// be zero.
type Embargo struct {
	Recent, Period Period
}

// Period is a length of time in whole days ('D'), weeks ('W'), months
// ('M') or years ('Y'). A zero Value means none.
type Period struct {
	Value int
	Unit  byte
}

// maxEmbargoValue bounds the number in an embargo period.
const maxEmbargoValue = 9999

// ParseEmbargo parses KBART embargo notation: "P1Y", "R6M", "R10Y;P30D"
// and so on, in any case, with spaces tolerated around the parts. At most
// one R and one P part may appear, in either order, separated by ';'. An
// empty (or all-space) value means no embargo and returns the zero Embargo
// and true. ok is false when s is not KBART notation, such as a date,
// "Moving Wall: 3 years" or a publisher name.
func ParseEmbargo(s string) (Embargo, bool) {
	var e Embargo
	rest := s
	seen := false
	for {
		part := rest
		semi := -1
		for i := 0; i < len(rest); i++ {
			if rest[i] == ';' {
				semi = i
				break
			}
		}
		if semi >= 0 {
			part, rest = rest[:semi], rest[semi+1:]
		}
		part = trimSpaces(part)
		if part == "" {
			if semi >= 0 || seen {
				return Embargo{}, false // an empty part: ";P1Y" or "P1Y;"
			}
			return Embargo{}, trimSpaces(s) == ""
		}
		kind, p, ok := parsePeriod(part)
		if !ok {
			return Embargo{}, false
		}
		target := &e.Period
		if kind == 'R' {
			target = &e.Recent
		}
		if target.Unit != 0 {
			return Embargo{}, false // two R or two P parts
		}
		*target = p
		seen = true
		if semi < 0 {
			return e, true
		}
	}
}

// parsePeriod parses one part such as "P1Y" or "r 6 m".
func parsePeriod(s string) (kind byte, p Period, ok bool) {
	kind = upper(s[0])
	if kind != 'R' && kind != 'P' {
		return 0, Period{}, false
	}
	s = trimSpaces(s[1:])
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	if i == 0 || i > 4 {
		return 0, Period{}, false
	}
	n, _ := strconv.Atoi(s[:i])
	unit := trimSpaces(s[i:])
	if len(unit) != 1 || n > maxEmbargoValue {
		return 0, Period{}, false
	}
	switch u := upper(unit[0]); u {
	case 'D', 'W', 'M', 'Y':
		return kind, Period{Value: n, Unit: u}, true
	}
	return 0, Period{}, false
}

// format returns the canonical notation of e, such as "R10Y;P30D".
func (e Embargo) format() string {
	s := ""
	if e.Recent.Unit != 0 {
		s = "R" + strconv.Itoa(e.Recent.Value) + string(e.Recent.Unit)
	}
	if e.Period.Unit != 0 {
		if s != "" {
			s += ";"
		}
		s += "P" + strconv.Itoa(e.Period.Value) + string(e.Period.Unit)
	}
	return s
}

// upper returns the upper-case form of an ASCII letter.
func upper(c byte) byte {
	if c >= 'a' && c <= 'z' {
		return c - ('a' - 'A')
	}
	return c
}

// trimSpaces removes leading and trailing ASCII spaces.
func trimSpaces(s string) string {
	for len(s) > 0 && s[0] == ' ' {
		s = s[1:]
	}
	for len(s) > 0 && s[len(s)-1] == ' ' {
		s = s[:len(s)-1]
	}
	return s
}
