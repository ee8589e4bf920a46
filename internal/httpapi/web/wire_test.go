package web

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

func TestParseWire(t *testing.T) {
	for in, want := range map[string]Wire{"": WireSpec, "spec": WireSpec, "hosted": WireHosted} {
		if got, err := ParseWire(in); err != nil || got != want {
			t.Errorf("ParseWire(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, in := range []string{"Hosted", "folio", " spec"} {
		if _, err := ParseWire(in); err == nil || !strings.Contains(err.Error(), `"spec"`) {
			t.Errorf("ParseWire(%q) = %v, want an error naming the wires", in, err)
		}
	}
}

// TestWireErrorBodies checks every kind of error answer on both wires: a
// handler's error (array, or object where the route says so), an unknown
// route, a wrong method, a panic and a body over the limit. The hosted
// wire answers its usual envelope everywhere but for the 400 and 404 of
// the title operations (capitalised) and the 400 of the title search
// (codes as strings).
func TestWireErrorBodies(t *testing.T) {
	capitalised := map[int]HostedEnvelope{http.StatusBadRequest: EnvelopeCapitalised, http.StatusNotFound: EnvelopeCapitalised}
	routes := []Route{
		{Pattern: "GET /missing", Handler: func(http.ResponseWriter, *http.Request) error { return kb.NotFound("Vendor") }},
		{Pattern: "GET /object", Handler: func(http.ResponseWriter, *http.Request) error { return kb.NotFound("Customer") },
			ObjectErrors: []int{http.StatusNotFound}},
		{Pattern: "GET /panic", Handler: func(http.ResponseWriter, *http.Request) error { panic("boom") }},
		{Pattern: "GET /list", Handler: func(w http.ResponseWriter, r *http.Request) error {
			return WriteJSON(w, http.StatusOK, WireOf(r).List("proxies", []string{"a"}))
		}},
		// Operations whose errors the hosted service answers in its other
		// envelopes, by status.
		{Pattern: "GET /rm/rmaccounts/{custid}/titles/{kbid}", Handler: func(_ http.ResponseWriter, r *http.Request) error {
			if r.PathValue("kbid") == "0" {
				return kb.Errorf(kb.CodeForbidden, "Not yours.")
			}
			return kb.NotFound("Title")
		}, HostedErrors: capitalised},
		{Pattern: "PUT /rm/rmaccounts/{custid}/vendors/{vendorid}/packages/{packageid}/titles/{kbid}", Handler: func(http.ResponseWriter, *http.Request) error {
			return kb.Errorf(kb.CodeInvalid, "Attribute Type is invalid.")
		}, HostedErrors: capitalised},
		{Pattern: "GET /rm/rmaccounts/{custid}/titles", Handler: func(http.ResponseWriter, *http.Request) error {
			return kb.Errorf(kb.CodeInvalid, "Parameter count is out of range.")
		}, HostedErrors: map[int]HostedEnvelope{http.StatusBadRequest: EnvelopeStringCodes}},
		{Pattern: "GET /rm/rmaccounts/{custid}/vendors", Handler: func(http.ResponseWriter, *http.Request) error {
			return kb.Errorf(kb.CodeInvalid, "Parameter count is out of range.")
		}},
	}
	h, _ := testServer(t, 10, routes...)
	tests := []struct {
		method, path, body string
		status             int
		spec, hosted       string
	}{
		{"GET", "/missing", "", 404, `[{"code":1001,"subcode":0,"message":"Vendor not found"}]`,
			`{"errors":[{"code":1001,"subCode":0,"message":"Vendor not found"}]}`},
		{"GET", "/object", "", 404, `{"code":1001,"subcode":0,"message":"Customer not found"}`,
			`{"errors":[{"code":1001,"subCode":0,"message":"Customer not found"}]}`},
		{"GET", "/nowhere", "", 404, `[{"code":1001,"subcode":0,"message":"No route for GET /nowhere"}]`,
			`{"errors":[{"code":1001,"subCode":0,"message":"No route for GET /nowhere"}]}`},
		{"POST", "/missing", "", 405, `[{"code":1007,"subcode":0,"message":"Method POST is not allowed for /missing; allowed: GET, HEAD."}]`,
			`{"errors":[{"code":1007,"subCode":0,"message":"Method POST is not allowed for /missing; allowed: GET, HEAD."}]}`},
		{"GET", "/panic", "", 500, `[{"code":1000,"subcode":0,"message":"Internal server error."}]`,
			`{"errors":[{"code":1000,"subCode":0,"message":"Internal server error."}]}`},
		{"POST", "/list", "more than ten bytes", 413, `[{"code":1008,"subcode":0,"message":"Request body is larger than 10 bytes."}]`,
			`{"errors":[{"code":1008,"subCode":0,"message":"Request body is larger than 10 bytes."}]}`},
		{"GET", "/list", "", 200, `{"proxies":["a"]}`, `["a"]`},
		{"GET", "/rm/rmaccounts/c/titles/1", "", 404, `[{"code":1001,"subcode":0,"message":"Title not found"}]`,
			`{"Errors":[{"Code":1001,"Message":"Title not found","SubCode":0}]}`},
		{"GET", "/rm/rmaccounts/c/titles/0", "", 403, `[{"code":1004,"subcode":0,"message":"Not yours."}]`,
			`{"errors":[{"code":1004,"subCode":0,"message":"Not yours."}]}`},
		{"PUT", "/rm/rmaccounts/c/vendors/1/packages/2/titles/3", "{}", 400, `[{"code":1006,"subcode":0,"message":"Attribute Type is invalid."}]`,
			`{"Errors":[{"Code":1006,"Message":"Attribute Type is invalid.","SubCode":0}]}`},
		{"GET", "/rm/rmaccounts/c/titles", "", 400, `[{"code":1006,"subcode":0,"message":"Parameter count is out of range."}]`,
			`{"errors":[{"code":"1006","message":"Parameter count is out of range.","subCode":"0"}]}`},
		{"GET", "/rm/rmaccounts/c/vendors", "", 400, `[{"code":1006,"subcode":0,"message":"Parameter count is out of range."}]`,
			`{"errors":[{"code":1006,"subCode":0,"message":"Parameter count is out of range."}]}`},
		{"GET", "/rm/rmaccounts/c/titles/1/more", "", 404, `[{"code":1001,"subcode":0,"message":"No route for GET /rm/rmaccounts/c/titles/1/more"}]`,
			`{"errors":[{"code":1001,"subCode":0,"message":"No route for GET /rm/rmaccounts/c/titles/1/more"}]}`},
	}
	for _, wire := range []Wire{WireSpec, WireHosted} {
		server := SpeakWire(wire, h)
		for _, tt := range tests {
			req := httptest.NewRequest(tt.method, tt.path, strings.NewReader(tt.body))
			rec := httptest.NewRecorder()
			server.ServeHTTP(rec, req)
			want := tt.spec
			if wire == WireHosted {
				want = tt.hosted
			}
			if got := strings.TrimSpace(rec.Body.String()); rec.Code != tt.status || got != want {
				t.Errorf("%s wire, %s %s: %d %s, want %d %s", wire, tt.method, tt.path, rec.Code, got, tt.status, want)
			}
		}
	}
}
