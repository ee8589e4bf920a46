package pages

import (
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi/resolverapi"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// The console's link resolver page: what the resolver saw (the API's GET
// resolver/statistics and resolver/unmet, read with the same parameters
// and written as the same CSV files).

// maxResolverRows is the number of statistics rows the page shows at most;
// the CSV file has every one.
const maxResolverRows = 500

// resolverRow is a row of the statistics table.
type resolverRow struct {
	Label, Note                  string // the group, and what it belongs to (a package's vendor)
	Requests, FullText, NotFound int
	ResolverClicks, AZClicks     int
	NoMatch                      bool // the requests that matched no title
}

// resolverPage is what the link resolver page shows.
type resolverPage struct {
	frame
	By                 string
	Groups             []option
	From, To           string
	Clicks             bool // the table has click-through columns (not by source)
	Totals             resolverRow
	Rows               []resolverRow
	RowCount           int // the rows of the whole range (Rows may show fewer)
	StatsCSV, UnmetCSV string
	Unmet              []kb.UnmetDemand
	UnmetTotal         int
	Pager              *pager
}

// consoleResolver serves the link resolver page: the statistics of the
// range asked for (by, from, to; the API's defaults) and a page of the
// unmet demand (page). The profiles' addresses, request forms and the
// test form are on their own page (consoleResolverSetup), linked from it.
func (p *pages) consoleResolver(w http.ResponseWriter, r *http.Request, s *staff) error {
	q := web.NewQuery(r)
	now := time.Now()
	sq, err := resolverapi.StatsQuery(q, now)
	if err != nil {
		return err
	}
	uq, err := resolverapi.UnmetQuery(q, now, false)
	if err != nil {
		return err
	}
	ctx := r.Context()
	st, err := p.store.ResolverStats(ctx, s.CustomerID, sq)
	if err != nil {
		return fmt.Errorf("resolver statistics of %s: %w", s.CustomerID, err)
	}
	unmet, err := p.store.UnmetDemand(ctx, s.CustomerID, uq)
	if err != nil {
		return fmt.Errorf("unmet demand of %s: %w", s.CustomerID, err)
	}
	groups := make([]option, 0, 4)
	for _, g := range kb.StatsGroups() {
		groups = append(groups, option{Value: string(g), Label: string(g)})
	}
	params := url.Values{"by": {string(sq.By)}, "from": {string(sq.From)}, "to": {string(sq.To)}}
	months := url.Values{"from": {string(sq.From)}, "to": {string(sq.To)}}
	data := resolverPage{frame: consoleFrame(s, "Link resolver"), By: string(sq.By), Groups: choose(groups, string(sq.By)),
		From: string(sq.From), To: string(sq.To), Clicks: sq.By != kb.StatsBySource,
		Totals: rowOf(kb.ResolverStatsRow{ResolverTally: st.Totals}, ""), RowCount: len(st.Rows),
		StatsCSV: consolePath + "resolver/statistics.csv?" + params.Encode(), UnmetCSV: consolePath + "resolver/unmet.csv?" + months.Encode(),
		Unmet: unmet.Items, UnmetTotal: unmet.Total}
	for i, row := range st.Rows {
		if i == maxResolverRows {
			break
		}
		data.Rows = append(data.Rows, rowOf(row, sq.By))
	}
	if data.Pager = pagerOf(params, uq.Page, unmet.Total); data.Pager != nil {
		data.Pager.rename("offset", "page")
	}
	return render(w, http.StatusOK, "console_resolver", data)
}

// rowOf returns the table row of a group of the statistics by.
func rowOf(r kb.ResolverStatsRow, by kb.StatsGroup) resolverRow {
	out := resolverRow{Requests: int(r.Requests), FullText: int(r.FullText), NotFound: int(r.NotFound()),
		ResolverClicks: int(r.ResolverClicks), AZClicks: int(r.AZClicks)}
	switch by {
	case kb.StatsByMonth:
		out.Label = string(r.Month)
	case kb.StatsByPackage:
		out.Label, out.Note, out.NoMatch = r.PackageName, r.VendorName, r.PackageID == 0
	case kb.StatsByTitle:
		out.Label, out.NoMatch = r.TitleName, r.TitleID == 0
	case kb.StatsBySource:
		out.Label = r.Source
	}
	return out
}

// consoleResolverStatsCSV downloads the statistics as the API's CSV file
// (GET resolver/statistics?format=csv, the same parameters).
func (p *pages) consoleResolverStatsCSV(w http.ResponseWriter, r *http.Request, s *staff) error {
	sq, err := resolverapi.StatsQuery(web.NewQuery(r), time.Now())
	if err != nil {
		return err
	}
	st, err := p.store.ResolverStats(r.Context(), s.CustomerID, sq)
	if err != nil {
		return fmt.Errorf("resolver statistics of %s: %w", s.CustomerID, err)
	}
	resolverapi.SetCSVHeaders(w, resolverapi.StatsFileName(s.CustomerID, sq))
	return resolverapi.WriteStatsCSV(w, st)
}

// consoleResolverUnmetCSV downloads the unmet demand as the API's CSV file
// (GET resolver/unmet?format=csv, the same parameters: every entry
// unless count is given).
func (p *pages) consoleResolverUnmetCSV(w http.ResponseWriter, r *http.Request, s *staff) error {
	uq, err := resolverapi.UnmetQuery(web.NewQuery(r), time.Now(), true)
	if err != nil {
		return err
	}
	l, err := p.store.UnmetDemand(r.Context(), s.CustomerID, uq)
	if err != nil {
		return fmt.Errorf("unmet demand of %s: %w", s.CustomerID, err)
	}
	resolverapi.SetCSVHeaders(w, resolverapi.UnmetFileName(s.CustomerID, uq))
	return resolverapi.WriteUnmetCSV(w, l)
}
