package analysisapi

import (
	"net/http"
	"strings"

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

// csvFormat reads the parameter format: false for json (when absent),
// true for csv.
func csvFormat(q web.Query) (bool, error) {
	switch f := strings.ToLower(q.Get("format")); f {
	case "", "json":
		return false, nil
	case "csv":
		return true, nil
	default:
		return false, kb.Errorf(kb.CodeInvalid, "Parameter format has an invalid value %q: allowed values are json, csv.", kb.Abbrev(f, 100))
	}
}

// listFormat reads the parameter format of an overlap: json (when
// absent), csv or kbart.
func listFormat(q web.Query) (string, error) {
	switch f := strings.ToLower(q.Get("format")); f {
	case "", "json":
		return "json", nil
	case "csv", "kbart":
		return f, nil
	default:
		return "", kb.Errorf(kb.CodeInvalid, "Parameter format has an invalid value %q: allowed values are json, csv, kbart.", kb.Abbrev(f, 100))
	}
}

// overlap serves GET overlap: the counts of an overlap of packages
// (packageids) or of one package against the holdings
// (against=holdings), or with list the titles behind one count, a page
// at a time (count, offset), or every one as a CSV file with format=csv.
func (h handlers) overlap(w http.ResponseWriter, r *http.Request) error {
	q := web.NewQuery(r)
	oq, err := kb.ParseOverlap(q.Get("packageids"), q.Get("against"), q.Get("list"))
	if err != nil {
		return err
	}
	format, err := listFormat(q)
	if err != nil {
		return err
	}
	if format != "json" && oq.List.Kind == kb.ListNone {
		return kb.Errorf(kb.CodeInvalid, "Parameter format=%s needs a list: give list too, such as list=shared.", format)
	}
	pg, err := web.Page(q, defaultCount)
	if err != nil {
		return err
	}
	custID := r.PathValue("custid")
	ctx := r.Context()
	switch format {
	case "csv":
		return WriteListCSV(ctx, w, h.svc, h.store, custID, oq)
	case "kbart":
		return WriteListKBART(ctx, w, h.svc, h.store, custID, oq)
	}
	if oq.List.Kind != kb.ListNone {
		ids, total, at, err := h.svc.List(ctx, custID, oq, pg)
		if err != nil {
			return err
		}
		titles, c, err := Rows(ctx, h.store, custID, at, ids)
		if err != nil {
			return err
		}
		return web.WriteJSON(w, http.StatusOK, listWire(total, titles, func(r kb.Resource) bool { return Shown(oq, r) }, c))
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

// duplicates serves GET duplicates: the titles the customer selects in
// two packages or more, in name order, each with its selected resources
// and their effective coverage, a page at a time (count, offset), or
// every one as a CSV file with format=csv.
func (h handlers) duplicates(w http.ResponseWriter, r *http.Request) error {
	q := web.NewQuery(r)
	csvFile, err := csvFormat(q)
	if err != nil {
		return err
	}
	pg, err := web.Page(q, defaultCount)
	if err != nil {
		return err
	}
	custID := r.PathValue("custid")
	ctx := r.Context()
	if csvFile {
		return WriteDuplicatesCSV(ctx, w, h.svc, h.store, custID)
	}
	ids, total, at, err := h.svc.Duplicates(ctx, custID, pg)
	if err != nil {
		return err
	}
	titles, c, err := Rows(ctx, h.store, custID, at, ids)
	if err != nil {
		return err
	}
	return web.WriteJSON(w, http.StatusOK, listWire(total, titles, SelectedShown, c))
}
