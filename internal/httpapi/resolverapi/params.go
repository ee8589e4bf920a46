package resolverapi

import (
	"strconv"
	"strings"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// Format is the form of an answer.
type Format string

// The forms of an answer.
const (
	FormatJSON Format = "json"
	FormatCSV  Format = "csv"
)

// ParseFormat reads the parameter format: json (when absent) or csv, in
// any case.
func ParseFormat(q web.Query) (Format, error) {
	switch s := q.Get("format"); {
	case s == "" || strings.EqualFold(s, string(FormatJSON)):
		return FormatJSON, nil
	case strings.EqualFold(s, string(FormatCSV)):
		return FormatCSV, nil
	default:
		return "", kb.Errorf(kb.CodeInvalid, "Parameter format has an invalid value %q: allowed values are json, csv.", kb.Abbrev(s, 40))
	}
}

// StatsQuery reads the statistics' parameters: by (month, package, title
// or source, in any case; month when absent) and the months from and to
// (yyyy-mm, both counted; when absent, to is the current month of now and
// from the month kb.StatsDefaultMonths months before to: kb.StatsRange).
func StatsQuery(q web.Query, now time.Time) (kb.ResolverStatsQuery, error) {
	by := kb.StatsByMonth
	if s := q.Get("by"); s != "" {
		g, ok := kb.ParseStatsGroup(s)
		if !ok {
			names := make([]string, 0, 4)
			for _, g := range kb.StatsGroups() {
				names = append(names, string(g))
			}
			return kb.ResolverStatsQuery{}, kb.Errorf(kb.CodeInvalid, "Parameter by has an invalid value %q: allowed values are %s.",
				kb.Abbrev(s, 40), strings.Join(names, ", "))
		}
		by = g
	}
	from, to, err := monthRange(q, now)
	return kb.ResolverStatsQuery{By: by, From: from, To: to}, err
}

// DefaultUnmetCount is the number of entries of a page of the unmet
// demand when the parameter count is absent.
const DefaultUnmetCount = 25

// maxPage is the highest page number.
const maxPage = 1_000_000

// UnmetQuery reads the unmet demand's parameters: the months from and to
// as StatsQuery does, the page number page (1 when absent) and the page
// size count (1 to kb.MaxCount; DefaultUnmetCount when absent, or every
// entry when absent and all is true, as a CSV file has them).
func UnmetQuery(q web.Query, now time.Time, all bool) (kb.UnmetQuery, error) {
	from, to, err := monthRange(q, now)
	if err != nil {
		return kb.UnmetQuery{}, err
	}
	page := kb.Page{Count: DefaultUnmetCount, Number: 1}
	if s := q.Get("count"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > kb.MaxCount {
			return kb.UnmetQuery{}, kb.Errorf(kb.CodeInvalid, "Parameter count is outside the range 1-%d (got %q).", kb.MaxCount, kb.Abbrev(s, 40))
		}
		page.Count = n
	} else if all {
		page.Count = 0
	}
	if s := q.Get("page"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > maxPage {
			return kb.UnmetQuery{}, kb.Errorf(kb.CodeInvalid, "Parameter page must be a page number from 1 to %s (got %q).",
				kb.Thousands(maxPage), kb.Abbrev(s, 40))
		}
		page.Number = n
	}
	if page.Count == 0 && page.Number > 1 {
		return kb.UnmetQuery{}, kb.Errorf(kb.CodeInvalid, "Parameter page needs the parameter count: the CSV file without count has every entry.")
	}
	return kb.UnmetQuery{From: from, To: to, Page: page}, nil
}

// monthRange reads the parameters from and to (kb.StatsRange).
func monthRange(q web.Query, now time.Time) (kb.Month, kb.Month, error) {
	var months [2]kb.Month
	for i, name := range []string{"from", "to"} {
		s := q.Get(name)
		if s == "" {
			continue
		}
		m, ok := kb.ParseMonth(s)
		if !ok {
			return "", "", kb.Errorf(kb.CodeInvalid, "Parameter %s must be a month written yyyy-mm, such as 2024-05 (got %q).", name, kb.Abbrev(s, 40))
		}
		months[i] = m
	}
	return kb.StatsRange(months[0], months[1], now)
}
