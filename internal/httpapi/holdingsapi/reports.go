package holdingsapi

import (
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"

	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// Holdings reports: the transactions and deltas that FOLIO's transaction
// loader calls (the hosted service has them; the spec does not describe
// them). POST reports/holdings starts a transaction (a materialised
// holdings snapshot), its status is polled, its rows are read by page; POST
// reports/holdings/deltas compares two transactions, and its rows are read
// the same way. Pages count by page number: offset P with count N is rows
// (P-1)*N+1 to P*N.

// startTransaction answers POST reports/holdings[?format=kbart2]: 202 with
// the new transaction's id, or 409 with the id of the customer's
// transaction in progress (FOLIO reads the id from either).
func (h *handlers) startTransaction(w http.ResponseWriter, r *http.Request) error {
	if f := web.NewQuery(r).Get("format"); f != "" && !strings.EqualFold(f, "kbart2") {
		return kb.Errorf(kb.CodeInvalid, "Parameter format must be kbart2.")
	}
	custID := r.PathValue("custid")
	t, running, err := h.store.StartTransaction(r.Context(), custID)
	if err != nil {
		return fmt.Errorf("start holdings transaction of %s: %w", custID, err)
	}
	status := http.StatusAccepted
	if running {
		status = http.StatusConflict
	}
	return web.WriteJSON(w, status, transactionIDWire{TransactionID: t.ID})
}

// transactions answers GET reports/holdings/transactions: the customer's
// unexpired transactions, newest first.
func (h *handlers) transactions(w http.ResponseWriter, r *http.Request) error {
	custID := r.PathValue("custid")
	ts, err := h.store.Transactions(r.Context(), custID)
	if err != nil {
		return fmt.Errorf("list holdings transactions of %s: %w", custID, err)
	}
	out := transactionListWire{TransactionIDs: make([]transactionWire, len(ts))}
	for i, t := range ts {
		out.TransactionIDs[i] = toTransactionWire(t)
	}
	return web.WriteJSON(w, http.StatusOK, out)
}

// transactionStatus answers GET reports/holdings/transactions/{txid}/status.
func (h *handlers) transactionStatus(w http.ResponseWriter, r *http.Request) error {
	custID, id := r.PathValue("custid"), r.PathValue("txid")
	t, err := h.store.Transaction(r.Context(), custID, id)
	if err != nil {
		return fmt.Errorf("holdings transaction %s of %s: %w", id, custID, err)
	}
	return web.WriteJSON(w, http.StatusOK, toTransactionStatusWire(t))
}

// transactionPage answers GET reports/holdings/transactions/{txid}: a page
// of a complete transaction, as GET holdings answers a page
// ({"offset":P,"format":"kbart2","holdings":[…]}, P the page number).
func (h *handlers) transactionPage(w http.ResponseWriter, r *http.Request) error {
	p, err := parseReportPage(r)
	if err != nil {
		return err
	}
	custID, id := r.PathValue("custid"), r.PathValue("txid")
	out := newHoldingsJSON(newLazyWriter(w, jsonHeaders), p.page)
	err = h.store.TransactionHoldings(r.Context(), custID, id, p.first(), p.count, func(rh *kb.ReportHolding) error {
		return out.row(&rh.Holding)
	})
	if err != nil {
		return fmt.Errorf("read holdings transaction %s of %s (page %d, count %d): %w", id, custID, p.page, p.count, err)
	}
	return out.close()
}

// startDelta answers POST reports/holdings/deltas: 202 with the new delta's
// id as bare text (FOLIO puts it in the next path as it is).
func (h *handlers) startDelta(w http.ResponseWriter, r *http.Request) error {
	var body deltaRequestWire
	if err := web.DecodeJSON(r, &body); err != nil {
		return err
	}
	custID := r.PathValue("custid")
	d, err := h.store.StartDelta(r.Context(), custID, body.CurrentSnapshotID, body.PreviousSnapshotID)
	if err != nil {
		return fmt.Errorf("start holdings delta of %s: %w", custID, err)
	}
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusAccepted)
	_, err = w.Write([]byte(d.ID))
	return err
}

// deltaStatus answers GET reports/holdings/deltas/{deltaid}/status.
func (h *handlers) deltaStatus(w http.ResponseWriter, r *http.Request) error {
	custID, id := r.PathValue("custid"), r.PathValue("deltaid")
	d, err := h.store.Delta(r.Context(), custID, id)
	if err != nil {
		return fmt.Errorf("holdings delta %s of %s: %w", id, custID, err)
	}
	return web.WriteJSON(w, http.StatusOK, toDeltaStatusWire(d))
}

// deltaPage answers GET reports/holdings/deltas/{deltaid}: a page of a
// completed delta (deltaJSON).
func (h *handlers) deltaPage(w http.ResponseWriter, r *http.Request) error {
	p, err := parseReportPage(r)
	if err != nil {
		return err
	}
	custID, id := r.PathValue("custid"), r.PathValue("deltaid")
	d, err := h.store.Delta(r.Context(), custID, id)
	if err != nil {
		return fmt.Errorf("holdings delta %s of %s: %w", id, custID, err)
	}
	out := newDeltaJSON(newLazyWriter(w, jsonHeaders), p.count, p.page, d.Total)
	if err := h.store.DeltaHoldings(r.Context(), custID, id, p.first(), p.count, out.row); err != nil {
		return fmt.Errorf("read holdings delta %s of %s (page %d, count %d): %w", id, custID, p.page, p.count, err)
	}
	return out.close()
}

// requireKBART2 checks the format parameter of a page of holdings (of the
// snapshot, a transaction or a delta): kbart2, in any case, is required.
func requireKBART2(q web.Query) error {
	switch f := q.Get("format"); {
	case f == "":
		return kb.Errorf(kb.CodeMissing, "Parameter format must be kbart2.")
	case !strings.EqualFold(f, "kbart2"):
		return kb.Errorf(kb.CodeInvalid, "Parameter format must be kbart2.")
	}
	return nil
}

// jsonHeaders sets the headers of a streamed JSON answer.
func jsonHeaders(hd http.Header) {
	hd.Set("Content-Type", web.ContentTypeJSON)
	hd.Set("X-Content-Type-Options", "nosniff")
}

// reportPage is a page of a transaction or a delta.
type reportPage struct {
	page  int // 1-based page number (the offset parameter)
	count int // rows a page
}

// first returns the 1-based row at which the page starts.
func (p reportPage) first() int { return (p.page-1)*p.count + 1 }

// maxReportPageNumber bounds offset so that a page's first row is an int.
const maxReportPageNumber = math.MaxInt32

// parseReportPage reads the parameters of a page of a transaction or a
// delta: format kbart2 (any case, required), count 1-kb.MaxReportPage
// (required) and offset, the 1-based page number (default 1).
func parseReportPage(r *http.Request) (reportPage, error) {
	q := web.NewQuery(r)
	p := reportPage{page: 1}
	if err := requireKBART2(q); err != nil {
		return p, err
	}
	s := q.Get("count")
	if s == "" {
		return p, kb.Errorf(kb.CodeMissing, "Parameter count is missing: give the number of records a page, 1-%d.", kb.MaxReportPage)
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > kb.MaxReportPage {
		return p, kb.Errorf(kb.CodeInvalid, "Parameter count is outside the range 1-%d (got %q).", kb.MaxReportPage, s)
	}
	p.count = n
	if s := q.Get("offset"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > maxReportPageNumber {
			return p, kb.Errorf(kb.CodeInvalid, "Parameter offset must be a page number, 1-%d (got %q); it counts pages of count records.",
				maxReportPageNumber, s)
		}
		p.page = n
	}
	return p, nil
}
