package analysisapi

import (
	"net/http"
	"slices"
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

// parseFormat reads the parameter format: one of allowed, whose first is the
// default (when absent); anything else is CodeInvalid naming them.
func parseFormat(q web.Query, allowed ...string) (string, error) {
	f := strings.ToLower(q.Get("format"))
	switch {
	case f == "":
		return allowed[0], nil
	case slices.Contains(allowed, f):
		return f, nil
	}
	return "", kb.Errorf(kb.CodeInvalid, "Parameter format has an invalid value %q: allowed values are %s.", kb.Abbrev(f, 100), strings.Join(allowed, ", "))
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
	format, err := parseFormat(q, "json", "csv", "kbart")
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
	f, err := parseFormat(q, "json", "csv")
	if err != nil {
		return err
	}
	csvFile := f == "csv"
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
