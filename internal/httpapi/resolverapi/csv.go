package resolverapi

import (
	"fmt"
	"io"
	"net/http"
	"strconv"

	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// ContentTypeCSV is the Content-Type of the CSV files.
const ContentTypeCSV = web.ContentTypeCSV

// SetCSVHeaders sets the headers of a CSV file named name, to be saved
// (Content-Disposition attachment).
func SetCSVHeaders(w http.ResponseWriter, name string) { web.SetCSVHeaders(w, name) }

// StatsFileName names the CSV file of statistics:
// kbserver_<custid>_resolver-statistics-<by>_<from>_<to>.csv.
func StatsFileName(custID string, q kb.ResolverStatsQuery) string {
	return fmt.Sprintf("kbserver_%s_resolver-statistics-%s_%s_%s.csv", web.FileSafe(custID), q.By, q.From, q.To)
}

// UnmetFileName names the CSV file of the unmet demand:
// kbserver_<custid>_resolver-unmet_<from>_<to>.csv.
func UnmetFileName(custID string, q kb.UnmetQuery) string {
	return fmt.Sprintf("kbserver_%s_resolver-unmet_%s_%s.csv", web.FileSafe(custID), q.From, q.To)
}

// WriteStatsCSV writes the statistics as CSV (RFC 4180, CRLF line ends): a
// header line, then a line per row with the grouping's key columns and the
// counts (without the clicks by source, which a click does not know).
func WriteStatsCSV(w io.Writer, st kb.ResolverStats) error {
	var key []string
	switch st.Query.By {
	case kb.StatsByMonth:
		key = []string{"month"}
	case kb.StatsByPackage:
		key = []string{"package_id", "package_name", "vendor_name"}
	case kb.StatsByTitle:
		key = []string{"title_id", "title_name"}
	case kb.StatsBySource:
		key = []string{"source"}
	}
	counts := []string{"requests", "full_text", "not_found"}
	clicks := st.Query.By != kb.StatsBySource
	if clicks {
		counts = append(counts, "resolver_click_throughs", "az_click_throughs")
	}
	cw := web.NewCSV(w)
	cw.Write(append(key, counts...))
	n := func(v int64) string { return strconv.FormatInt(v, 10) }
	for _, r := range st.Rows {
		var line []string
		switch st.Query.By {
		case kb.StatsByMonth:
			line = []string{string(r.Month)}
		case kb.StatsByPackage:
			line = []string{n(r.PackageID), web.CSVCell(r.PackageName), web.CSVCell(r.VendorName)}
		case kb.StatsByTitle:
			line = []string{n(r.TitleID), web.CSVCell(r.TitleName)}
		case kb.StatsBySource:
			line = []string{web.CSVCell(r.Source)}
		}
		line = append(line, n(r.Requests), n(r.FullText), n(r.NotFound()))
		if clicks {
			line = append(line, n(r.ResolverClicks), n(r.AZClicks))
		}
		cw.Write(line)
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write resolver statistics CSV: %w", err)
	}
	return nil
}

// WriteUnmetCSV writes the unmet demand as CSV: a header line, then a
// line per entry.
func WriteUnmetCSV(w io.Writer, l kb.UnmetList) error {
	cw := web.NewCSV(w)
	cw.Write([]string{"title", "identifier", "requests", "last_month"})
	for _, d := range l.Items {
		cw.Write([]string{web.CSVCell(d.Title), web.CSVCell(d.ID), strconv.FormatInt(d.Requests, 10), string(d.LastMonth)})
	}
	cw.Flush()
	if err := cw.Error(); err != nil {
		return fmt.Errorf("write unmet demand CSV: %w", err)
	}
	return nil
}
