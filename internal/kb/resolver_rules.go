package kb

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// This file holds the link resolver's rules: which of a customer's
// resources cover a citation, why the others do not, which links each
// gives and in which order the results come. They are pure; the resolver
// service (package resolver) reads the resources and applies them.

// Reason says why a held resource does not give the full text a citation
// asks for. The zero Reason is "covered".
type Reason string

// Reasons.
const (
	ReasonCovered Reason = ""
	// ReasonBefore: the citation is older than every coverage range.
	ReasonBefore Reason = "before-coverage"
	// ReasonAfter: the citation is newer than every coverage range.
	ReasonAfter Reason = "after-coverage"
	// ReasonGap: the citation falls between two coverage ranges.
	ReasonGap Reason = "between-coverage-ranges"
	// ReasonEmbargo: the citation is inside the embargo, the most recent
	// period that is not available.
	ReasonEmbargo Reason = "embargo"
	// ReasonNoURL: the resource has no address to link to.
	ReasonNoURL Reason = "no-url"
)

// Words says a reason to a patron.
func (r Reason) Words() string {
	switch r {
	case ReasonBefore:
		return "The citation is older than the library's coverage of this title here."
	case ReasonAfter:
		return "The citation is newer than the library's coverage of this title here."
	case ReasonGap:
		return "The citation falls in a gap of the library's coverage of this title here."
	case ReasonEmbargo:
		return "The citation is in the embargo: the publisher makes the most recent issues available here only later."
	case ReasonNoURL:
		return "The library has this title here but no address to link to."
	}
	return ""
}

// LinkLevel is how deep a resolver's link goes.
type LinkLevel string

// Link levels.
const (
	LevelArticle LinkLevel = "article" // the article itself, through its DOI
	LevelTitle   LinkLevel = "title"   // the journal's or book's page
)

// IssueRange is one managed coverage range as a KBART row gives it: its
// dates (Coverage) and, where the row has them, the volume and issue
// numbers of its first and last issues (0 when not given).
type IssueRange struct {
	Coverage
	FirstVolume, FirstIssue, LastVolume, LastIssue int
}

// The KBART fields an IssueRange is read from, by position in a row.
const (
	kbartDateFirst  = 3
	kbartVolFirst   = 4
	kbartIssueFirst = 5
	kbartDateLast   = 6
	kbartVolLast    = 7
	kbartIssueLast  = 8
)

// IssueRangesFromKBART reads the ranges of a resource's KBART rows
// (tab-separated fields, rows newline separated, as the store keeps
// them). A row whose begin date cannot be read has an empty Coverage;
// its volumes still count.
func IssueRangesFromKBART(rows string) []IssueRange {
	var out []IssueRange
	for rest := rows; rest != ""; {
		var line string
		line, rest, _ = strings.Cut(rest, "\n")
		if line == "" {
			continue
		}
		// The fields up to the last one read, each trimmed; "" past the
		// row's end. (Splitting the whole row cost most of the time of
		// Google Scholar's holdings files.)
		var f [kbartIssueLast + 1]string
		for i, l := 0, line; i < len(f); i++ {
			v, more, ok := strings.Cut(l, "\t")
			f[i] = strings.TrimSpace(v)
			if !ok {
				break
			}
			l = more
		}
		var r IssueRange
		r.Coverage, _ = CoverageFromKBART(f[kbartDateFirst], f[kbartDateLast])
		r.FirstVolume, r.FirstIssue = leadingNumber(f[kbartVolFirst]), leadingNumber(f[kbartIssueFirst])
		r.LastVolume, r.LastIssue = leadingNumber(f[kbartVolLast]), leadingNumber(f[kbartIssueLast])
		out = append(out, r)
	}
	return out
}

// leadingNumber returns the whole number s begins with, 0 when none or
// when it is past maxVolume.
func leadingNumber(s string) int {
	i := 0
	for i < len(s) && s[i] >= '0' && s[i] <= '9' {
		i++
	}
	n, err := strconv.Atoi(s[:i])
	if err != nil || n > maxVolume {
		return 0
	}
	return n
}

// EffectiveCoverage is a resource's coverage as the resolver applies it:
// the customer's custom coverage when it has set one, else the managed
// coverage. Empty means the coverage is not known, which the resolver
// takes as every date.
func EffectiveCoverage(r Resource) []Coverage {
	if len(r.CustomCoverage) > 0 {
		return r.CustomCoverage
	}
	return r.ManagedCoverage
}

// EffectiveEmbargo is a resource's embargo: the customer's custom embargo
// when it has set one, else the managed one.
func EffectiveEmbargo(r Resource) Embargo {
	if r.CustomEmbargo.Unit != EmbargoNone && r.CustomEmbargo.Value > 0 {
		return r.CustomEmbargo
	}
	if r.ManagedEmbargo.Unit != EmbargoNone && r.ManagedEmbargo.Value > 0 {
		return r.ManagedEmbargo
	}
	return Embargo{}
}

// EmbargoCutoff returns the last day that an embargo of e leaves
// available, counted back from today (yyyy-mm-dd); "" when e is none.
// Months and years are counted on the calendar: a month back from
// March 31 is the last day of February.
func EmbargoCutoff(e Embargo, today time.Time) string {
	var d time.Time
	switch e.Unit {
	case EmbargoDays:
		d = today.AddDate(0, 0, -e.Value)
	case EmbargoWeeks:
		d = today.AddDate(0, 0, -7*e.Value)
	case EmbargoMonths:
		d = monthsBack(today, e.Value)
	case EmbargoYears:
		d = monthsBack(today, 12*e.Value)
	default:
		return ""
	}
	if e.Value <= 0 {
		return ""
	}
	return d.Format(time.DateOnly)
}

// monthsBack returns the day n months before today, the last day of its
// month when that month is shorter than today's day (time.AddDate would
// roll over into the month after).
func monthsBack(today time.Time, n int) time.Time {
	y, m, d := today.Date()
	first := time.Date(y, m-time.Month(n), 1, 0, 0, 0, 0, time.UTC)
	last := first.AddDate(0, 1, -1).Day()
	return time.Date(first.Year(), first.Month(), min(d, last), 0, 0, 0, 0, time.UTC)
}

// Judge decides whether a held resource covers a citation, and why not.
// ranges are the resource's managed ranges with their volumes
// (IssueRangesFromKBART), read only when the citation has a volume and no
// date; nil otherwise. today is the resolver's date. dated reports
// whether the citation was checked against the coverage (a date, or a
// volume with known volume ranges), which an article-level link needs.
//
// The rules, in order:
//   - A citation with a date covers the period it names (a year, a month,
//     a day). It is inside a coverage range when the period and the range
//     overlap (a range without an end runs to today); with no range
//     overlapping, it is before them all, after them all, or between two.
//     A resource without coverage covers every date.
//   - Then the embargo: the citation is in it when its period begins
//     after the embargo's cutoff (EmbargoCutoff).
//   - A citation with a volume and no date is checked against the managed
//     ranges that give volume numbers, when the customer has not set its
//     own coverage (which has dates only): the volume (and the issue, in
//     the first and last volume) must lie between a range's first and
//     last. A range without a last volume has no upper bound in volumes,
//     whether it runs on (no end date) or ended (its last volume is not
//     known). With no such range, the volume cannot be checked.
//   - A citation without a date and a volume that can be checked is
//     covered: the resource is held (its availability).
//   - A covered resource without a URL does not give the full text
//     (ReasonNoURL).
func Judge(c Citation, r Resource, ranges []IssueRange, today time.Time) (reason Reason, dated bool) {
	switch {
	case c.Date != "":
		dated = true
		reason = judgeDate(c.Date, EffectiveCoverage(r), EffectiveEmbargo(r), today)
	case c.Volume != "" && len(r.CustomCoverage) == 0:
		reason, dated = judgeVolume(c, ranges)
	}
	if reason == ReasonCovered && r.URL == "" {
		reason = ReasonNoURL
	}
	return reason, dated
}

// judgeDate checks a citation's date against coverage and embargo.
func judgeDate(date string, cov []Coverage, emb Embargo, today time.Time) Reason {
	begin, _ := expandDate(date, false)
	end, _ := expandDate(date, true)
	if len(cov) > 0 {
		before, after := true, true
		inside := false
		for _, r := range cov {
			rEnd := r.End
			if rEnd == "" {
				rEnd = today.Format(time.DateOnly) // "to the present"
			}
			if begin <= rEnd && end >= r.Begin {
				inside = true
				break
			}
			// The citation is before this range or after it. (A range
			// that begins after today, which runs to today, is both:
			// the citation is before it.)
			if end < r.Begin {
				after = false
			} else {
				before = false
			}
		}
		switch {
		case inside:
		case before:
			return ReasonBefore
		case after:
			return ReasonAfter
		default:
			return ReasonGap
		}
	}
	if cut := EmbargoCutoff(emb, today); cut != "" && begin > cut {
		return ReasonEmbargo
	}
	return ReasonCovered
}

// judgeVolume checks a citation's volume (and issue) against the ranges
// that give volume numbers; checked is false when none does.
func judgeVolume(c Citation, ranges []IssueRange) (reason Reason, checked bool) {
	vol, _ := strconv.Atoi(c.Volume)
	issue, _ := strconv.Atoi(c.Issue)
	before, after := true, true
	for _, r := range ranges {
		if r.FirstVolume == 0 && r.LastVolume == 0 {
			continue
		}
		checked = true
		afterFirst := r.FirstVolume == 0 || vol > r.FirstVolume ||
			(vol == r.FirstVolume && (issue == 0 || r.FirstIssue == 0 || issue >= r.FirstIssue))
		beforeLast := r.LastVolume == 0 || vol < r.LastVolume ||
			(vol == r.LastVolume && (issue == 0 || r.LastIssue == 0 || issue <= r.LastIssue))
		if afterFirst && beforeLast {
			return ReasonCovered, true
		}
		if afterFirst {
			before = false
		}
		if beforeLast {
			after = false
		}
	}
	switch {
	case !checked:
		return ReasonCovered, false
	case before:
		return ReasonBefore, true
	case after:
		return ReasonAfter, true
	}
	return ReasonGap, true
}

// Resolved is one held resource of a title a citation matched, judged.
type Resolved struct {
	Title    Title // the title, with only this resource in Resources
	Resource Resource
	Reason   Reason
	// Links are the resource's links, best first: the article (by the
	// citation's DOI) when the resource covers a dated citation, then the
	// resource's address. None when it does not cover the citation.
	Links []ResolvedLink
}

// Covered reports whether the resource gives the full text.
func (r Resolved) Covered() bool { return r.Reason == ReasonCovered }

// ResolvedLink is one link of a resolved resource: its level and, for an
// article, the DOI it leads to; the address itself is the resource's (or
// https://doi.org/ and the DOI) through the customer's proxy, made by the
// link-out.
type ResolvedLink struct {
	Level LinkLevel
	DOI   string
}

// DOIURL returns the address of a DOI at the DOI resolver, every byte of
// the DOI but the unreserved characters of RFC 3986, '/', '(' and ')'
// (common in DOIs, and harmless in a query) escaped: a
// proxy mask takes its target unescaped, and a DOI must not be able to
// add a parameter (&url=…) to the proxy's address.
func DOIURL(doi string) string {
	const hex = "0123456789ABCDEF"
	b := []byte("https://doi.org/")
	for i := 0; i < len(doi); i++ {
		c := doi[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '.', c == '_', c == '~', c == '/', c == '(', c == ')':
			b = append(b, c)
		default:
			b = append(b, '%', hex[c>>4], hex[c&15])
		}
	}
	return string(b)
}

// LinkTargetURL is where a link-out of link leads: the resource's
// address, or for an article-level link (a DOI) the DOI's address, through
// the link's proxy (TargetURL).
func LinkTargetURL(link ResourceLink, doi string) string {
	if doi != "" {
		link.URL, link.VendorToken, link.PackageToken = DOIURL(doi), nil, nil
	}
	return TargetURL(link)
}

// ResolverLinks returns the links of a resource judged with reason for
// the citation c (dated as Judge said).
func ResolverLinks(c Citation, reason Reason, dated bool) []ResolvedLink {
	if reason != ReasonCovered {
		return nil
	}
	var ls []ResolvedLink
	if c.DOI != "" && dated {
		ls = append(ls, ResolvedLink{Level: LevelArticle, DOI: c.DOI})
	}
	return append(ls, ResolvedLink{Level: LevelTitle})
}

// SortResolved orders results best first: those that give the full text
// first, with an article-level link before those without; then those whose
// coverage reaches furthest (a range without an end first); then by
// package name, package id and title id.
func SortResolved(rs []Resolved) {
	slices.SortStableFunc(rs, func(a, b Resolved) int {
		if c := cmp.Compare(rankOf(a), rankOf(b)); c != 0 {
			return c
		}
		if c := cmp.Compare(latestEnd(b.Resource), latestEnd(a.Resource)); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Resource.PackageName, b.Resource.PackageName); c != 0 {
			return c
		}
		if c := cmp.Compare(a.Resource.PackageID, b.Resource.PackageID); c != 0 {
			return c
		}
		return cmp.Compare(a.Title.ID, b.Title.ID)
	})
}

func rankOf(r Resolved) int {
	switch {
	case r.Covered() && len(r.Links) > 0 && r.Links[0].Level == LevelArticle:
		return 0
	case r.Covered():
		return 1
	}
	return 2
}

// latestEnd is the end of a resource's effective coverage that reaches
// furthest, "9999-12-31" for an open one or none.
func latestEnd(r Resource) string {
	cov := EffectiveCoverage(r)
	if len(cov) == 0 {
		return "9999-12-31"
	}
	best := ""
	for _, c := range cov {
		e := c.End
		if e == "" {
			e = "9999-12-31"
		}
		best = max(best, e)
	}
	return best
}
