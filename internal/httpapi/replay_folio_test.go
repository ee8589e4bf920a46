package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi/web"
)

// The contract replay: every request of the FOLIO client contract's
// section 1 (#1–#28), sent with FOLIO's own payloads (its section 2) in
// the order FOLIO's flows make them, each answer checked against the
// contract's model (replay_contract_test.go).

// folioState carries what earlier answers gave later requests.
type folioState struct {
	packageID   string // from #12
	titleID     string // from #16
	txPrevious  string // the first transaction (#22)
	txCurrent   string // the second transaction, after changes
	deltaID     string // from #26
	transaction string // the transaction the next request names
}

// folioCase is one request of the contract.
type folioCase struct {
	n      string // the contract's number, e.g. "#11 delete"
	method string
	path   func(f *replayFixture, s *folioState) string
	body   func(f *replayFixture, s *folioState) string // nil: none
	status []int
	want   func(w web.Wire) cBody
	before func(t *testing.T, f *replayFixture, s *folioState) // waits, or makes changes, before the request
	keep   func(s *folioState, body []byte)                    // keeps what later requests need
}

// constant returns a want that is the same on both wires.
func constant(b cBody) func(web.Wire) cBody { return func(web.Wire) cBody { return b } }

// byWire returns a want that differs between the wires.
func byWire(spec, hosted cBody) func(web.Wire) cBody {
	return func(w web.Wire) cBody {
		if w == web.WireHosted {
			return hosted
		}
		return spec
	}
}

// fixed returns a path or body that needs no state.
func fixed(format string, args func(f *replayFixture) []any) func(*replayFixture, *folioState) string {
	return func(f *replayFixture, _ *folioState) string { return fmt.Sprintf(format, args(f)...) }
}

// FOLIO's query strings (contract section 1), in its order.
const (
	folioVendorQuery  = "?search=&offset=1&count=25&orderby=vendorname"
	folioPackageQuery = "?selection=all&contenttype=all&searchtype=advanced&searchfield=name&search=&offset=1&count=25&orderby=packagename"
	folioTitleQuery   = "?searchfield=titlename&selection=all&resourcetype=all&searchtype=advanced&search=replay&offset=1&count=25&orderby=relevance"
)

// folioCases are the contract's requests in the order FOLIO's flows make
// them: settings and root, vendors, packages (v2), titles and resources,
// the default holdings load, then the transaction loader with a delta.
var folioCases = []folioCase{
	{n: "#1", method: "GET", path: fixed("%s", func(f *replayFixture) []any { return []any{f.path("/")} }),
		status: []int{200}, want: constant(cBody{json: cAny})},
	{n: "#2", method: "GET", path: fixed("%s", func(f *replayFixture) []any { return []any{f.path("/")} }),
		status: []int{200}, want: constant(cBody{json: cRoot})},
	{n: "#3", method: "PUT", path: fixed("%s", func(f *replayFixture) []any { return []any{f.path("/")} }),
		// The object just read, labels changed, written back with nulls
		// kept; a root proxy change sends inherited null.
		body: func(f *replayFixture, _ *folioState) string {
			var labels []string
			for i := 1; i <= 5; i++ {
				labels = append(labels, fmt.Sprintf(`{"id":%d,"displayLabel":"%s","displayOnFullTextFinder":%t,"displayOnPublicationFinder":false}`,
					i, map[int]string{1: "Shelf", 2: "Loan period"}[i], i == 2))
			}
			return fmt.Sprintf(`{"proxy":{"id":"TestingFolio","inherited":null},"vendorId":"%d","labels":[%s]}`, f.customVendor, strings.Join(labels, ","))
		},
		status: []int{204}, want: constant(cBody{none: true})},
	{n: "#4", method: "GET", path: fixed("%s", func(f *replayFixture) []any { return []any{f.path("/proxies")} }),
		status: []int{200}, want: func(w web.Wire) cBody {
			if w == web.WireSpec { // conflict (b): the spec wraps the list
				return cBody{json: cObj(req("proxies", cArr(cProxy)))}
			}
			return cBody{json: cArr(cProxy)}
		}},
	{n: "#5", method: "GET", path: fixed("%s"+folioVendorQuery, func(f *replayFixture) []any { return []any{f.path("/vendors")} }),
		status: []int{200}, want: constant(cBody{json: cVendors})},
	{n: "#6", method: "GET", path: fixed("%s", func(f *replayFixture) []any { return []any{f.path("/vendors/%d", f.tokenVendor)} }),
		status: []int{200}, want: constant(cBody{json: cVendorByID})},
	{n: "#7", method: "PUT", path: fixed("%s", func(f *replayFixture) []any { return []any{f.path("/vendors/%d", f.tokenVendor)} }),
		body:   fixed(`{"vendorToken":{"value":"site-42"},"proxy":{"id":"EZProxy","inherited":false}}`, func(*replayFixture) []any { return nil }),
		status: []int{204}, want: constant(cBody{none: true})},
	{n: "#8", method: "GET", path: fixed("%s"+folioPackageQuery, func(f *replayFixture) []any { return []any{f.v2("/lists")} }),
		status: []int{200}, want: byWire(cBody{json: cPackages}, cBody{json: cPackagesHosted})},
	{n: "#9", method: "GET", path: fixed("%s"+folioPackageQuery, func(f *replayFixture) []any { return []any{f.v2("/vendors/%d/lists", f.plainVendor)} }),
		status: []int{200}, want: byWire(cBody{json: cPackages}, cBody{json: cPackagesHosted})},
	{n: "#10", method: "GET", path: fixed("%s", func(f *replayFixture) []any { return []any{f.v2("/lists/%d", f.tokenPackage)} }),
		status: []int{200}, want: byWire(cBody{json: cPackageData}, cBody{json: cPackageDataHosted})},
	{n: "#11 update", method: "PUT", path: fixed("%s", func(f *replayFixture) []any { return []any{f.v2("/lists/%d", f.plainJournals)} }),
		// A managed package: every key of FOLIO's model, null where unset,
		// hidden in every category, the branded allow-add flag.
		body: fixed(`{"packageName":null,"contentType":null,"isSelected":true,"visibility":[{"category":"PF","hidden":true,"reason":null},`+
			`{"category":"FTF","hidden":true,"reason":null},{"category":"MARC","hidden":true,"reason":null}],"customDescription":null,"url":null,`+
			`"isFullPackage":null,"allowEbscoToAddTitles":true,"customCoverage":{"beginCoverage":"2003-01-01","endCoverage":"2004-01-01"},`+
			`"proxy":{"id":"EZProxy","inherited":false},"packageToken":null,"customAltNames":null,"customDisplayName":null,"packageFreeAccess":null}`,
			func(*replayFixture) []any { return nil }),
		status: []int{204}, want: constant(cBody{none: true})},
	{n: "#11 delete", method: "PUT", path: fixed("%s", func(f *replayFixture) []any { return []any{f.v2("/lists/%d", f.doomed)} }),
		body:   fixed(`{"selected":false,"isSelected":false}`, func(*replayFixture) []any { return nil }),
		status: []int{204}, want: constant(cBody{none: true})},
	{n: "#12", method: "POST", path: fixed("%s", func(f *replayFixture) []any { return []any{f.path("/vendors/%d/packages", f.customVendor)} }),
		body: fixed(`{"contentType":6,"customAltNames":null,"customDescription":null,"customDisplayName":null,`+
			`"customCoverage":{"beginCoverage":"2010-01-01","endCoverage":""},"packageFreeAccess":null,"packageName":"FOLIO Made Package",`+
			`"proxy":{"id":"EZProxy","inherited":false},"subjects":null,"url":null}`, func(*replayFixture) []any { return nil }),
		status: []int{200, 202}, want: constant(cBody{json: cObj(req("packageId", cInt))}),
		keep: func(s *folioState, b []byte) { s.packageID = member(b, "packageId") }},
	{n: "#13", method: "GET", path: fixed("%s"+folioTitleQuery, func(f *replayFixture) []any { return []any{f.path("/titles")} }),
		status: []int{200}, want: constant(cBody{json: cTitles})},
	{n: "#14", method: "GET", path: fixed("%s", func(f *replayFixture) []any { return []any{f.path("/titles/%d", f.replayJournal)} }),
		status: []int{200}, want: constant(cBody{json: cTitle(0)})},
	{n: "#15", method: "GET", path: fixed("%s"+folioTitleQuery, func(f *replayFixture) []any {
		return []any{f.path("/vendors/%d/packages/%d/titles", f.plainVendor, f.plainJournals)}
	}), status: []int{200}, want: constant(cBody{json: cTitles})},
	{n: "#16", method: "POST", path: fixed("%s", func(f *replayFixture) []any {
		return []any{f.path("/vendors/%d/packages/%d/titles", f.customVendor, f.customPackage)}
	}),
		// FOLIO's TitlePost with nulls kept, and the second key Jackson
		// writes for the primitive isPeerReviewed.
		body: fixed(`{"titleName":"FOLIO Made Title","edition":null,"publisherName":null,"pubType":"book","description":null,`+
			`"isPeerReviewed":false,"peerReviewed":false,"identifiersList":[],"contributorsList":[{"type":"author","contributor":"Doe, Jane"}],`+
			`"userDefinedField1":null,"userDefinedField2":null,"userDefinedField3":null,"userDefinedField4":null,"userDefinedField5":null}`,
			func(*replayFixture) []any { return nil }),
		status: []int{200, 202}, want: constant(cBody{json: cObj(req("titleId", cInt))}),
		keep: func(s *folioState, b []byte) { s.titleID = member(b, "titleId") }},
	{n: "#17", method: "GET", path: fixed("%s", func(f *replayFixture) []any {
		return []any{f.path("/vendors/%d/packages/%d/titles/%d", f.plainVendor, f.plainJournals, f.replayJournal)}
	}), status: []int{200}, want: constant(cBody{json: cTitle(1)})},
	{n: "#18 update", method: "PUT", path: fixed("%s", func(f *replayFixture) []any {
		return []any{f.path("/vendors/%d/packages/%d/titles/%d", f.plainVendor, f.plainJournals, f.replayAnnals)}
	}),
		// A managed resource: every key, null where unset, pubType and
		// isPeerReviewed as the GET before gave them.
		body: fixed(`{"isHidden":true,"titleName":null,"pubType":"Journal","publisherName":null,"isPeerReviewed":false,"description":null,`+
			`"edition":null,"contributorsList":null,"identifiersList":null,"coverageStatement":"Since 2001.","isSelected":true,`+
			`"customEmbargoPeriod":{"embargoUnit":"Months","embargoValue":3},"proxy":{"id":"EZProxy","inherited":false},"url":null,`+
			`"customCoverageList":[{"beginCoverage":"2001-01-01","endCoverage":""}],"userDefinedField1":null,"userDefinedField2":null,`+
			`"userDefinedField3":null,"userDefinedField4":null,"userDefinedField5":null}`, func(*replayFixture) []any { return nil }),
		status: []int{204}, want: constant(cBody{none: true})},
	{n: "#18 select", method: "PUT", path: fixed("%s", func(f *replayFixture) []any {
		return []any{f.path("/vendors/%d/packages/%d/titles/%d", f.plainVendor, f.plainEbook, f.handbook)}
	}),
		body:   fixed(`{"selected":true,"isSelected":true,"titleName":"Replay Handbook","pubType":"Book","url":null}`, func(*replayFixture) []any { return nil }),
		status: []int{204}, want: constant(cBody{none: true})},
	{n: "#18 delete", method: "PUT", path: fixed("%s", func(f *replayFixture) []any {
		return []any{f.path("/vendors/%d/packages/%d/titles/%d", f.plainVendor, f.plainJournals, f.replayAnnals)}
	}),
		body:   fixed(`{"selected":false,"isSelected":false}`, func(*replayFixture) []any { return nil }),
		status: []int{204}, want: constant(cBody{none: true})},
	{n: "#19", method: "POST", path: fixed("%s?force=true", func(f *replayFixture) []any { return []any{f.path("/holdings")} }),
		status: []int{202, 409}, want: constant(cBody{any: true})},
	{n: "#20", method: "GET", path: fixed("%s", func(f *replayFixture) []any { return []any{f.path("/holdings/status")} }),
		before: func(t *testing.T, f *replayFixture, _ *folioState) {
			waitStatus(t, f, f.path("/holdings/status"), "Completed", "Failed")
		},
		status: []int{200}, want: constant(cBody{json: cHoldingsStatus})},
	{n: "#21", method: "GET", path: fixed("%s?format=kbart2&count=2500&offset=1", func(f *replayFixture) []any { return []any{f.path("/holdings")} }),
		status: []int{200}, want: constant(cBody{json: cHoldings})},
	{n: "#22", method: "POST", path: fixed("%s?format=kbart2", func(f *replayFixture) []any { return []any{f.path("/reports/holdings")} }),
		status: []int{202, 409}, want: constant(cBody{json: cTransactionID}),
		keep: func(s *folioState, b []byte) { s.txPrevious = member(b, "transactionId"); s.transaction = s.txPrevious }},
	{n: "#23", method: "GET", path: fixed("%s", func(f *replayFixture) []any { return []any{f.path("/reports/holdings/transactions")} }),
		status: []int{200}, want: constant(cBody{json: cTransactionIDs})},
	{n: "#24", method: "GET", path: func(f *replayFixture, s *folioState) string {
		return f.path("/reports/holdings/transactions/%s/status", orNull(s.transaction))
	},
		before: func(t *testing.T, f *replayFixture, s *folioState) {
			waitStatus(t, f, f.path("/reports/holdings/transactions/%s/status", orNull(s.transaction)), "Complete", "Failed")
		},
		status: []int{200}, want: constant(cBody{json: cTransactionStatus})},
	{n: "#25", method: "GET", path: func(f *replayFixture, s *folioState) string {
		return f.path("/reports/holdings/transactions/%s?format=kbart2&count=4000&offset=1", orNull(s.transaction))
	}, status: []int{200}, want: constant(cBody{json: cHoldings})},
	{n: "#22 again", method: "POST", path: fixed("%s?format=kbart2", func(f *replayFixture) []any { return []any{f.path("/reports/holdings")} }),
		// A change between the two transactions, so that the delta has a
		// row to check: a selected package deselected. (Plain Journals is
		// hidden by #11 update, so its titles are in neither.)
		before: func(t *testing.T, f *replayFixture, _ *folioState) {
			path := f.path("/vendors/%d/packages/%d", f.tokenVendor, f.tokenPackage)
			if status, body := f.send(t, "PUT", path, `{"isSelected":false}`); status != http.StatusNoContent {
				t.Errorf("change before the second transaction: PUT %s → %d %.200s", path, status, body)
			}
		},
		status: []int{202, 409}, want: constant(cBody{json: cTransactionID}),
		keep: func(s *folioState, b []byte) { s.txCurrent = member(b, "transactionId"); s.transaction = s.txCurrent }},
	{n: "#24 again", method: "GET", path: func(f *replayFixture, s *folioState) string {
		return f.path("/reports/holdings/transactions/%s/status", orNull(s.transaction))
	},
		before: func(t *testing.T, f *replayFixture, s *folioState) {
			waitStatus(t, f, f.path("/reports/holdings/transactions/%s/status", orNull(s.transaction)), "Complete", "Failed")
		},
		status: []int{200}, want: constant(cBody{json: cTransactionStatus})},
	{n: "#26", method: "POST", path: fixed("%s", func(f *replayFixture) []any { return []any{f.path("/reports/holdings/deltas")} }),
		body: func(_ *replayFixture, s *folioState) string {
			return fmt.Sprintf(`{"currentSnapshotId":%q,"previousSnapshotId":%q}`, s.txCurrent, s.txPrevious)
		},
		status: []int{200, 202}, want: constant(cBody{text: true}),
		keep: func(s *folioState, b []byte) { s.deltaID = strings.TrimSpace(string(b)) }},
	{n: "#27", method: "GET", path: func(f *replayFixture, s *folioState) string {
		return f.path("/reports/holdings/deltas/%s/status", orNull(s.deltaID))
	},
		before: func(t *testing.T, f *replayFixture, s *folioState) {
			waitStatus(t, f, f.path("/reports/holdings/deltas/%s/status", orNull(s.deltaID)), "COMPLETED", "FAILED")
		},
		status: []int{200}, want: constant(cBody{json: cDeltaStatus})},
	{n: "#28", method: "GET", path: func(f *replayFixture, s *folioState) string {
		return f.path("/reports/holdings/deltas/%s?format=kbart2&count=4000&offset=1", orNull(s.deltaID))
	}, status: []int{200}, want: constant(cBody{json: cDeltaReportWithRows})},
}

// cDeltaReportWithRows is DeltaReport with at least one holding: the
// deselection made before the second transaction must show, or the
// holdings' shape would go unchecked.
var cDeltaReportWithRows = func() *cType {
	c := *cDeltaReport
	c.fields = slices.Clone(c.fields)
	for i, f := range c.fields {
		if f.name == "holdings" {
			h := *f.t
			h.minItems = 1
			c.fields[i] = req("holdings", &h)
		}
	}
	return &c
}()

// member returns the member key of a JSON object body as text ("" when
// there is none), for an id a later request names.
func member(body []byte, key string) string {
	var m map[string]any
	if json.Unmarshal(body, &m) != nil || m[key] == nil {
		return ""
	}
	return fmt.Sprint(m[key])
}

// orNull returns id, or "null" when an earlier answer gave none: the text
// FOLIO's paths then carry.
func orNull(id string) string {
	if id == "" {
		return "null"
	}
	return id
}

// waitStatus polls a status path as FOLIO does until its status member is
// one of done, the path is not answered 200, or half a minute passes (a
// bound on a background build, not a measure of its speed).
func waitStatus(t *testing.T, f *replayFixture, path string, done ...string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		status, body := f.send(t, "GET", path, "")
		s := member(body, "status")
		if status != http.StatusOK || time.Now().After(deadline) {
			return
		}
		for _, d := range done {
			if strings.EqualFold(s, d) {
				return
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestReplayFolioContract(t *testing.T) {
	for _, wire := range wires {
		t.Run(string(wire), func(t *testing.T) {
			f := newReplayFixture(t, wire)
			s := &folioState{}
			var failed []string
			for _, c := range folioCases {
				if c.before != nil {
					c.before(t, f, s)
				}
				path := c.path(f, s)
				body := ""
				if c.body != nil {
					body = c.body(f, s)
				}
				status, got := f.send(t, c.method, path, body)
				var diffs []string
				if !statusIs(status, c.status) {
					diffs = append(diffs, fmt.Sprintf("status %d, want %v", status, c.status))
				} else {
					diffs = checkContractBody(got, c.want(wire))
				}
				if c.keep != nil && statusIs(status, c.status) {
					c.keep(s, got)
				}
				if len(diffs) > 0 {
					failed = append(failed, fmt.Sprintf("%s %s %s: %s\n    answer: %.300s", c.n, c.method, path, strings.Join(diffs, "; "), bytes.TrimSpace(got)))
				}
			}
			if len(failed) > 0 {
				t.Errorf("%d of %d contract requests differ on the %s wire:\n%s", len(failed), len(folioCases), wire, strings.Join(failed, "\n"))
			}
		})
	}
}
