package holdingsapi_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/testdb"
)

// Helpers of the holdings snapshot tests.

// createdForm is the form of the created member of holdings/status.
var createdForm = regexp.MustCompile(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$`)

// postSnapshot sends POST holdings with the query (such as "?force=true").
func (f *fixture) postSnapshot(t *testing.T, query string) response {
	t.Helper()
	return f.do(t, http.MethodPost, p("/holdings%s", query), key1)
}

// waitSnapshot waits for cust1's build to end and requires it Completed.
func (f *fixture) waitSnapshot(t *testing.T) kb.SnapshotStatus {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	st, err := f.store.WaitSnapshot(ctx, "cust1")
	if err != nil || st.Status != kb.SnapshotCompleted {
		t.Fatalf("snapshot = %+v, %v; want Completed", st, err)
	}
	return st
}

// snapshot builds a snapshot of cust1 through the API: POST holdings,
// which must answer 202 with no body, then the wait for the build.
func (f *fixture) snapshot(t *testing.T) kb.SnapshotStatus {
	t.Helper()
	res := f.postSnapshot(t, "")
	if res.status != http.StatusAccepted || len(res.body) != 0 {
		t.Fatalf("POST holdings: status %d, body %q; want 202 and no body", res.status, res.body)
	}
	return f.waitSnapshot(t)
}

// status reads GET holdings/status.
func (f *fixture) status(t *testing.T) holdingsStatus {
	t.Helper()
	res := f.get(t, p("/holdings/status"), key1)
	if res.status != http.StatusOK {
		t.Fatalf("GET holdings/status: status %d, body %s", res.status, res.body)
	}
	var s holdingsStatus
	dec := json.NewDecoder(bytes.NewReader(res.body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil {
		t.Fatalf("status %s: %v", res.body, err)
	}
	return s
}

// holdingsStatus is the wire form of GET holdings/status.
type holdingsStatus struct {
	Status     string  `json:"status"`
	Created    *string `json:"created"`
	TotalCount int     `json:"totalCount"`
}

// holdings GETs a page of cust1's snapshot as JSON and returns its
// records. It checks the envelope and that every record has exactly the
// 30 members, all strings but vendor_id, a number.
func (f *fixture) holdings(t *testing.T, offset, count int) []kb.Holding {
	t.Helper()
	res := f.get(t, p("/holdings?format=kbart2&offset=%d&count=%d", offset, count), key1)
	if res.status != http.StatusOK {
		t.Fatalf("GET holdings offset %d count %d: status %d, body %s", offset, count, res.status, res.body)
	}
	var page struct {
		Offset   int              `json:"offset"`
		Format   string           `json:"format"`
		Holdings []map[string]any `json:"holdings"`
	}
	dec := json.NewDecoder(bytes.NewReader(res.body))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(&page); err != nil {
		t.Fatalf("GET holdings: %v in %s", err, res.body)
	}
	if page.Offset != offset || page.Format != "kbart2" || page.Holdings == nil {
		t.Fatalf("GET holdings: offset %d, format %q, holdings %v; want %d, kbart2, an array", page.Offset, page.Format, page.Holdings, offset)
	}
	out := make([]kb.Holding, len(page.Holdings))
	for i, rec := range page.Holdings {
		out[i] = toHolding(t, rec)
	}
	return out
}

// toHolding turns one JSON record into a kb.Holding.
func toHolding(t *testing.T, rec map[string]any) kb.Holding {
	t.Helper()
	var h kb.Holding
	if len(rec) != kb.HoldingFieldCount {
		t.Errorf("record has %d members, want %d: %v", len(rec), kb.HoldingFieldCount, rec)
	}
	for i, col := range kb.HoldingColumns {
		v, ok := rec[col]
		switch v := v.(type) {
		case json.Number:
			if col != "vendor_id" {
				t.Errorf("%s is a number (%s), want a string", col, v)
			}
			h.Values[i] = v.String()
		case string:
			if col == "vendor_id" {
				t.Errorf("vendor_id is a string (%q), want a number", v)
			}
			h.Values[i] = v
		default:
			t.Errorf("%s = %v (present %v), want a string", col, v, ok)
		}
	}
	return h
}

// allHoldings reads every record of cust1's snapshot in one page.
func (f *fixture) allHoldings(t *testing.T) []kb.Holding {
	t.Helper()
	return f.holdings(t, 1, kb.MaxSnapshotPage)
}

// dump formats records for a failure message.
func dump(hs []kb.Holding) string {
	var b strings.Builder
	for _, h := range hs {
		fmt.Fprintf(&b, "  %q\n", h.Values[:])
	}
	return b.String()
}

// stickBuild makes cust1's snapshot look like a build that is stuck in
// progress, as a build that never ends does: no store API can hold a build
// open, so the test writes the snapshots table directly.
func (f *fixture) stickBuild(t *testing.T, created string) {
	t.Helper()
	// As INSERT OR REPLACE would on SQLite: the other columns take their
	// defaults again.
	testdb.Exec(t, f.dsn, `INSERT INTO snapshots(customer_id, build, status, created) VALUES ('cust1', 7, $1, $2)
		ON CONFLICT (customer_id) DO UPDATE SET build = excluded.build, status = excluded.status, created = excluded.created,
			total = 0, error = '', root_proxy = '<n>'`,
		string(kb.SnapshotInProgress), created)
}

func TestSnapshotLifecycle(t *testing.T) {
	f := newFixture(t)

	// Before any snapshot: None, exactly this body, and GET is refused.
	res := f.get(t, p("/holdings/status"), key1)
	if res.status != http.StatusOK || string(res.body) != `{"status":"None","created":null,"totalCount":0}`+"\n" {
		t.Errorf("status before any snapshot: %d %s", res.status, res.body)
	}
	wantError(t, f.get(t, p("/holdings?format=kbart2&count=10&offset=1"), key1), 404, 1001,
		"No holdings snapshot: POST holdings first, then GET holdings/status until it is Completed.")

	res = f.postSnapshot(t, "")
	if res.status != http.StatusAccepted || len(res.body) != 0 {
		t.Fatalf("POST holdings: %d %q, want 202 and no body", res.status, res.body)
	}
	switch s := f.status(t); {
	case s.Status != kb.SnapshotInProgress && s.Status != kb.SnapshotCompleted,
		s.Created == nil || !createdForm.MatchString(*s.Created),
		s.Status == kb.SnapshotInProgress && s.TotalCount != 0:
		t.Errorf("status right after POST: %+v (created %v)", s, s.Created)
	}
	st := f.waitSnapshot(t)
	s := f.status(t)
	if s.Status != kb.SnapshotCompleted || s.Created == nil || *s.Created != st.Created || s.TotalCount != 1 {
		t.Errorf("status after the build: %+v, want Completed, created %s, totalCount 1", s, st.Created)
	}

	// Acta Testica is hidden: Journal of Testing is the one record.
	hs := f.allHoldings(t)
	want := kb.Holding{Values: [kb.HoldingFieldCount]string{
		"Journal of Testing", "0317-8471", "1050-124X", "1995-01-01", "", "", "", "", "",
		"http://alpha.example.com/jot?a=1&b=2", "", fmt.Sprint(f.testing), "P6M", "", "", "Alpha Publishing", "serial",
		"", "", "", "", "", "", "", "P",
		"Alpha Journals", fmt.Sprint(f.alphaJournals), "Alpha Publishing", fmt.Sprint(f.alphaVendor), "Journal",
	}}
	if diff := cmp.Diff([]kb.Holding{want}, hs); diff != "" {
		t.Errorf("holdings (-want +got):\n%s", diff)
	}
	// The URL is written as it is, & and all, not \u0026.
	raw := f.get(t, p("/holdings?format=KBART2&count=1"), key1)
	if !bytes.Contains(raw.body, []byte(`"title_url":"http://alpha.example.com/jot?a=1&b=2"`)) ||
		!bytes.HasPrefix(raw.body, []byte(`{"offset":1,"format":"kbart2","holdings":[{"publication_title":"Journal of Testing",`)) {
		t.Errorf("GET holdings body: %s", raw.body)
	}
}

func TestSnapshotConflictAndForce(t *testing.T) {
	f := newFixture(t)
	f.stickBuild(t, "2026-01-01 00:00:00")

	res := f.postSnapshot(t, "")
	if res.status != http.StatusConflict {
		t.Fatalf("POST during a build: %d %s, want 409", res.status, res.body)
	}
	if diff := cmp.Diff(errorModel{Code: 1011, Message: "A holdings snapshot is already in progress; POST with force=true to replace it."}, res.errorObject(t)); diff != "" {
		t.Errorf("409 body (-want +got):\n%s", diff)
	}
	for _, q := range []string{"?force=false", "?force=0", "?force=FALSE"} {
		if res := f.postSnapshot(t, q); res.status != http.StatusConflict {
			t.Errorf("POST%s during a build: %d %s, want 409", q, res.status, res.body)
		}
	}
	created := "2026-01-01 00:00:00"
	if diff := cmp.Diff(holdingsStatus{Status: kb.SnapshotInProgress, Created: &created}, f.status(t)); diff != "" {
		t.Errorf("status of the stuck build (-want +got):\n%s", diff)
	}
	wantError(t, f.get(t, p("/holdings?format=kbart2&count=10"), key1), 409, 1011,
		"The holdings snapshot is being built; GET holdings/status until it is Completed.")

	for i, q := range []string{"?force=true", "?force=1"} {
		f.stickBuild(t, "2026-01-01 00:00:00")
		res = f.postSnapshot(t, q)
		if res.status != http.StatusAccepted || len(res.body) != 0 {
			t.Fatalf("POST%s: %d %q, want 202", q, res.status, res.body)
		}
		st := f.waitSnapshot(t)
		if st.Created == created || st.Total != 1 {
			t.Errorf("forced snapshot %d: %+v", i, st)
		}
	}
	if hs := f.allHoldings(t); len(hs) != 1 {
		t.Errorf("forced snapshot has %d records, want 1", len(hs))
	}
}

func TestSnapshotParameters(t *testing.T) {
	f := newFixture(t)
	for _, tt := range []struct {
		name, query string
		code        int
		message     string
	}{
		{"no format", "?count=10", 1005, "Parameter format must be kbart2."},
		{"other format", "?format=kbart1&count=10", 1006, "Parameter format must be kbart2."},
		{"json format", "?format=json&count=10&offset=1", 1006, "Parameter format must be kbart2."},
		{"no count", "?format=kbart2&offset=1", 1005, "Parameter count is missing: give the number of records, 1-5000."},
		{"count 0", "?format=kbart2&count=0", 1006, `Parameter count is outside the range 1-5000 (got "0").`},
		{"count 5001", "?format=kbart2&count=5001", 1006, `Parameter count is outside the range 1-5000 (got "5001").`},
		{"count not a number", "?format=kbart2&count=ten", 1006, `Parameter count is outside the range 1-5000 (got "ten").`},
		{"offset 0", "?format=kbart2&count=10&offset=0", 1006, `Parameter offset must be a record number of 1 or more (got "0"); it counts records, not pages.`},
		{"offset negative", "?format=kbart2&count=10&offset=-5", 1006, `Parameter offset must be a record number of 1 or more (got "-5"); it counts records, not pages.`},
		{"offset not a number", "?format=kbart2&count=10&offset=x", 1006, `Parameter offset must be a record number of 1 or more (got "x"); it counts records, not pages.`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantError(t, f.get(t, p("/holdings%s", tt.query), key1), 400, tt.code, tt.message)
		})
	}
	t.Run("force", func(t *testing.T) {
		wantError(t, f.postSnapshot(t, "?force=maybe"), 400, 1006, `Parameter force has an invalid value "maybe": allowed values are true, false (or 1, 0).`)
		if s := f.status(t); s.Status != kb.SnapshotNone {
			t.Errorf("a refused POST started a snapshot: %+v", s)
		}
	})
	t.Run("valid parameters reach the store", func(t *testing.T) {
		// Format in any case, no offset: the answer is the store's.
		wantError(t, f.get(t, p("/holdings?format=Kbart2&count=5000"), key1), 404, 1001,
			"No holdings snapshot: POST holdings first, then GET holdings/status until it is Completed.")
	})
	t.Run("other customer", func(t *testing.T) {
		for _, r := range []response{
			f.do(t, http.MethodPost, p("/holdings"), key2),
			f.get(t, p("/holdings/status"), key2),
			f.get(t, p("/holdings?format=kbart2&count=1"), key2),
		} {
			if r.status != http.StatusForbidden {
				t.Errorf("cust2's key on cust1's snapshot: %d %s", r.status, r.body)
			}
		}
		if r := f.get(t, p("/holdings/status"), ""); r.status != http.StatusUnauthorized {
			t.Errorf("no key: %d %s", r.status, r.body)
		}
	})
}
