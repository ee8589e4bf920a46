package analysisapi

import (
	"context"
	"encoding/csv"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/kbserver/kbserver/internal/analysis"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// The CSV files of the lists: every title of an overlap's list or of the
// duplicates, a line per shown resource and coverage range. The API
// (format=csv) and the console's downloads write them here, alike.

// csvHeader is the CSV files' header line.
var csvHeader = []string{"title_id", "title_name", "publisher_name", "package_id", "package_name", "begin_coverage", "end_coverage", "embargo",
	"click_throughs_12_months"}

// csvChunk is the titles a CSV file's rows are read by at a time.
const csvChunk = 500

// ListFileName returns the name of the CSV file of the list q asks for:
// kbserver_<custid>_overlap_<ids>_<list>.csv, or
// kbserver_<custid>_against_<id>_<list>.csv.
func ListFileName(custID string, q kb.OverlapQuery) string {
	ids := make([]string, len(q.PackageIDs))
	for i, id := range q.PackageIDs {
		ids[i] = strconv.FormatInt(id, 10)
	}
	kind := "overlap"
	if q.AgainstHoldings {
		kind = "against"
	}
	return fmt.Sprintf("kbserver_%s_%s_%s_%s.csv", web.FileSafe(custID), kind, strings.Join(ids, "-"), web.FileSafe(ListName(q.List)))
}

// ListName returns the list parameter's value that asks for l.
func ListName(l kb.OverlapList) string {
	switch l.Kind {
	case kb.ListUnique:
		return "unique:" + strconv.FormatInt(l.PackageID, 10)
	case kb.ListShared:
		return "shared"
	case kb.ListPartial:
		return "partial"
	case kb.ListHeld:
		return "held"
	case kb.ListHeldFully:
		return "heldfully"
	case kb.ListNotHeld:
		return "notheld"
	}
	return ""
}

// DuplicatesFileName returns the name of the duplicates' CSV file.
func DuplicatesFileName(custID string) string {
	return "kbserver_" + web.FileSafe(custID) + "_duplicates.csv"
}

// WriteListCSV answers every title of the list q asks for (q.List is
// not kb.ListNone) as a CSV file; an error before the first line is
// returned unwritten, to be answered as one.
func WriteListCSV(ctx context.Context, w http.ResponseWriter, svc *analysis.Service, store Store, custID string, q kb.OverlapQuery) error {
	read := func() ([]int64, kb.CustomerAt, error) { return svc.ListAll(ctx, custID, q) }
	return writeCSV(ctx, w, store, custID, ListFileName(custID, q), read, func(r kb.Resource) bool { return Shown(q, r) })
}

// WriteDuplicatesCSV answers every title the customer selects in two
// packages or more as a CSV file, as WriteListCSV does.
func WriteDuplicatesCSV(ctx context.Context, w http.ResponseWriter, svc *analysis.Service, store Store, custID string) error {
	read := func() ([]int64, kb.CustomerAt, error) { return svc.DuplicatesAll(ctx, custID) }
	return writeCSV(ctx, w, store, custID, DuplicatesFileName(custID), read, SelectedShown)
}

// writeCSV writes the titles read gives as the CSV file name, each with
// the resources shown says to show. The list and the rows of its first
// chunk are read before the headers, so that an error is still answered
// as one; the rest a chunk at a time.
func writeCSV(ctx context.Context, w http.ResponseWriter, store Store, custID, name string,
	read func() ([]int64, kb.CustomerAt, error), shown func(kb.Resource) bool) error {
	ids, at, err := read()
	if err != nil {
		return err
	}
	var cw *csv.Writer
	for chunk := range slices.Chunk(ids, csvChunk) {
		titles, c, err := Rows(ctx, store, custID, at, chunk)
		if err != nil {
			return err
		}
		if cw == nil {
			cw = startCSV(w, name)
		}
		for _, t := range listWire(len(ids), titles, shown, c).Titles {
			for _, rs := range t.Resources {
				emb := ""
				if rs.Embargo.EmbargoValue > 0 {
					emb = strconv.Itoa(rs.Embargo.EmbargoValue) + " " + rs.Embargo.EmbargoUnit
				}
				cov := rs.Coverage
				if len(cov) == 0 {
					cov = []coverageJSON{{}}
				}
				for _, c := range cov {
					cw.Write([]string{strconv.FormatInt(t.TitleID, 10), web.CSVCell(t.TitleName), web.CSVCell(t.PublisherName),
						strconv.FormatInt(rs.PackageID, 10), web.CSVCell(rs.PackageName), c.BeginCoverage, c.EndCoverage, emb,
						strconv.FormatInt(rs.ClickThroughs, 10)})
				}
			}
		}
	}
	if cw == nil {
		cw = startCSV(w, name) // an empty list: the header line alone
	}
	cw.Flush()
	return cw.Error()
}

// startCSV sets the headers of the CSV file name and writes its header
// line.
func startCSV(w http.ResponseWriter, name string) *csv.Writer {
	web.SetCSVHeaders(w, name)
	cw := web.NewCSV(w)
	cw.Write(csvHeader)
	return cw
}
