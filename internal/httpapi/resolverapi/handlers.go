package resolverapi

import (
	"net/http"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi/web"
)

// handlers serve the routes over a store.
type handlers struct {
	store Store
}

// statistics serves GET resolver/statistics: the customer's statistics
// (StatsQuery's parameters) as JSON, or as a CSV file with format=csv.
func (h handlers) statistics(w http.ResponseWriter, r *http.Request) error {
	q := web.NewQuery(r)
	format, err := ParseFormat(q)
	if err != nil {
		return err
	}
	sq, err := StatsQuery(q, time.Now())
	if err != nil {
		return err
	}
	custID := r.PathValue("custid")
	st, err := h.store.ResolverStats(r.Context(), custID, sq)
	if err != nil {
		return err
	}
	if format == FormatCSV {
		SetCSVHeaders(w, StatsFileName(custID, sq))
		return WriteStatsCSV(w, st)
	}
	return web.WriteJSON(w, http.StatusOK, statsWire(st))
}

// unmet serves GET resolver/unmet: a page of the customer's unmet demand
// (UnmetQuery's parameters) as JSON, or as a CSV file with format=csv
// (every entry unless count is given).
func (h handlers) unmet(w http.ResponseWriter, r *http.Request) error {
	q := web.NewQuery(r)
	format, err := ParseFormat(q)
	if err != nil {
		return err
	}
	uq, err := UnmetQuery(q, time.Now(), format == FormatCSV)
	if err != nil {
		return err
	}
	custID := r.PathValue("custid")
	l, err := h.store.UnmetDemand(r.Context(), custID, uq)
	if err != nil {
		return err
	}
	if format == FormatCSV {
		SetCSVHeaders(w, UnmetFileName(custID, uq))
		return WriteUnmetCSV(w, l)
	}
	return web.WriteJSON(w, http.StatusOK, unmetWire(uq, l))
}
