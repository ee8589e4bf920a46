package scholar

import (
	"github.com/kbserver/kbserver/internal/kb"
)

// Item is one <item type="electronic"> of a holdings file: a serial held
// in one package.
type Item struct {
	Title string
	// ISSNs are the title's valid ISSNs, normalized (1234-567X), print
	// first, then online, then any other.
	ISSNs []string
	// Coverage lists the ranges held; none means every issue, still
	// received.
	Coverage []Range
}

// Range is one <coverage> of an item.
type Range struct {
	// From and To are its first and last issues; a zero Year leaves the
	// element out (From: from the first volume; To: still received).
	From, To Issue
	// DaysNotAvailable is the embargo in days; 0 for none.
	DaysNotAvailable int
}

// Issue is a <from> or <to>: its year and month, and its volume and issue
// when known (0 when not).
type Issue struct {
	Year, Month, Volume, Issue int
}

// Embargo day counts: the format counts an embargo in days only.
const (
	DaysPerWeek  = 7
	DaysPerMonth = 30
	DaysPerYear  = 365
)

// EmbargoDays returns an embargo in days: a week as DaysPerWeek days, a
// month as DaysPerMonth and a year as DaysPerYear; 0 for none.
func EmbargoDays(e kb.Embargo) int {
	if e.Value <= 0 {
		return 0
	}
	switch e.Unit {
	case kb.EmbargoDays:
		return e.Value
	case kb.EmbargoWeeks:
		return e.Value * DaysPerWeek
	case kb.EmbargoMonths:
		return e.Value * DaysPerMonth
	case kb.EmbargoYears:
		return e.Value * DaysPerYear
	}
	return 0
}

// ItemOf returns the item of a holding, and false when the holding gives
// none: a title that is not a serial, a resource that is not selected or
// is hidden, a title without a valid ISSN. The rules are the package
// documentation's.
func ItemOf(h *kb.SerialHolding) (Item, bool) {
	var it Item
	ok := itemOf(h, &it)
	return it, ok
}

// itemOf is ItemOf into it, reusing its slices.
func itemOf(h *kb.SerialHolding, it *Item) bool {
	r := &h.Resource
	if !kb.IsSerialType(h.Title.PubType) || !r.IsSelected || r.Visibility.Hidden {
		return false
	}
	it.ISSNs = issns(it.ISSNs[:0], h.Title.Identifiers)
	if len(it.ISSNs) == 0 {
		return false
	}
	it.Title = h.Title.Name
	it.Coverage = it.Coverage[:0]
	days := EmbargoDays(kb.EffectiveEmbargo(*r))
	cov := kb.EffectiveCoverage(*r)
	var ranges []kb.IssueRange
	if len(r.CustomCoverage) == 0 && h.KBART != "" {
		ranges = kb.IssueRangesFromKBART(h.KBART)
	}
	for _, c := range cov {
		g := Range{From: issueAt(c.Begin, 1), To: issueAt(c.End, 12), DaysNotAvailable: days}
		for _, ir := range ranges {
			if ir.Coverage == c {
				if g.From.Year != 0 {
					g.From.Volume, g.From.Issue = ir.FirstVolume, ir.FirstIssue
				}
				if g.To.Year != 0 {
					g.To.Volume, g.To.Issue = ir.LastVolume, ir.LastIssue
				}
				break
			}
		}
		it.Coverage = append(it.Coverage, g)
	}
	if len(cov) == 0 && days > 0 {
		it.Coverage = append(it.Coverage, Range{DaysNotAvailable: days})
	}
	return true
}

// issns appends the valid ISSNs of ids to dst, normalized, without
// repeats: print ones first, then online ones, then the others.
func issns(dst []string, ids []kb.Identifier) []string {
	for _, sub := range [...]kb.IdentifierSubtype{kb.SubtypePrint, kb.SubtypeOnline, -1} {
		for _, id := range ids {
			if id.Type != kb.IdentISSN || (sub >= 0 && id.Subtype != sub) ||
				(sub < 0 && (id.Subtype == kb.SubtypePrint || id.Subtype == kb.SubtypeOnline)) {
				continue
			}
			n, ok := kb.NormalizeISSN(id.ID)
			if !ok || contains(dst, n) {
				continue
			}
			dst = append(dst, n)
		}
	}
	return dst
}

func contains(ss []string, s string) bool {
	for _, x := range ss {
		if x == s {
			return true
		}
	}
	return false
}

// issueAt reads the year and month of a date (yyyy, yyyy-mm or
// yyyy-mm-dd); a date without a month takes month. "" or a date that
// cannot be read gives the zero Issue.
func issueAt(date string, month int) Issue {
	if len(date) < 4 {
		return Issue{}
	}
	y := digits(date[:4])
	if y <= 0 {
		return Issue{}
	}
	if len(date) >= 7 && date[4] == '-' {
		if m := digits(date[5:7]); m >= 1 && m <= 12 {
			month = m
		}
	}
	return Issue{Year: y, Month: month}
}

// digits reads s as a decimal number of digits only; -1 when it is not
// one.
func digits(s string) int {
	n := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}
