package analysisapi

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/kbserver/kbserver/internal/analysis"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// handlers serve the routes.
type handlers struct {
	svc   *analysis.Service
	store Store
}

// defaultCount is a list's page size when count is not given.
const defaultCount = 25

// overlap serves GET overlap: the counts of an overlap of packages
// (packageids) or of one package against the holdings
// (against=holdings), or with list the titles behind one count, a page
// at a time (count, offset).
func (h handlers) overlap(w http.ResponseWriter, r *http.Request) error {
	q := web.NewQuery(r)
	oq, err := kb.ParseOverlap(q.Get("packageids"), q.Get("against"), q.Get("list"))
	if err != nil {
		return err
	}
	pg, err := web.Page(q, defaultCount)
	if err != nil {
		return err
	}
	custID := r.PathValue("custid")
	ctx := r.Context()
	if oq.List.Kind != kb.ListNone {
		ids, total, at, err := h.svc.List(ctx, custID, oq, pg)
		if err != nil {
			return err
		}
		titles, err := h.store.TitlesAt(ctx, custID, at, ids, 0)
		if err != nil {
			return err
		}
		c, err := h.clicks(ctx, custID, ids)
		if err != nil {
			return err
		}
		return web.WriteJSON(w, http.StatusOK, listWire(total, titles, func(r kb.Resource) bool { return shown(oq, r) }, c))
	}
	if oq.AgainstHoldings {
		a, err := h.svc.Against(ctx, custID, oq)
		if err != nil {
			return err
		}
		return web.WriteJSON(w, http.StatusOK, againstWire(a))
	}
	o, err := h.svc.Overlap(ctx, custID, oq)
	if err != nil {
		return err
	}
	return web.WriteJSON(w, http.StatusOK, overlapWire(o))
}

// shown reports whether a list shows a title's resource in package p:
// the packages compared, or for a package against the holdings that
// package and the customer's selected resources elsewhere.
func shown(q kb.OverlapQuery, r kb.Resource) bool {
	if slices.Contains(q.PackageIDs, r.PackageID) {
		return true
	}
	return q.AgainstHoldings && r.IsSelected
}

// csvChunk is the titles a CSV file's rows are read by at a time.
const csvChunk = 500

// duplicates serves GET duplicates: the titles the customer selects in
// two packages or more, in name order, each with its selected resources
// and their effective coverage, a page at a time (count, offset), or
// every one as a CSV file with format=csv.
func (h handlers) duplicates(w http.ResponseWriter, r *http.Request) error {
	q := web.NewQuery(r)
	csvFile := false
	switch f := strings.ToLower(q.Get("format")); f {
	case "", "json":
	case "csv":
		csvFile = true
	default:
		return kb.Errorf(kb.CodeInvalid, "Parameter format has an invalid value %q: allowed values are json, csv.", kb.Abbrev(f, 100))
	}
	pg, err := web.Page(q, defaultCount)
	if err != nil {
		return err
	}
	custID := r.PathValue("custid")
	ctx := r.Context()
	selected := func(r kb.Resource) bool { return r.IsSelected }
	if !csvFile {
		ids, total, at, err := h.svc.Duplicates(ctx, custID, pg)
		if err != nil {
			return err
		}
		titles, err := h.store.TitlesAt(ctx, custID, at, ids, 0)
		if err != nil {
			return err
		}
		c, err := h.clicks(ctx, custID, ids)
		if err != nil {
			return err
		}
		return web.WriteJSON(w, http.StatusOK, listWire(total, titles, selected, c))
	}
	// The whole list, read before the headers, so that an error is
	// still answered as one; its rows a chunk at a time.
	ids, total, at, err := h.svc.Duplicates(ctx, custID, kb.Page{Count: csvChunk, Number: 1})
	if err == nil && total > len(ids) {
		ids, _, at, err = h.svc.Duplicates(ctx, custID, kb.Page{Count: total, Number: 1})
	}
	if err != nil {
		return err
	}
	web.SetCSVHeaders(w, "kbserver_"+web.FileSafe(custID)+"_duplicates.csv")
	cw := web.NewCSV(w)
	cw.Write([]string{"title_id", "title_name", "publisher_name", "package_id", "package_name", "begin_coverage", "end_coverage", "embargo",
		"click_throughs_12_months"})
	for chunk := range slices.Chunk(ids, csvChunk) {
		titles, err := h.store.TitlesAt(ctx, custID, at, chunk, 0)
		if err != nil {
			return err
		}
		c, err := h.clicks(ctx, custID, chunk)
		if err != nil {
			return err
		}
		for _, t := range listWire(total, titles, selected, c).Titles {
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
	cw.Flush()
	return cw.Error()
}

// clicks reads the link-out clicks of the titles ids in the last
// kb.UseMonths months, this one included.
func (h handlers) clicks(ctx context.Context, custID string, ids []int64) (clicks, error) {
	to := kb.MonthOf(time.Now())
	from := to.AddMonths(1 - kb.UseMonths)
	uses, err := h.store.LinkOutUse(ctx, custID, ids, from, to)
	if err != nil {
		return clicks{}, err
	}
	return clicksOf(from, to, uses), nil
}
