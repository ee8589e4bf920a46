package feedapi

import (
	"net/http"

	"github.com/kbserver/kbserver/internal/feeds"
	"github.com/kbserver/kbserver/internal/httpapi/web"
)

// handlers serve the routes over the feeds' service.
type handlers struct {
	lib *feeds.Library
}

// list serves GET holdingsfeeds: the customer's holdings feeds, each with
// its last run.
func (h handlers) list(w http.ResponseWriter, r *http.Request) error {
	fs, last, err := h.lib.Feeds(r.Context(), r.PathValue("custid"))
	if err != nil {
		return err
	}
	out := struct {
		Feeds        []feedJSON `json:"feeds"`
		TotalResults int        `json:"totalResults"`
	}{Feeds: make([]feedJSON, len(fs)), TotalResults: len(fs)}
	for i, f := range fs {
		out.Feeds[i] = feedWire(f, last[f.ID], nil)
	}
	return web.WriteJSON(w, http.StatusOK, out)
}

// add serves POST holdingsfeeds: a new holdings feed, due at once (201).
func (h handlers) add(w http.ResponseWriter, r *http.Request) error {
	var b feedBody
	if err := web.DecodeJSON(r, &b); err != nil {
		return err
	}
	f, err := h.lib.Add(r.Context(), r.PathValue("custid"), feeds.LibraryFeed{VendorID: b.VendorID, PackageID: b.PackageID,
		URL: b.URL, Every: b.Every, MaxRemoval: b.MaxRemoval, Headers: b.Headers})
	if err != nil {
		return err
	}
	return web.WriteJSON(w, http.StatusCreated, feedWire(f, nil, nil))
}

// show serves GET holdingsfeeds/{feedid}: the feed and its runs, newest
// first.
func (h handlers) show(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "feedid")
	if err != nil {
		return err
	}
	f, runs, err := h.lib.History(r.Context(), r.PathValue("custid"), id)
	if err != nil {
		return err
	}
	return web.WriteJSON(w, http.StatusOK, feedWire(f, nil, runs))
}

// remove serves DELETE holdingsfeeds/{feedid} (204); the titles it
// selected stay selected.
func (h handlers) remove(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "feedid")
	if err != nil {
		return err
	}
	if err := h.lib.Remove(r.Context(), r.PathValue("custid"), id); err != nil {
		return err
	}
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// run serves POST holdingsfeeds/{feedid}/run: the feed runs now, and the
// run is answered when it has been recorded.
func (h handlers) run(w http.ResponseWriter, r *http.Request) error {
	id, err := web.PathID(r, "feedid")
	if err != nil {
		return err
	}
	run, err := h.lib.Run(r.Context(), r.PathValue("custid"), id)
	if err != nil {
		return err
	}
	return web.WriteJSON(w, http.StatusOK, runWire(run))
}

// review serves GET holdingsfeeds/{feedid}/runs/{runid}/review: what
// approving the held run would do now.
func (h handlers) review(w http.ResponseWriter, r *http.Request) error {
	id, runID, err := web.PathIDPair(r, "feedid", "runid")
	if err != nil {
		return err
	}
	rv, err := h.lib.Review(r.Context(), r.PathValue("custid"), id, runID)
	if err != nil {
		return err
	}
	return web.WriteJSON(w, http.StatusOK, reviewWire(rv))
}

// approve serves POST holdingsfeeds/{feedid}/runs/{runid}/approve: the
// held run's file is applied, and the new run answered.
func (h handlers) approve(w http.ResponseWriter, r *http.Request) error {
	id, runID, err := web.PathIDPair(r, "feedid", "runid")
	if err != nil {
		return err
	}
	run, err := h.lib.Approve(r.Context(), r.PathValue("custid"), id, runID)
	if err != nil {
		return err
	}
	return web.WriteJSON(w, http.StatusOK, runWire(run))
}
