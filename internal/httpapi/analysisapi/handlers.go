package analysisapi

import (
	"net/http"
	"slices"

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
		return web.WriteJSON(w, http.StatusOK, listWire(oq, total, titles))
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
