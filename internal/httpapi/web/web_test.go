package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kbserver/kbserver/internal/kb"
)

// testServer mounts routes behind the same wrappers the real server uses
// and returns it with the log it writes.
func testServer(t *testing.T, maxBody int64, routes ...Route) (http.Handler, *bytes.Buffer) {
	t.Helper()
	var logBuf bytes.Buffer
	logger := slog.New(slog.NewJSONHandler(&logBuf, nil))
	mux := http.NewServeMux()
	Mount(mux, logger, routes)
	return Serve(Fallback(mux), logger, maxBody), &logBuf
}

// do serves one request and returns the recorder.
func do(h http.Handler, method, target string, body io.Reader, header ...string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, body)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func decodeErrors(t *testing.T, rec *httptest.ResponseRecorder) []ErrorModel {
	t.Helper()
	if ct := rec.Header().Get("Content-Type"); ct != ContentTypeJSON {
		t.Errorf("Content-Type = %q, want %q", ct, ContentTypeJSON)
	}
	var out []ErrorModel
	if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
		t.Fatalf("error body %q is not an array of errors: %v", rec.Body.String(), err)
	}
	return out
}

func TestStatusFor(t *testing.T) {
	tests := []struct {
		code kb.Code
		want int
	}{
		{kb.CodeNotFound, 404},
		{kb.CodeUnauthenticated, 401},
		{kb.CodeForbidden, 403},
		{kb.CodeMissing, 400},
		{kb.CodeInvalid, 400},
		{kb.CodeDuplicate, 400},
		{kb.CodeNotAllowed, 400},
		{kb.CodeMethodNotAllowed, 405},
		{kb.CodeTooLarge, 413},
		{kb.CodeConflict, 409},
		{kb.CodeNotImplemented, 501},
		{kb.CodeInternal, 500},
		{1002, 500},
		{0, 500},
	}
	for _, tt := range tests {
		if got := StatusFor(tt.code); got != tt.want {
			t.Errorf("StatusFor(%d) = %d, want %d", tt.code, got, tt.want)
		}
	}
}

func TestAdapterErrors(t *testing.T) {
	fail := func(err error) HandlerFunc {
		return func(http.ResponseWriter, *http.Request) error { return err }
	}
	h, logBuf := testServer(t, 1<<20,
		Route{Pattern: "GET /notfound", Handler: fail(fmt.Errorf("read: %w", kb.NotFound("Vendor")))},
		Route{Pattern: "GET /internal", Handler: fail(errors.New("disk on fire at /var/secret"))},
		Route{Pattern: "GET /internalcode", Handler: fail(kb.Errorf(kb.CodeInternal, "secret detail"))},
		Route{Pattern: "GET /object", Handler: fail(kb.Errorf(kb.CodeForbidden, "nope")), ObjectErrors: []int{403}},
		Route{Pattern: "GET /notobject", Handler: fail(kb.Errorf(kb.CodeNotFound, "gone")), ObjectErrors: []int{403}},
	)

	rec := do(h, "GET", "/notfound", nil)
	if rec.Code != 404 {
		t.Errorf("status = %d, want 404", rec.Code)
	}
	if diff := cmp.Diff([]ErrorModel{{Code: 1001, Message: "Vendor not found"}}, decodeErrors(t, rec)); diff != "" {
		t.Errorf("body (-want +got):\n%s", diff)
	}
	if want := `[{"code":1001,"subcode":0,"message":"Vendor not found"}]` + "\n"; rec.Body.String() != want {
		t.Errorf("body = %q, want %q", rec.Body.String(), want)
	}

	for _, path := range []string{"/internal", "/internalcode"} {
		logBuf.Reset()
		rec = do(h, "GET", path, nil)
		if rec.Code != 500 {
			t.Errorf("%s: status = %d, want 500", path, rec.Code)
		}
		if diff := cmp.Diff([]ErrorModel{{Code: 1000, Message: "Internal server error."}}, decodeErrors(t, rec)); diff != "" {
			t.Errorf("%s: body (-want +got):\n%s", path, diff)
		}
		if strings.Contains(rec.Body.String(), "secret") {
			t.Errorf("%s: body leaks the internal error: %s", path, rec.Body)
		}
		if !strings.Contains(logBuf.String(), `"level":"ERROR"`) || !strings.Contains(logBuf.String(), `"route":"GET `+path+`"`) {
			t.Errorf("%s: internal error not logged at error level with its route: %s", path, logBuf)
		}
	}

	rec = do(h, "GET", "/object", nil)
	if rec.Code != 403 || rec.Body.String() != `{"code":1004,"subcode":0,"message":"nope"}`+"\n" {
		t.Errorf("object error: %d %q", rec.Code, rec.Body)
	}
	rec = do(h, "GET", "/notobject", nil)
	if rec.Code != 404 || !strings.HasPrefix(rec.Body.String(), "[") {
		t.Errorf("array error on a route with other object statuses: %d %q", rec.Code, rec.Body)
	}
}

func TestAdapterErrorAfterWrite(t *testing.T) {
	h, logBuf := testServer(t, 1<<20, Route{Pattern: "GET /x", Handler: func(w http.ResponseWriter, r *http.Request) error {
		if err := WriteJSON(w, 200, map[string]int{"a": 1}); err != nil {
			return err
		}
		return errors.New("late failure")
	}})
	rec := do(h, "GET", "/x", nil)
	if rec.Code != 200 || rec.Body.String() != `{"a":1}`+"\n" {
		t.Errorf("got %d %q, want the first answer untouched", rec.Code, rec.Body)
	}
	if !strings.Contains(logBuf.String(), "late failure") {
		t.Errorf("late failure not logged: %s", logBuf)
	}
}

func TestFallback(t *testing.T) {
	ok := func(w http.ResponseWriter, r *http.Request) error { return WriteJSON(w, 200, []int{}) }
	h, _ := testServer(t, 1<<20,
		Route{Pattern: "GET /a/{id}", Handler: ok},
		Route{Pattern: "PUT /a/{id}", Handler: ok},
	)

	rec := do(h, "GET", "/nowhere", nil)
	if rec.Code != 404 {
		t.Errorf("unknown route: status %d, want 404", rec.Code)
	}
	if diff := cmp.Diff([]ErrorModel{{Code: 1001, Message: "No route for GET /nowhere"}}, decodeErrors(t, rec)); diff != "" {
		t.Errorf("unknown route body (-want +got):\n%s", diff)
	}

	rec = do(h, "DELETE", "/a/1", nil)
	if rec.Code != 405 {
		t.Errorf("wrong method: status %d, want 405", rec.Code)
	}
	if allow := rec.Header().Get("Allow"); allow != "GET, HEAD, PUT" {
		t.Errorf("Allow = %q, want %q", allow, "GET, HEAD, PUT")
	}
	errs := decodeErrors(t, rec)
	if len(errs) != 1 || errs[0].Code != 1007 || !strings.Contains(errs[0].Message, "GET, HEAD, PUT") {
		t.Errorf("wrong method body = %+v", errs)
	}

	rec = do(h, "GET", "/a/1", nil)
	if rec.Code != 200 || rec.Body.String() != "[]\n" {
		t.Errorf("matched route: %d %q", rec.Code, rec.Body)
	}

	// ServeMux's own redirects pass through.
	rec = do(h, "GET", "/a/../a/1", nil)
	if rec.Code != http.StatusTemporaryRedirect && rec.Code != http.StatusMovedPermanently {
		t.Errorf("unclean path: status %d, want a redirect", rec.Code)
	}
}

func TestServePanicAndLog(t *testing.T) {
	h, logBuf := testServer(t, 1<<20, Route{Pattern: "GET /c/{custid}/boom", Handler: func(http.ResponseWriter, *http.Request) error {
		panic("kaboom")
	}})
	rec := do(h, "GET", "/c/cust1/boom", nil, APIKeyHeader, "very-secret-key")
	if rec.Code != 500 {
		t.Errorf("status = %d, want 500", rec.Code)
	}
	if diff := cmp.Diff([]ErrorModel{{Code: 1000, Message: "Internal server error."}}, decodeErrors(t, rec)); diff != "" {
		t.Errorf("body (-want +got):\n%s", diff)
	}
	log := logBuf.String()
	if !strings.Contains(log, "kaboom") {
		t.Errorf("panic not logged: %s", log)
	}
	if strings.Contains(log, "very-secret-key") {
		t.Errorf("log holds the API key: %s", log)
	}
	// The request line is the last line.
	lines := strings.Split(strings.TrimSpace(log), "\n")
	var line struct {
		Msg, Method, Route, CustID, Path string
		Status                           int
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &line); err != nil {
		t.Fatal(err)
	}
	want := struct {
		Msg, Method, Route, CustID, Path string
		Status                           int
	}{"request", "GET", "GET /c/{custid}/boom", "cust1", "/c/cust1/boom", 500}
	if diff := cmp.Diff(want, line); diff != "" {
		t.Errorf("request log line (-want +got):\n%s", diff)
	}
}

func TestBodyLimit(t *testing.T) {
	type payload struct {
		Name string `json:"name"`
	}
	h, _ := testServer(t, 32, Route{Pattern: "POST /p", Handler: func(w http.ResponseWriter, r *http.Request) error {
		var p payload
		if err := DecodeJSON(r, &p); err != nil {
			return err
		}
		return WriteJSON(w, 200, p)
	}}, Route{Pattern: "POST /raw", Handler: func(w http.ResponseWriter, r *http.Request) error {
		if _, err := io.ReadAll(r.Body); err != nil {
			return fmt.Errorf("read body: %w", err)
		}
		return WriteJSON(w, 200, "ok")
	}})

	rec := do(h, "POST", "/p", strings.NewReader(`{"name":"`+strings.Repeat("x", 100)+`"}`))
	if rec.Code != 413 {
		t.Errorf("status = %d, want 413", rec.Code)
	}
	if errs := decodeErrors(t, rec); len(errs) != 1 || errs[0].Code != 1008 {
		t.Errorf("body = %+v, want code 1008", errs)
	}

	// Bodies of unknown length fail when read: through DecodeJSON, and
	// through a handler that does not know about the limit.
	for _, path := range []string{"/p", "/raw"} {
		req := httptest.NewRequest("POST", path, strings.NewReader(`{"name":"`+strings.Repeat("x", 100)+`"}`))
		req.ContentLength = -1
		rec = httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 413 {
			t.Errorf("%s, chunked: status = %d, want 413", path, rec.Code)
		}
		if errs := decodeErrors(t, rec); len(errs) != 1 || errs[0].Code != 1008 || errs[0].Message != "Request body is larger than 32 bytes." {
			t.Errorf("%s, chunked: body = %+v", path, errs)
		}
	}

	// A declared length over the limit is refused before routing.
	rec = do(h, "PUT", "/unknown", strings.NewReader(strings.Repeat("x", 100)))
	if rec.Code != 413 {
		t.Errorf("declared length: status = %d, want 413", rec.Code)
	}

	rec = do(h, "POST", "/p", strings.NewReader(`{"name":"ok"}`))
	if rec.Code != 200 || rec.Body.String() != `{"name":"ok"}`+"\n" {
		t.Errorf("small body: %d %q", rec.Code, rec.Body)
	}
}

func TestDecodeJSON(t *testing.T) {
	type inner struct {
		Begin *string `json:"beginCoverage"`
	}
	type embedded struct {
		Note *string `json:"note"`
	}
	type payload struct {
		A        int     `json:"a"`
		Selected *bool   `json:"isSelected"`
		Cover    *inner  `json:"customCoverage"`
		List     []inner `json:"customCoverageList"`
		embedded
	}
	tests := []struct {
		body    string
		code    kb.Code
		message string // "" for any
	}{
		{"", kb.CodeMissing, "The request body is missing."},
		{"   ", kb.CodeMissing, "The request body is missing."},
		{`{"a":`, kb.CodeInvalid, "The request body is not valid JSON: it ends too early."},
		{`{"a" 1}`, kb.CodeInvalid, "The request body is not valid JSON: invalid character '1' after object key (at byte 6)."},
		{`{"a":"x"}`, kb.CodeInvalid, "Attribute a must be an integer."},
		{`{"a":1.5}`, kb.CodeInvalid, "Attribute a must be an integer."},
		{`{"isSelected":"yes"}`, kb.CodeInvalid, "Attribute isSelected must be a boolean."},
		{`{"customCoverage":{"beginCoverage":"2001\u0000"}}`, kb.CodeInvalid, "Attribute customCoverage.beginCoverage must not contain NUL characters (\\u0000)."},
		{`{"customCoverageList":[{"beginCoverage":"a\u0000b"}]}`, kb.CodeInvalid, "Attribute customCoverageList.beginCoverage must not contain NUL characters (\\u0000)."},
		{`{"customCoverage":{"beginCoverage":1}}`, kb.CodeInvalid, "Attribute customCoverage.beginCoverage must be a string."},
		{`{"customCoverage":[]}`, kb.CodeInvalid, "Attribute customCoverage must be an object."},
		{`{"customCoverageList":{}}`, kb.CodeInvalid, "Attribute customCoverageList must be an array."},
		{`{"a":1} {}`, kb.CodeInvalid, "The request body must hold exactly one JSON value."},
		{`[]`, kb.CodeInvalid, "The request body must be a JSON object."},
		{`null`, kb.CodeInvalid, "The request body must be a JSON object."},
		{`"x"`, kb.CodeInvalid, "The request body must be a JSON object."},
		{`{"a":1,"zzz":2,"bbb":3}`, kb.CodeInvalid, "Attribute bbb is not allowed."},
		{`{"IsSelected":true}`, kb.CodeInvalid, "Attribute IsSelected is not allowed; did you mean isSelected?"},
		{`{"customCoverage":{"beginCoverage":"","x":1}}`, kb.CodeInvalid, "Attribute customCoverage.x is not allowed."},
		{`{"customCoverageList":[{},{"end":""}]}`, kb.CodeInvalid, "Attribute customCoverageList[1].end is not allowed."},
		{`{"a":1}`, 0, ""},
		{`{"a":1}  `, 0, ""},
		{`{"isSelected":null,"customCoverage":null,"customCoverageList":null,"note":"n"}`, 0, ""},
		{`{}`, 0, ""},
	}
	for _, tt := range tests {
		req := httptest.NewRequest("POST", "/", strings.NewReader(tt.body))
		var v payload
		err := DecodeJSON(req, &v)
		if got := kb.ErrorCode(err); got != tt.code {
			t.Errorf("DecodeJSON(%q) code = %d (%v), want %d", tt.body, got, err, tt.code)
		}
		if tt.message != "" && kb.ErrorMessage(err) != tt.message {
			t.Errorf("DecodeJSON(%q) message = %q, want %q", tt.body, kb.ErrorMessage(err), tt.message)
		}
	}
	req := httptest.NewRequest("POST", "/", nil)
	req.Body = nil
	var v payload
	if err := DecodeJSON(req, &v); kb.ErrorCode(err) != kb.CodeMissing {
		t.Errorf("nil body: %v, want code %d", err, kb.CodeMissing)
	}
}

func TestPathID(t *testing.T) {
	tests := []struct {
		value string
		want  int64
		ok    bool
	}{
		{"1", 1, true},
		{"123456789", 123456789, true},
		{"0", 0, false},
		{"-1", 0, false},
		{"+1", 0, false},
		{"abc", 0, false},
		{"1.5", 0, false},
		{"99999999999999999999", 0, false},
		{"", 0, false},
	}
	for _, tt := range tests {
		req := httptest.NewRequest("GET", "/", nil)
		req.SetPathValue("vendorid", tt.value)
		got, err := PathID(req, "vendorid")
		if tt.ok {
			if err != nil || got != tt.want {
				t.Errorf("PathID(%q) = %d, %v; want %d", tt.value, got, err, tt.want)
			}
			continue
		}
		if kb.ErrorCode(err) != kb.CodeInvalid || kb.ErrorMessage(err) != "Parameter vendorid must be a positive integer." {
			t.Errorf("PathID(%q) error = %v, want CodeInvalid naming vendorid", tt.value, err)
		}
	}
}

func TestQuery(t *testing.T) {
	req := httptest.NewRequest("GET", "/?search=&selection&count=%2010%20&Offset=2&orderby=a&orderby=b&OrderBy=c", nil)
	q := NewQuery(req)
	for name, want := range map[string]string{
		"search": "", "selection": "", "count": "10", "offset": "2", "orderby": "a", "missing": "",
	} {
		if got := q.Get(name); got != want {
			t.Errorf("Get(%q) = %q, want %q", name, got, want)
		}
	}
	sel, err := Enum(q, "selection", kb.SelectionSelected, ParseSelection)
	if err != nil || sel != kb.SelectionSelected {
		t.Errorf("Enum of an empty parameter = %v, %v; want the default", sel, err)
	}
	req = httptest.NewRequest("GET", "/?selection=bogus", nil)
	if _, err := Enum(NewQuery(req), "selection", kb.SelectionAll, ParseSelection); kb.ErrorCode(err) != kb.CodeInvalid {
		t.Errorf("Enum of a bad value: %v, want CodeInvalid", err)
	}
}

// keyMap is a KeyLookup over a map from key to customer.
type keyMap map[string]string

func (m keyMap) LookupAPIKey(_ context.Context, hash kb.KeyHash) (kb.APIKey, error) {
	for key, cust := range m {
		if kb.HashAPIKey(key) == hash {
			return kb.APIKey{ID: 1, CustomerID: cust, Environment: kb.Production}, nil
		}
	}
	return kb.APIKey{}, kb.Errorf(kb.CodeUnauthenticated, "unknown key")
}

// failingKeys is a KeyLookup whose store is broken.
type failingKeys struct{}

func (failingKeys) LookupAPIKey(context.Context, kb.KeyHash) (kb.APIKey, error) {
	return kb.APIKey{}, errors.New("database is locked")
}

func TestRequireCustomerKey(t *testing.T) {
	reached := false
	inner := func(w http.ResponseWriter, r *http.Request) error {
		reached = true
		return WriteJSON(w, 200, "data of "+r.PathValue("custid"))
	}
	keys := keyMap{"key-a": "custA", "key-b": "custB"}
	h, _ := testServer(t, 1<<20,
		Route{Pattern: "GET /c/{custid}", Handler: RequireCustomerKey(KeyAuth{Keys: keys})(inner)},
		Route{Pattern: "GET /broken/{custid}", Handler: RequireCustomerKey(KeyAuth{Keys: failingKeys{}})(inner)},
	)
	tests := []struct {
		name, path, key string
		status          int
		code            kb.Code
		message         string
	}{
		{"missing key", "/c/custA", "", 401, 1003, "Missing x-api-key header."},
		{"unknown key", "/c/custA", "nope", 401, 1003, "Invalid APIKEY"},
		{"other customer", "/c/custA", "key-b", 403, 1004, "The API key is not authorized for customer custA."},
		{"store failure", "/broken/custA", "key-a", 500, 1000, "Internal server error."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			reached = false
			var hdr []string
			if tt.key != "" {
				hdr = []string{APIKeyHeader, tt.key}
			}
			rec := do(h, "GET", tt.path, nil, hdr...)
			if rec.Code != tt.status {
				t.Errorf("status = %d, want %d", rec.Code, tt.status)
			}
			if diff := cmp.Diff([]ErrorModel{{Code: tt.code, Message: tt.message}}, decodeErrors(t, rec)); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
			if reached {
				t.Error("the handler ran")
			}
		})
	}
	rec := do(h, "GET", "/c/custA", nil, APIKeyHeader, "key-a")
	if rec.Code != 200 || rec.Body.String() != `"data of custA"`+"\n" {
		t.Errorf("own key: %d %q", rec.Code, rec.Body)
	}
}

func TestWriteJSONDoesNotEscapeHTML(t *testing.T) {
	rec := httptest.NewRecorder()
	if err := WriteJSON(rec, 200, map[string]string{"u": "http://x/?a=1&b=<2>"}); err != nil {
		t.Fatal(err)
	}
	if got, want := rec.Body.String(), `{"u":"http://x/?a=1&b=<2>"}`+"\n"; got != want {
		t.Errorf("body = %q, want %q", got, want)
	}
}

// TestRequestText checks that a path or query parameter that is not UTF-8
// text without NUL characters is refused before the handler runs (both
// stores would otherwise disagree: PostgreSQL refuses such text).
func TestRequestText(t *testing.T) {
	ran := false
	h, _ := testServer(t, 1<<20, Route{Pattern: "GET /things/{id}", Handler: func(w http.ResponseWriter, r *http.Request) error {
		ran = true
		return nil
	}})
	for _, c := range []struct{ target, message string }{
		{"/things/1?search=a%00b", "Parameter search must be UTF-8 text without NUL characters."},
		{"/things/1?search=%FF", "Parameter search must be UTF-8 text without NUL characters."},
		{"/things/a%00b", "The request path must be UTF-8 text without NUL characters."},
		{"/things/%FF", "The request path must be UTF-8 text without NUL characters."},
	} {
		ran = false
		rec := do(h, "GET", c.target, nil)
		if rec.Code != 400 || ran {
			t.Errorf("%s: status %d, handler ran %v; want 400 without the handler", c.target, rec.Code, ran)
			continue
		}
		if diff := cmp.Diff([]ErrorModel{{Code: kb.CodeInvalid, Message: c.message}}, decodeErrors(t, rec)); diff != "" {
			t.Errorf("%s: body (-want +got):\n%s", c.target, diff)
		}
	}
	if rec := do(h, "GET", "/things/1?search=caf%C3%A9", nil); rec.Code != 200 || !ran {
		t.Errorf("UTF-8 search: status %d, handler ran %v", rec.Code, ran)
	}
}
