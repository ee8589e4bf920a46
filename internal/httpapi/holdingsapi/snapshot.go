package holdingsapi

import (
	"fmt"
	"mime"
	"net/http"
	"strconv"
	"strings"

	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// Holdings snapshots: POST holdings starts a build, GET holdings/status
// polls it, GET holdings downloads the completed snapshot page by page as
// KBART2 JSON records, or whole as a KBART file (Accept:
// text/tab-separated-values). The store builds in the background and
// streams the rows; the handlers never hold more than one row.

// startSnapshot starts building a snapshot: POST holdings[?force=true]. It
// answers 202 with no body; a build in progress is a 409 (a single error
// object on this route) unless force replaces it.
func (h *handlers) startSnapshot(w http.ResponseWriter, r *http.Request) error {
	force, err := parseForce(web.NewQuery(r).Get("force"))
	if err != nil {
		return err
	}
	custID := r.PathValue("custid")
	if err := h.store.StartSnapshot(r.Context(), custID, force); err != nil {
		return fmt.Errorf("start holdings snapshot of %s (force %v): %w", custID, force, err)
	}
	w.WriteHeader(http.StatusAccepted)
	return nil
}

// parseForce reads the force parameter of POST holdings: true, false, 1
// or 0 in any case; absent is false.
func parseForce(s string) (bool, error) {
	switch strings.ToLower(s) {
	case "", "false", "0":
		return false, nil
	case "true", "1":
		return true, nil
	}
	return false, kb.Errorf(kb.CodeInvalid, "Parameter force has an invalid value %q: allowed values are true, false (or 1, 0).", s)
}

// holdingsStatus is the answer of GET holdings/status. totalCount is
// always there, 0 unless the snapshot is Completed.
type holdingsStatus struct {
	Status     string  `json:"status"`
	Created    *string `json:"created"` // null when there is no snapshot
	TotalCount int     `json:"totalCount"`
}

// snapshotStatus answers GET holdings/status.
func (h *handlers) snapshotStatus(w http.ResponseWriter, r *http.Request) error {
	custID := r.PathValue("custid")
	s, err := h.store.SnapshotStatus(r.Context(), custID)
	if err != nil {
		return fmt.Errorf("read holdings snapshot status of %s: %w", custID, err)
	}
	out := holdingsStatus{Status: s.Status}
	if s.Created != "" {
		out.Created = &s.Created
	}
	if s.Status == kb.SnapshotCompleted {
		out.TotalCount = s.Total
	}
	return web.WriteJSON(w, http.StatusOK, out)
}

// holdingsQuery is what GET holdings asks for.
type holdingsQuery struct {
	offset int  // 1-based row
	count  int  // rows; 0 for all (KBART file only)
	kbart  bool // answer a KBART file rather than JSON
}

// ContentTypeKBART is the Content-Type of a KBART file download.
const ContentTypeKBART = "text/tab-separated-values; charset=utf-8"

// parseHoldingsQuery reads the parameters of GET holdings: format kbart2
// (any case, required), count 1–5000 (required, except for a KBART file,
// whose default is every row) and offset, the 1-based row to start from
// (default 1).
func parseHoldingsQuery(r *http.Request) (holdingsQuery, error) {
	p := web.NewQuery(r)
	q := holdingsQuery{offset: 1, kbart: acceptsKBART(r.Header.Values("Accept"))}
	if err := requireKBART2(p); err != nil {
		return q, err
	}
	switch s := p.Get("count"); {
	case s == "" && !q.kbart:
		return q, kb.Errorf(kb.CodeMissing, "Parameter count is missing: give the number of records, 1-%d.", kb.MaxSnapshotPage)
	case s != "":
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > kb.MaxSnapshotPage {
			return q, kb.Errorf(kb.CodeInvalid, "Parameter count is outside the range 1-%d (got %q).", kb.MaxSnapshotPage, s)
		}
		q.count = n
	}
	if s := p.Get("offset"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return q, kb.Errorf(kb.CodeInvalid, "Parameter offset must be a record number of 1 or more (got %q); it counts records, not pages.", s)
		}
		q.offset = n
	}
	return q, nil
}

// acceptsKBART reports whether the Accept header values name
// text/tab-separated-values (with a q above 0).
func acceptsKBART(accept []string) bool {
	for _, v := range accept {
		for part := range strings.SplitSeq(v, ",") {
			mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
			if err != nil || mt != "text/tab-separated-values" {
				continue
			}
			if q, ok := params["q"]; ok {
				if f, err := strconv.ParseFloat(q, 64); err != nil || f <= 0 {
					continue
				}
			}
			return true
		}
	}
	return false
}

// holdings answers GET holdings: a page of the completed snapshot as
// {"offset":M,"format":"kbart2","holdings":[…]}, or the KBART file. Both
// are streamed; nothing is written before the store has produced the first
// row or finished, so that its errors (no completed snapshot, a build in
// progress) are still answered as errors.
func (h *handlers) holdings(w http.ResponseWriter, r *http.Request) error {
	q, err := parseHoldingsQuery(r)
	if err != nil {
		return err
	}
	custID := r.PathValue("custid")
	if q.kbart {
		return h.holdingsKBART(w, r, custID, q)
	}
	out := newHoldingsJSON(newLazyWriter(w, jsonHeaders), q.offset)
	if err := pipeHoldings(r.Context(), h.store, custID, q.offset, q.count, out.row); err != nil {
		return fmt.Errorf("read holdings of %s (offset %d, count %d): %w", custID, q.offset, q.count, err)
	}
	return out.close()
}

// holdingsKBART answers GET holdings with the KBART file of the completed
// snapshot (or the rows of q), named by the KBART convention.
func (h *handlers) holdingsKBART(w http.ResponseWriter, r *http.Request, custID string, q holdingsQuery) error {
	s, err := h.store.SnapshotStatus(r.Context(), custID)
	if err != nil {
		return fmt.Errorf("read holdings snapshot status of %s: %w", custID, err)
	}
	name := HoldingsFileName(custID, s.Created)
	lw := newLazyWriter(w, func(hd http.Header) {
		hd.Set("Content-Type", ContentTypeKBART)
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	})
	if _, err := WriteHoldingsKBART(r.Context(), h.store, custID, q.offset, q.count, lw); err != nil {
		return fmt.Errorf("write KBART holdings of %s: %w", custID, err)
	}
	return nil
}
