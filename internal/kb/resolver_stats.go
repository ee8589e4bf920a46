package kb

import (
	"context"
	"strings"
	"time"
	"unicode/utf8"
)

// What the link resolver saw: its requests and their outcome, counted by
// month, citing source and best result; the requests without full text
// counted by what they sought (the unmet demand); and the link-outs'
// clicks, counted by month and by the page they were made for (LinkVia).
// A recorder (package resolverstats) counts the resolver's events in
// memory and adds them to the store now and then; the store adds each
// count to the one it holds, so that every server over one database
// contributes to the same rows.

// Month is a calendar month in UTC, written yyyy-mm: the unit the
// statistics are counted in. Months compare as strings.
type Month string

// MonthOf returns the month of t in UTC.
func MonthOf(t time.Time) Month { return Month(t.UTC().Format("2006-01")) }

// ParseMonth reads yyyy-mm, years 1000 to 9999, months 01 to 12.
func ParseMonth(s string) (Month, bool) {
	if len(s) != 7 || s[4] != '-' || s[0] == '0' {
		return "", false
	}
	t, err := time.Parse("2006-01", s)
	if err != nil {
		return "", false
	}
	return MonthOf(t), true
}

// start returns the first instant of the month (the zero time for a
// month that is not one).
func (m Month) start() time.Time {
	t, _ := time.Parse("2006-01", string(m))
	return t
}

// AddMonths returns the month n months after m (before it for a negative
// n).
func (m Month) AddMonths(n int) Month { return MonthOf(m.start().AddDate(0, n, 0)) }

// MonthsFromTo returns the number of months from from to to, both
// counted: 1 when they are the same month, 0 or less when from is after
// to.
func MonthsFromTo(from, to Month) int {
	f, t := from.start(), to.start()
	return (t.Year()-f.Year())*12 + int(t.Month()-f.Month()) + 1
}

// Limits of the statistics.
const (
	// StatsDefaultMonths is how many months, up to the current one, the
	// statistics cover when no range is asked for.
	StatsDefaultMonths = 12
	// MaxStatsMonths is the longest range of months one answer covers.
	MaxStatsMonths = 120
	// MaxStatsSource and MaxSoughtTitle are the lengths, in bytes, a
	// citing source and a sought title are cut to before they are
	// counted: a resolver is sent metadata of every length, and its
	// statistics keep each distinct value.
	MaxStatsSource = 200
	MaxSoughtTitle = 300
	// MaxSoughtID is the length a sought identifier is cut to (an ISSN
	// or an ISBN-13 is shorter).
	MaxSoughtID = 20
)

// StatsRange returns the months from and to that the statistics cover:
// those given, or (each when not given) to the current month of now, and
// from StatsDefaultMonths months before to. CodeInvalid, naming the
// parameter, when from is after to or the range is longer than
// MaxStatsMonths.
func StatsRange(from, to Month, now time.Time) (Month, Month, error) {
	if to == "" {
		to = MonthOf(now)
	}
	if from == "" {
		from = to.AddMonths(1 - StatsDefaultMonths)
	}
	switch n := MonthsFromTo(from, to); {
	case n < 1:
		return "", "", Errorf(CodeInvalid, "Parameter from (%s) must not be after parameter to (%s).", from, to)
	case n > MaxStatsMonths:
		return "", "", Errorf(CodeInvalid, "Parameters from and to span %d months; at most %d are allowed.", n, MaxStatsMonths)
	}
	return from, to, nil
}

// ResolverRequestKey is what the resolver's requests are counted by: the
// customer, the month, the citing source ("" for none), the best result's
// title and package (0 when nothing matched) and whether it gave the full
// text.
type ResolverRequestKey struct {
	CustomerID         string
	Month              Month
	Source             string
	TitleID, PackageID int64
	FullText           bool
}

// UnmetKey is what the requests without full text are counted by: the
// customer, the month, and what was sought: the citation's title and its
// first ISSN or ISBN (each "" when the citation had none).
type UnmetKey struct {
	CustomerID string
	Month      Month
	Title, ID  string
}

// ResolverCounts are counts of resolver requests to add to the store's.
type ResolverCounts struct {
	Requests map[ResolverRequestKey]int64
	Unmet    map[UnmetKey]int64
}

// Len returns the number of keys counted.
func (c ResolverCounts) Len() int { return len(c.Requests) + len(c.Unmet) }

// ResolverEventKeys returns the keys an event is counted by: its request,
// and what it sought when it found no full text (ok false when it found
// the full text, or sought neither title nor identifier). The source and
// the sought title are trimmed, their runs of white space made one space,
// and cut to MaxStatsSource and MaxSoughtTitle bytes.
func ResolverEventKeys(ev ResolverEvent) (req ResolverRequestKey, unmet UnmetKey, ok bool) {
	m := MonthOf(ev.Time)
	req = ResolverRequestKey{CustomerID: ev.CustomerID, Month: m, Source: statsText(ev.Source, MaxStatsSource),
		TitleID: max(ev.TitleID, 0), PackageID: max(ev.PackageID, 0), FullText: ev.FullText}
	if ev.FullText {
		return req, UnmetKey{}, false
	}
	unmet = UnmetKey{CustomerID: ev.CustomerID, Month: m, Title: statsText(ev.SoughtTitle, MaxSoughtTitle), ID: statsText(ev.SoughtID, MaxSoughtID)}
	return req, unmet, unmet.Title != "" || unmet.ID != ""
}

// statsText is s with its white space runs made one space, trimmed and cut
// to n bytes (at the start of a character).
func statsText(s string, n int) string {
	// Only text both stores keep: valid UTF-8 without control characters
	// (PostgreSQL refuses NUL, and one refused key would hold back every
	// other count of the flush).
	s = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(s, " "))
	return strings.TrimSpace(Truncate(strings.Join(strings.Fields(s), " "), n))
}

// StatsGroup is what the resolver's statistics are grouped by.
type StatsGroup string

// The groupings of the statistics.
const (
	StatsByMonth   StatsGroup = "month"
	StatsByPackage StatsGroup = "package"
	StatsByTitle   StatsGroup = "title"
	StatsBySource  StatsGroup = "source"
)

// StatsGroups lists the groupings in the order they are offered.
func StatsGroups() []StatsGroup {
	return []StatsGroup{StatsByMonth, StatsByPackage, StatsByTitle, StatsBySource}
}

// ParseStatsGroup reads a grouping's name in any case.
func ParseStatsGroup(s string) (StatsGroup, bool) {
	for _, g := range StatsGroups() {
		if strings.EqualFold(s, string(g)) {
			return g, true
		}
	}
	return "", false
}

// ResolverStatsQuery asks for a customer's statistics from one month to
// another (both counted), grouped by By.
type ResolverStatsQuery struct {
	By       StatsGroup
	From, To Month
}

// ResolverTally is what is counted of one group: the resolver's requests,
// those that found the full text, and the link-outs' clicks made from the
// resolver's answers and from the A–Z page (the publication search
// service).
type ResolverTally struct {
	Requests, FullText       int64
	ResolverClicks, AZClicks int64
}

// NotFound returns the number of requests that found no full text.
func (t ResolverTally) NotFound() int64 { return t.Requests - t.FullText }

// ResolverStatsRow is one group of the statistics: a month, a package, a
// title or a citing source, as the query's By says (the other key fields
// are zero). A package or title id of 0 groups the requests that matched
// no title. The clicks of a link-out are not known by citing source: they
// are 0 in the rows of StatsBySource (the totals count them).
type ResolverStatsRow struct {
	Month                   Month
	PackageID               int64
	PackageName, VendorName string
	TitleID                 int64
	TitleName               string
	Source                  string
	ResolverTally
}

// ResolverStats are a customer's statistics: the groups, and the totals
// of the whole range. By month every month of the range has a row, in
// order; otherwise only groups with a count do, the most requested
// first (then the most clicked, then by name or source).
type ResolverStats struct {
	Query  ResolverStatsQuery
	Totals ResolverTally
	Rows   []ResolverStatsRow
}

// UnmetQuery asks for a page of a customer's unmet demand from one month
// to another (both counted); a Page.Count of 0 asks for every entry.
type UnmetQuery struct {
	From, To Month
	Page     Page
}

// UnmetDemand is one thing patrons sought and the resolver found no full
// text for: its title and identifier as cited, the number of requests,
// and the last month it was sought in.
type UnmetDemand struct {
	Title, ID string
	Requests  int64
	LastMonth Month
}

// UnmetList is a page of the unmet demand, the most requested first (then
// by title and identifier), and the number of entries of the whole range.
type UnmetList struct {
	Total int
	Items []UnmetDemand
}

// ResolverCountWriter adds the resolver's counts to the store.
type ResolverCountWriter interface {
	// AddResolverCounts adds every count to the stored one (a key not
	// stored yet starts at 0), in one transaction: all or none.
	AddResolverCounts(ctx context.Context, c ResolverCounts) error
}

// ResolverStatsReader reads what the resolver saw.
type ResolverStatsReader interface {
	// ResolverStats returns the customer's statistics (ResolverStats);
	// the names of packages, vendors and titles are the current ones,
	// "" for those deleted since.
	ResolverStats(ctx context.Context, custID string, q ResolverStatsQuery) (ResolverStats, error)
	// UnmetDemand returns a page of the customer's unmet demand.
	UnmetDemand(ctx context.Context, custID string, q UnmetQuery) (UnmetList, error)
}

// ResolverStatsStore keeps what the resolver saw.
type ResolverStatsStore interface {
	ResolverCountWriter
	ResolverStatsReader
}
