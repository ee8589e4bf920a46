package pages

import (
	"cmp"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi/analysisapi"
	"github.com/kbserver/kbserver/internal/kb"
)

// The console's use page: the customer's link-out clicks in the months
// the analysis' lists count them in (this one and the eleven before), by
// month and by package, from the link resolver's statistics
// (kb.ResolverStatsReader). They are click-throughs from kbserver's own
// pages, not COUNTER usage, and the page says so.

// The colours of the use chart's values: the stylesheet's classes.
const (
	classAZ       = "chart-az"
	classResolver = "chart-resolver"
)

// useRow is a month's or a package's clicks.
type useRow struct {
	Label, Note            string
	AZ, Resolver, Together int
}

// usePage is what the use page shows.
type usePage struct {
	frame
	Section             string
	From, To            string
	Chart               barChart
	Months              []useRow
	Totals              useRow
	Packages            []useRow
	StatsCSV, ByPackage string
}

// monthWords writes a month as the use page shows it: "Mar 2025".
func monthWords(m kb.Month) string {
	t, err := time.Parse("2006-01", string(m))
	if err != nil {
		return string(m)
	}
	return t.Format("Jan 2006")
}

// consoleUse serves /console/analysis/use: the clicks per month as a
// chart with the numbers beside it, and per package.
func (p *pages) consoleUse(w http.ResponseWriter, r *http.Request, s *staff) error {
	from, to := analysisapi.UseWindow(time.Now())
	ctx := r.Context()
	months, err := p.store.ResolverStats(ctx, s.CustomerID, kb.ResolverStatsQuery{By: kb.StatsByMonth, From: from, To: to})
	if err != nil {
		return fmt.Errorf("clicks by month of %s: %w", s.CustomerID, err)
	}
	pkgs, err := p.store.ResolverStats(ctx, s.CustomerID, kb.ResolverStatsQuery{By: kb.StatsByPackage, From: from, To: to})
	if err != nil {
		return fmt.Errorf("clicks by package of %s: %w", s.CustomerID, err)
	}
	range_ := url.Values{"from": {string(from)}, "to": {string(to)}}
	data := usePage{frame: consoleFrame(s, "Use"), Section: sectionUse, From: monthWords(from), To: monthWords(to),
		StatsCSV:  consolePath + "resolver/statistics.csv?by=month&" + range_.Encode(),
		ByPackage: consolePath + "resolver?by=package&" + range_.Encode()}
	var names []string
	var values [][]int
	for _, m := range months.Rows {
		row := useRow{Label: monthWords(m.Month), AZ: int(m.AZClicks), Resolver: int(m.ResolverClicks)}
		row.Together = row.AZ + row.Resolver
		data.Months = append(data.Months, row)
		names = append(names, row.Label)
		values = append(values, []int{row.AZ, row.Resolver})
	}
	data.Totals = useRow{Label: "Together", AZ: int(months.Totals.AZClicks), Resolver: int(months.Totals.ResolverClicks)}
	data.Totals.Together = data.Totals.AZ + data.Totals.Resolver
	data.Chart = newBarChart("Link-out clicks by month", []chartSeries{{"From the A–Z page", classAZ}, {"From the link resolver", classResolver}}, names, values)
	for _, pk := range pkgs.Rows {
		row := useRow{Label: pk.PackageName, Note: pk.VendorName, AZ: int(pk.AZClicks), Resolver: int(pk.ResolverClicks)}
		row.Together = row.AZ + row.Resolver
		if row.Together > 0 && pk.PackageID != 0 {
			data.Packages = append(data.Packages, row)
		}
	}
	slices.SortStableFunc(data.Packages, func(a, b useRow) int { return cmp.Compare(b.Together, a.Together) })
	if len(data.Packages) > maxResolverRows {
		data.Packages = data.Packages[:maxResolverRows]
	}
	return render(w, http.StatusOK, "console_analysis_use", data)
}
