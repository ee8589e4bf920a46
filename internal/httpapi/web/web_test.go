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

	"github.com/kbserver/kbserver/internal/httpapi/apitest"
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

// decodeErrors decodes the error array of an answer with the header and
// body.
func decodeErrors(t *testing.T, header http.Header, body []byte) []ErrorModel {
	t.Helper()
	if ct := header.Get("Content-Type"); ct != ContentTypeJSON {
		t.Errorf("Content-Type = %q, want %q", ct, ContentTypeJSON)
	}
	var out []ErrorModel
	if err := json.Unmarshal(body, &out); err != nil {
		t.Fatalf("error body %q is not an array of errors: %v", body, err)
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

	res, body := apitest.Do(t, apitest.Local(h), "GET", "/notfound", nil)
	if res.StatusCode != 404 {
		t.Errorf("status = %d, want 404", res.StatusCode)
	}
	if diff := cmp.Diff([]ErrorModel{{Code: 1001, Message: "Vendor not found"}}, decodeErrors(t, res.Header, body)); diff != "" {
		t.Errorf("body (-want +got):\n%s", diff)
	}
	if want := `[{"code":1001,"subcode":0,"message":"Vendor not found"}]` + "\n"; string(body) != want {
		t.Errorf("body = %q, want %q", string(body), want)
	}

	for _, path := range []string{"/internal", "/internalcode"} {
		logBuf.Reset()
		res, body = apitest.Do(t, apitest.Local(h), "GET", path, nil)
		if res.StatusCode != 500 {
			t.Errorf("%s: status = %d, want 500", path, res.StatusCode)
		}
		if diff := cmp.Diff([]ErrorModel{{Code: 1000, Message: "Internal server error."}}, decodeErrors(t, res.Header, body)); diff != "" {
			t.Errorf("%s: body (-want +got):\n%s", path, diff)
		}
		if strings.Contains(string(body), "secret") {
			t.Errorf("%s: body leaks the internal error: %s", path, body)
		}
		if !strings.Contains(logBuf.String(), `"level":"ERROR"`) || !strings.Contains(logBuf.String(), `"route":"GET `+path+`"`) {
			t.Errorf("%s: internal error not logged at error level with its route: %s", path, logBuf)
		}
	}

	res, body = apitest.Do(t, apitest.Local(h), "GET", "/object", nil)
	if res.StatusCode != 403 || string(body) != `{"code":1004,"subcode":0,"message":"nope"}`+"\n" {
		t.Errorf("object error: %d %q", res.StatusCode, body)
	}
	res, body = apitest.Do(t, apitest.Local(h), "GET", "/notobject", nil)
	if res.StatusCode != 404 || !strings.HasPrefix(string(body), "[") {
		t.Errorf("array error on a route with other object statuses: %d %q", res.StatusCode, body)
	}
}

func TestAdapterErrorAfterWrite(t *testing.T) {
	h, logBuf := testServer(t, 1<<20, Route{Pattern: "GET /x", Handler: func(w http.ResponseWriter, r *http.Request) error {
		if err := WriteJSON(w, 200, map[string]int{"a": 1}); err != nil {
			return err
		}
		return errors.New("late failure")
	}})
	res, body := apitest.Do(t, apitest.Local(h), "GET", "/x", nil)
	if res.StatusCode != 200 || string(body) != `{"a":1}`+"\n" {
		t.Errorf("got %d %q, want the first answer untouched", res.StatusCode, body)
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

	res, body := apitest.Do(t, apitest.Local(h), "GET", "/nowhere", nil)
	if res.StatusCode != 404 {
		t.Errorf("unknown route: status %d, want 404", res.StatusCode)
	}
	if diff := cmp.Diff([]ErrorModel{{Code: 1001, Message: "No route for GET /nowhere"}}, decodeErrors(t, res.Header, body)); diff != "" {
		t.Errorf("unknown route body (-want +got):\n%s", diff)
	}

	res, body = apitest.Do(t, apitest.Local(h), "DELETE", "/a/1", nil)
	if res.StatusCode != 405 {
		t.Errorf("wrong method: status %d, want 405", res.StatusCode)
	}
	if allow := res.Header.Get("Allow"); allow != "GET, HEAD, PUT" {
		t.Errorf("Allow = %q, want %q", allow, "GET, HEAD, PUT")
	}
	errs := decodeErrors(t, res.Header, body)
	if len(errs) != 1 || errs[0].Code != 1007 || !strings.Contains(errs[0].Message, "GET, HEAD, PUT") {
		t.Errorf("wrong method body = %+v", errs)
	}

	res, body = apitest.Do(t, apitest.Local(h), "GET", "/a/1", nil)
	if res.StatusCode != 200 || string(body) != "[]\n" {
		t.Errorf("matched route: %d %q", res.StatusCode, body)
	}

	// ServeMux's own redirects pass through.
	res, body = apitest.Do(t, apitest.Local(h), "GET", "/a/../a/1", nil)
	if res.StatusCode != http.StatusTemporaryRedirect && res.StatusCode != http.StatusMovedPermanently {
		t.Errorf("unclean path: status %d, want a redirect", res.StatusCode)
	}
}

func TestServePanicAndLog(t *testing.T) {
	h, logBuf := testServer(t, 1<<20, Route{Pattern: "GET /c/{custid}/boom", Handler: func(http.ResponseWriter, *http.Request) error {
		panic("kaboom")
	}})
	res, body := apitest.Do(t, apitest.Local(h), "GET", "/c/cust1/boom", nil, APIKeyHeader, "very-secret-key")
	if res.StatusCode != 500 {
		t.Errorf("status = %d, want 500", res.StatusCode)
	}
	if diff := cmp.Diff([]ErrorModel{{Code: 1000, Message: "Internal server error."}}, decodeErrors(t, res.Header, body)); diff != "" {
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

	res, body := apitest.Do(t, apitest.Local(h), "POST", "/p", strings.NewReader(`{"name":"`+strings.Repeat("x", 100)+`"}`))
	if res.StatusCode != 413 {
		t.Errorf("status = %d, want 413", res.StatusCode)
	}
	if errs := decodeErrors(t, res.Header, body); len(errs) != 1 || errs[0].Code != 1008 {
		t.Errorf("body = %+v, want code 1008", errs)
	}

	// Bodies of unknown length fail when read: through DecodeJSON, and
	// through a handler that does not know about the limit.
	for _, path := range []string{"/p", "/raw"} {
		req := httptest.NewRequest("POST", path, strings.NewReader(`{"name":"`+strings.Repeat("x", 100)+`"}`))
		req.ContentLength = -1
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != 413 {
			t.Errorf("%s, chunked: status = %d, want 413", path, rec.Code)
		}
		if errs := decodeErrors(t, rec.Header(), rec.Body.Bytes()); len(errs) != 1 || errs[0].Code != 1008 || errs[0].Message != "Request body is larger than 32 bytes." {
			t.Errorf("%s, chunked: body = %+v", path, errs)
		}
	}

	// A declared length over the limit is refused before routing.
	res, body = apitest.Do(t, apitest.Local(h), "PUT", "/unknown", strings.NewReader(strings.Repeat("x", 100)))
	if res.StatusCode != 413 {
		t.Errorf("declared length: status = %d, want 413", res.StatusCode)
	}

	res, body = apitest.Do(t, apitest.Local(h), "POST", "/p", strings.NewReader(`{"name":"ok"}`))
	if res.StatusCode != 200 || string(body) != `{"name":"ok"}`+"\n" {
		t.Errorf("small body: %d %q", res.StatusCode, body)
	}
}

// decodeInner, decodeEmbedded and decodePayload are a payload of the
// shapes the services' payloads have, for TestDecodeJSON and
// FuzzDecodeJSON.
type decodeInner struct {
	Begin *string `json:"beginCoverage"`
}

type decodeEmbedded struct {
	Note *string `json:"note"`
}

type decodePayload struct {
	A        int               `json:"a"`
	Selected *bool             `json:"isSelected"`
	Cover    *decodeInner      `json:"customCoverage"`
	List     []decodeInner     `json:"customCoverageList"`
	Name     string            `json:"name" limit:"name"`
	Other    map[string]string `json:"other"`
	decodeEmbedded
}

func TestDecodeJSON(t *testing.T) {
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
		{`{"customCoverageList":[{"beginCoverage":"a\u0000b"}]}`, kb.CodeInvalid, "Attribute customCoverageList[0].beginCoverage must not contain NUL characters (\\u0000)."},
		{`{"isSelected":true,"isSelected":false}`, kb.CodeInvalid, "Attribute isSelected is given twice: send each member once."},
		{`{"customCoverage":{"beginCoverage":"","beginCoverage":""}}`, kb.CodeInvalid, "Attribute customCoverage.beginCoverage is given twice: send each member once."},
		{`{"customCoverageList":[{},{"end":"","end":""}]}`, kb.CodeInvalid, "Attribute customCoverageList[1].end is given twice: send each member once."},
		{`{"note":"caf` + "\xe9" + `"}`, kb.CodeInvalid, "Attribute note is not valid UTF-8 text."},
		{`{"customCoverageList":[{"beginCoverage":"2001"},{"beginCoverage":"` + "\xff" + `"}]}`, kb.CodeInvalid, "Attribute customCoverageList[1].beginCoverage is not valid UTF-8 text."},
		{`{"n` + "\xc3" + `ote":"x"}`, kb.CodeInvalid, "A member name of the body is not valid UTF-8 text."},
		{`{"customCoverage":{"beginCoverage":"\udc00"}}`, kb.CodeInvalid, "Attribute customCoverage.beginCoverage holds the escape \\udc00, half of a surrogate pair: no character."},
		{`{"note":"` + strings.Repeat("é", 10001) + `"}`, kb.CodeInvalid, "Attribute note is 10,001 characters long: at most 10,000 are allowed."},
		{`{"note":"` + strings.Repeat("é", 10000) + `"}`, 0, ""},
		{`{"name":"` + strings.Repeat("x", 1001) + `"}`, kb.CodeInvalid, "Attribute name is 1,001 characters long: at most 1,000 are allowed."},
		{`{"other":{"k":"` + strings.Repeat("x", 10001) + `"}}`, kb.CodeInvalid, "Attribute other.k is 10,001 characters long: at most 10,000 are allowed."},
		{`{"other":{"` + strings.Repeat("k", 1001) + `":"v"}}`, kb.CodeInvalid, "A member name of other is 1,001 characters long: at most 1,000 are allowed."},
		{`{"customCoverage":{"beginCoverage":1}}`, kb.CodeInvalid, "Attribute customCoverage.beginCoverage must be a string."},
		{`{"customCoverage":[]}`, kb.CodeInvalid, "Attribute customCoverage must be an object."},
		{`{"customCoverageList":{}}`, kb.CodeInvalid, "Attribute customCoverageList must be an array."},
		{`{"a":1} {}`, kb.CodeInvalid, "The request body must hold exactly one JSON value."},
		{`{"customCoverageList":` + strings.Repeat("[", 32) + strings.Repeat("]", 32) + `}`, kb.CodeInvalid,
			"The request body nests objects and arrays more than 32 deep: at most 32 levels are allowed."},
		{`{"customCoverageList":` + strings.Repeat("[", 31) + strings.Repeat("]", 31) + `}`, kb.CodeInvalid, "Attribute customCoverageList must be an object."},
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
		var v decodePayload
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
	var v decodePayload
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

func TestPathIDPair(t *testing.T) {
	for _, tt := range []struct {
		a, b   string
		x, y   int64
		errFor string // the parameter an error names; "" for none
	}{
		{"3", "41", 3, 41, ""},
		{"x", "41", 0, 0, "feedid"},
		{"3", "0", 0, 0, "runid"},
	} {
		req := httptest.NewRequest("GET", "/", nil)
		req.SetPathValue("feedid", tt.a)
		req.SetPathValue("runid", tt.b)
		x, y, err := PathIDPair(req, "feedid", "runid")
		if tt.errFor == "" && (err != nil || x != tt.x || y != tt.y) || tt.errFor != "" && !strings.Contains(kb.ErrorMessage(err), tt.errFor) {
			t.Errorf("PathIDPair(%q, %q) = %d, %d, %v; want %d, %d or an error naming %q", tt.a, tt.b, x, y, err, tt.x, tt.y, tt.errFor)
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
			res, body := apitest.Do(t, apitest.Local(h), "GET", tt.path, nil, hdr...)
			if res.StatusCode != tt.status {
				t.Errorf("status = %d, want %d", res.StatusCode, tt.status)
			}
			if diff := cmp.Diff([]ErrorModel{{Code: tt.code, Message: tt.message}}, decodeErrors(t, res.Header, body)); diff != "" {
				t.Errorf("body (-want +got):\n%s", diff)
			}
			if reached {
				t.Error("the handler ran")
			}
		})
	}
	res, body := apitest.Do(t, apitest.Local(h), "GET", "/c/custA", nil, APIKeyHeader, "key-a")
	if res.StatusCode != 200 || string(body) != `"data of custA"`+"\n" {
		t.Errorf("own key: %d %q", res.StatusCode, body)
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
		res, body := apitest.Do(t, apitest.Local(h), "GET", c.target, nil)
		if res.StatusCode != 400 || ran {
			t.Errorf("%s: status %d, handler ran %v; want 400 without the handler", c.target, res.StatusCode, ran)
			continue
		}
		if diff := cmp.Diff([]ErrorModel{{Code: kb.CodeInvalid, Message: c.message}}, decodeErrors(t, res.Header, body)); diff != "" {
			t.Errorf("%s: body (-want +got):\n%s", c.target, diff)
		}
	}
	if res, _ := apitest.Do(t, apitest.Local(h), "GET", "/things/1?search=caf%C3%A9", nil); res.StatusCode != 200 || !ran {
		t.Errorf("UTF-8 search: status %d, handler ran %v", res.StatusCode, ran)
	}
}
