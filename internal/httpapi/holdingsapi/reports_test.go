package holdingsapi_test

import (
	"bytes"
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/storetest"
	"github.com/kbserver/kbserver/internal/testdb"
)

// Tests of the holdings reports: transactions and deltas over HTTP.

// uuidForm is the form of a report id.
var uuidForm = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

// startTransaction POSTs reports/holdings for cust1, requires 202 with a
// transaction id, and waits for the transaction to be Complete.
func (f *fixture) startTransaction(t *testing.T) string {
	t.Helper()
	res := f.do(t, http.MethodPost, p("/reports/holdings?format=kbart2"), key1)
	if res.status != http.StatusAccepted {
		t.Fatalf("POST reports/holdings: status %d, body %s", res.status, res.body)
	}
	var body struct {
		TransactionID string `json:"transactionId"`
	}
	if err := json.Unmarshal(res.body, &body); err != nil || !uuidForm.MatchString(body.TransactionID) {
		t.Fatalf("POST reports/holdings: body %s (%v), want {\"transactionId\": a UUID}", res.body, err)
	}
	storetest.WaitTransaction(t, f.store, "cust1", body.TransactionID)
	return body.TransactionID
}

// reportPage GETs a page of a transaction or a delta and decodes it
// strictly; keys are its top-level members.
func (f *fixture) reportPage(t *testing.T, path string) (keys []string, holdings []map[string]any, offset int) {
	t.Helper()
	res := f.get(t, path, key1)
	if res.status != http.StatusOK {
		t.Fatalf("GET %s: status %d, body %s", path, res.status, res.body)
	}
	var page map[string]json.RawMessage
	if err := json.Unmarshal(res.body, &page); err != nil {
		t.Fatalf("GET %s: %v in %s", path, err, res.body)
	}
	for k := range page {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dec := json.NewDecoder(bytes.NewReader(page["holdings"]))
	dec.UseNumber()
	if err := dec.Decode(&holdings); err != nil || holdings == nil {
		t.Fatalf("GET %s: holdings %s (%v), want an array", path, page["holdings"], err)
	}
	if err := json.Unmarshal(page["offset"], &offset); err != nil {
		t.Fatalf("GET %s: offset %s: %v", path, page["offset"], err)
	}
	return keys, holdings, offset
}

func TestHoldingsTransactions(t *testing.T) {
	f := newFixture(t)
	if res := f.get(t, p("/reports/holdings/transactions"), key1); res.status != 200 || string(res.body) != "{\"transactionIds\":[]}\n" {
		t.Errorf("list before any: status %d, body %s", res.status, res.body)
	}
	id := f.startTransaction(t)

	// Listed, with its status and dates.
	res := f.get(t, p("/reports/holdings/transactions"), key1)
	var list struct {
		TransactionIDs []map[string]string `json:"transactionIds"`
	}
	if err := json.Unmarshal(res.body, &list); err != nil || len(list.TransactionIDs) != 1 {
		t.Fatalf("list: %s (%v)", res.body, err)
	}
	if tr := list.TransactionIDs[0]; tr["transactionId"] != id || tr["status"] != "Complete" || !createdForm.MatchString(tr["creationDate"]) ||
		!createdForm.MatchString(tr["expirationDate"]) || tr["expirationDate"] <= tr["creationDate"] {
		t.Errorf("listed transaction = %v", tr)
	}

	// Its rows are the snapshot's, paged by page number, with our title id
	// as title_id.
	f.snapshot(t)
	snap := f.allHoldings(t)
	res = f.get(t, p("/reports/holdings/transactions/%s/status", id), key1)
	var st map[string]any
	if err := json.Unmarshal(res.body, &st); err != nil || st["status"] != "Complete" || st["totalCount"] != strconv.Itoa(len(snap)) {
		t.Fatalf("status: %s (%v), want Complete and totalCount %q", res.body, err, strconv.Itoa(len(snap)))
	}
	var rows []kb.Holding
	for page := 1; ; page++ {
		keys, hs, offset := f.reportPage(t, p("/reports/holdings/transactions/%s?format=kbart2&count=2&offset=%d", id, page))
		if !slices.Equal(keys, []string{"format", "holdings", "offset"}) || offset != page {
			t.Fatalf("page %d: members %v, offset %d", page, keys, offset)
		}
		if len(hs) == 0 {
			break
		}
		for _, h := range hs {
			rows = append(rows, toHolding(t, h))
		}
	}
	if len(rows) != len(snap) || len(rows) == 0 {
		t.Fatalf("%d rows over the pages, the snapshot has %d", len(rows), len(snap))
	}
	for i := range rows {
		if rows[i].Values != snap[i].Values {
			t.Errorf("row %d = %q, snapshot %q", i+1, rows[i].Values, snap[i].Values)
		}
	}
	found := false
	for _, h := range rows {
		if h.Values[0] == "Journal of Testing" {
			found = true
			if h.Values[11] != strconv.FormatInt(f.testing, 10) {
				t.Errorf("title_id = %q, want our title id %d", h.Values[11], f.testing)
			}
		}
	}
	if !found {
		t.Errorf("Journal of Testing not among the rows:\n%s", dump(rows))
	}

	// Bad requests and other customers.
	for _, c := range []struct {
		path   string
		status int
		text   string
	}{
		{p("/reports/holdings/transactions/%s?format=kbart2", id), 400, "count is missing"},
		{p("/reports/holdings/transactions/%s?format=kbart2&count=5001", id), 400, "count is outside the range 1-5000"},
		{p("/reports/holdings/transactions/%s?format=kbart2&count=10&offset=0", id), 400, "offset must be a page number"},
		{p("/reports/holdings/transactions/%s?count=10", id), 400, "format must be kbart2"},
		{p("/reports/holdings/transactions/no-such-id?format=kbart2&count=10"), 404, "not found"},
		{p("/reports/holdings/transactions/no-such-id/status"), 404, "not found"},
	} {
		res := f.get(t, c.path, key1)
		if res.status != c.status || !strings.Contains(strings.ToLower(res.errors(t).Message), strings.ToLower(c.text)) {
			t.Errorf("GET %s: status %d, body %s; want %d naming %q", c.path, res.status, res.body, c.status, c.text)
		}
	}
	if res := f.get(t, "/rm/rmaccounts/cust2/reports/holdings/transactions/"+id+"/status", key2); res.status != 404 {
		t.Errorf("another customer's transaction: status %d, want 404", res.status)
	}
	if res := f.do(t, http.MethodPost, p("/reports/holdings?format=csv"), key1); res.status != 400 {
		t.Errorf("POST with format=csv: status %d, want 400", res.status)
	}

	// While one is in progress, a POST answers 409 with its id. No store
	// method holds a build open: the test writes one in progress whose
	// builder holds its lease.
	testdb.Exec(t, f.dsn, `INSERT INTO report_transactions(id, customer_id, status, created, expires, root_proxy, lease)
		VALUES ('running-1', 'cust1', 'In Progress', '2026-01-01T00:00:00.000000000Z', '2999-01-01T00:00:00.000000000Z', '<n>',
			'2999-01-01T00:00:00.000000000Z')`)
	res = f.do(t, http.MethodPost, p("/reports/holdings?format=kbart2"), key1)
	if res.status != http.StatusConflict || string(res.body) != "{\"transactionId\":\"running-1\"}\n" {
		t.Errorf("POST while one runs: status %d, body %s; want 409 naming it", res.status, res.body)
	}
	res = f.get(t, p("/reports/holdings/transactions/running-1?format=kbart2&count=10"), key1)
	if res.status != http.StatusConflict {
		t.Errorf("page of a transaction in progress: status %d, want 409", res.status)
	}
	res = f.get(t, p("/reports/holdings/transactions/running-1/status"), key1)
	if err := json.Unmarshal(res.body, &st); err != nil || st["status"] != "In Progress" || st["totalCount"] != "" {
		t.Errorf("status in progress: %s", res.body)
	}
}

func TestHoldingsDeltas(t *testing.T) {
	f := newFixture(t)
	first := f.startTransaction(t)
	// cust1 selects Beta Books: its titles are added.
	if err := f.store.SetPackageState(t.Context(), "cust1", f.betaBooks, kb.PackageState{Selected: true}); err != nil {
		t.Fatal(err)
	}
	second := f.startTransaction(t)

	post := func(body string) response {
		return f.send(t, http.MethodPost, p("/reports/holdings/deltas"), key1, strings.NewReader(body))
	}
	for _, c := range []struct{ body, text string }{
		{`{"currentSnapshotId":"` + second + `"}`, "previousSnapshotId is missing"},
		{`{"previousSnapshotId":"` + first + `"}`, "currentSnapshotId is missing"},
		{`{"currentSnapshotId":"nope","previousSnapshotId":"` + first + `"}`, "currentSnapshotId \"nope\" names no holdings transaction"},
	} {
		if res := post(c.body); res.status != 400 || !strings.Contains(res.errors(t).Message, c.text) {
			t.Errorf("POST deltas %s: status %d, body %s; want 400 naming %q", c.body, res.status, res.body, c.text)
		}
	}
	res := post(`{"currentSnapshotId":"` + second + `","previousSnapshotId":"` + first + `"}`)
	id := string(res.body)
	if res.status != http.StatusAccepted || !uuidForm.MatchString(id) || !strings.HasPrefix(res.header.Get("Content-Type"), "text/plain") {
		t.Fatalf("POST deltas: status %d, Content-Type %q, body %q; want 202 and a bare id", res.status, res.header.Get("Content-Type"), res.body)
	}
	var d kb.Delta
	for deadline := time.Now().Add(30 * time.Second); d.Status != kb.DeltaCompleted; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("delta %s still in progress after 30 s", id)
		}
		res = f.get(t, p("/reports/holdings/deltas/%s/status", id), key1)
		var st map[string]string
		if err := json.Unmarshal(res.body, &st); err != nil {
			t.Fatalf("delta status %s: %v", res.body, err)
		}
		if st["currentSnapshotId"] != second || st["previousSnapshotId"] != first || st["packageIds"] != "" {
			t.Fatalf("delta status = %v", st)
		}
		switch d.Status = st["status"]; d.Status {
		case kb.DeltaCompleted:
			if st["totalCount"] != "3" {
				t.Errorf("totalCount = %q, want \"3\" (Beta Books' three titles)", st["totalCount"])
			}
		case kb.DeltaInProgress:
		default:
			t.Fatalf("delta status %q", d.Status)
		}
	}
	keys, hs, offset := f.reportPage(t, p("/reports/holdings/deltas/%s?format=kbart2&count=4000&offset=1", id))
	want := []string{"count", "format", "holdings", "offset", "packageIds", "resourceTypeIds", "totalCount"}
	if !slices.Equal(keys, want) || offset != 1 || len(hs) != 3 {
		t.Fatalf("delta page: members %v, offset %d, %d holdings", keys, offset, len(hs))
	}
	for _, h := range hs {
		if h["change_type"] != "HOLDING_ADDED" || h["package_content_type"] != "EBook" || h["package_id"] != strconv.FormatInt(f.betaBooks, 10) {
			t.Errorf("delta record = %v", h)
		}
		if id, _ := h["title_id"].(string); !slices.Contains([]string{strconv.FormatInt(f.testing, 10), strconv.FormatInt(f.series, 10),
			strconv.FormatInt(f.cookbook, 10)}, id) {
			t.Errorf("title_id %q is not one of Beta Books' title ids", id)
		}
	}
	if _, hs, _ := f.reportPage(t, p("/reports/holdings/deltas/%s?format=kbart2&count=2&offset=2", id)); len(hs) != 1 {
		t.Errorf("page 2 of 2 records a page of a 3-record delta: %d records", len(hs))
	}
	if res := f.get(t, p("/reports/holdings/deltas/no-such-id/status"), key1); res.status != 404 {
		t.Errorf("unknown delta: status %d, want 404", res.status)
	}
}

// TestHoldingsTitleID: the JSON records carry our title id as title_id;
// the KBART file keeps the provider's.
func TestHoldingsTitleID(t *testing.T) {
	f := newFixture(t)
	ctx := t.Context()
	r := kbartRow(map[int]string{fTitle: "Provider Journal", fPrint: "0378-5955", fURL: "https://p.example/j", fPubType: "serial"})
	r.KBART[11] = "prov-77"
	res, err := f.store.ImportPackage(ctx, kb.PackageSpec{VendorName: "Gamma", PackageName: "Gamma Journals", ContentType: kb.ContentEJournal}, rows(r))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.store.SetPackageState(ctx, "cust1", res.PackageID, kb.PackageState{Selected: true}); err != nil {
		t.Fatal(err)
	}
	f.snapshot(t)
	var ours string
	for _, h := range f.allHoldings(t) {
		if h.Values[0] == "Provider Journal" {
			ours = h.Values[11]
		}
	}
	l, err := f.store.Titles(ctx, "cust1", kb.TitleQuery{Search: "0378-5955", Field: kb.FieldISXN, Type: kb.SearchExactMatch, Page: kb.Page{Count: 5, Number: 1}})
	if err != nil || l.Total != 1 {
		t.Fatalf("title: %d, %v", l.Total, err)
	}
	if want := strconv.FormatInt(l.Titles[0].ID, 10); ours != want {
		t.Errorf("JSON title_id = %q, want our title id %s", ours, want)
	}
	kres := f.getKBART(t, "?format=kbart2")
	var provider string
	for _, h := range kbartRows(t, kres.body) {
		if h.Values[0] == "Provider Journal" {
			provider = h.Values[11]
		}
	}
	if provider != "prov-77" {
		t.Errorf("KBART file title_id = %q, want the provider's prov-77", provider)
	}
}
