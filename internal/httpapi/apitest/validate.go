package apitest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
)

// NewServer starts an httptest server for h whose every exchange is checked
// with Handler, and closes it when the test ends.
func NewServer(t TB, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(Handler(t, h))
	t.Cleanup(srv.Close)
	return srv
}

// Handler wraps h so that every exchange is checked against the API
// description; a mismatch is reported with t.Errorf, naming the method,
// the path, the status and what does not match. The rules:
//
//   - The answer must match the operation's response for its status:
//     status declared, Content-Type, headers and body schema (no missing,
//     extra or mistyped field). A HEAD request is checked as a GET whose
//     body is not sent.
//   - A request the description has no operation for must be answered 404,
//     405 or 413: with an error array body, or, from a service that answers
//     errors with no body (publication search, resource management), with
//     none and the message in X-Error-Message, or from the pages, a page.
//   - The request must match the operation (parameters, body, the API key
//     being present) when the answer is 2xx. Tests send invalid requests
//     on purpose, so a request that does not match is only reported when
//     the server accepted it.
//
// The answer is buffered: the client receives it after the check.
func Handler(t TB, h http.Handler) http.Handler {
	t.Helper()
	d, err := load()
	if err != nil {
		t.Fatalf("%v", err)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			t.Errorf("apitest: read request body of %s %s: %v", r.Method, r.URL.Path, err)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		if problem := d.check(r, body, rec); problem != "" {
			t.Errorf("%s %s → %d does not match api/openapi.yaml: %s\nresponse body: %s",
				r.Method, r.URL.RequestURI(), rec.Code, problem, truncate(rec.Body.Bytes()))
		}
		for k, vs := range rec.Header() {
			w.Header()[k] = vs
		}
		w.WriteHeader(rec.Code)
		_, _ = w.Write(rec.Body.Bytes())
	})
}

// check returns what does not match the description in one exchange, or
// "" when everything does.
func (d *description) check(r *http.Request, body []byte, rec *httptest.ResponseRecorder) string {
	ctx := context.Background()
	head := r.Method == http.MethodHead
	req := r.Clone(ctx)
	req.Body = io.NopCloser(bytes.NewReader(body))
	if head {
		req.Method = http.MethodGet
	}
	route, pathParams, err := d.router.FindRoute(req)
	if err != nil {
		if !errors.Is(err, routers.ErrPathNotFound) && !errors.Is(err, routers.ErrMethodNotAllowed) {
			return fmt.Sprintf("finding the operation: %v", err)
		}
		return d.checkUnrouted(rec, head)
	}
	in := &openapi3filter.RequestValidationInput{
		Request:    req,
		PathParams: pathParams,
		Route:      route,
		Options: &openapi3filter.Options{
			AuthenticationFunc:  requireAPIKey,
			MultiError:          true,
			SkipSettingDefaults: true,
		},
	}
	var problems []string
	if err := openapi3filter.ValidateRequest(ctx, in); err != nil && rec.Code >= 200 && rec.Code < 300 {
		problems = append(problems, fmt.Sprintf("the server accepted a request that the description does not allow: %v", err))
	}
	out := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 rec.Code,
		Header:                 rec.Header(),
		Body:                   io.NopCloser(bytes.NewReader(rec.Body.Bytes())),
		Options: &openapi3filter.Options{
			IncludeResponseStatus: true,
			MultiError:            true,
			ExcludeResponseBody:   head,
		},
	}
	if err := openapi3filter.ValidateResponse(ctx, out); err != nil {
		problems = append(problems, fmt.Sprintf("response of operation %s: %v", route.Operation.OperationID, err))
	}
	return strings.Join(problems, "\n")
}

// checkUnrouted checks the answer to a request that no operation of the
// description takes: an unknown route (404), a known path with another
// method (405) or a body refused before routing (413), each with an error
// array body.
func (d *description) checkUnrouted(rec *httptest.ResponseRecorder, head bool) string {
	switch rec.Code {
	case http.StatusNotFound, http.StatusMethodNotAllowed, http.StatusRequestEntityTooLarge:
	default:
		return fmt.Sprintf("no operation of the description takes this request, yet it was answered %d (want 404, 405 or 413)", rec.Code)
	}
	if head {
		return ""
	}
	ct := rec.Header().Get("Content-Type")
	switch {
	case rec.Body.Len() == 0 && rec.Header().Get("X-Error-Message") != "":
		return "" // a service's error with no body
	case strings.HasPrefix(ct, "text/html") && bytes.Contains(rec.Body.Bytes(), []byte("<!doctype html>")):
		return "" // the pages' error page
	}
	if !strings.HasPrefix(ct, "application/json") {
		return fmt.Sprintf("error answer has Content-Type %q, want application/json", ct)
	}
	var v any
	if err := json.Unmarshal(rec.Body.Bytes(), &v); err != nil {
		return fmt.Sprintf("error answer is not JSON: %v", err)
	}
	schema := d.doc.Components.Schemas["errors"]
	if schema == nil || schema.Value == nil {
		return "the description has no components.schemas.errors"
	}
	if err := schema.Value.VisitJSON(v, openapi3.EnableJSONSchema2020()); err != nil {
		return fmt.Sprintf("error answer does not match #/components/schemas/errors: %v", err)
	}
	return ""
}

// requireAPIKey is the check of the description's security schemes: an
// apiKey scheme is met when its header, query parameter or cookie is
// present. Whether the key is right is the server's business.
func requireAPIKey(_ context.Context, in *openapi3filter.AuthenticationInput) error {
	s := in.SecurityScheme
	if s == nil || s.Type != "apiKey" {
		return fmt.Errorf("security scheme %q is not supported by apitest", in.SecuritySchemeName)
	}
	r := in.RequestValidationInput.Request
	var present bool
	switch s.In {
	case "header":
		present = r.Header.Get(s.Name) != ""
	case "query":
		present = r.URL.Query().Get(s.Name) != ""
	case "cookie":
		_, err := r.Cookie(s.Name)
		present = err == nil
	}
	if !present {
		return fmt.Errorf("%s %s is missing", s.In, s.Name)
	}
	return nil
}

// truncate shortens a body for a test message.
func truncate(b []byte) string {
	const max = 2000
	if len(b) > max {
		return string(b[:max]) + "…"
	}
	return string(b)
}
