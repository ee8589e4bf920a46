package apitest

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// recorder is a TB that keeps the errors reported to it.
type recorder struct {
	mu     sync.Mutex
	errors []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) { panic(fmt.Sprintf(format, args...)) }

func (r *recorder) Cleanup(func()) {}

func (r *recorder) all() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return strings.Join(r.errors, "\n")
}

// A valid vendor detail, and variants that break it.
const vendorOK = `{"vendorId":1,"vendorName":"V","isCustomer":false,"packagesTotal":1,"packagesSelected":0,"proxy":{"id":"<n>","inherited":true,"proxiedUrl":null},"vendorToken":null}`

// fake answers every request with one status, Content-Type and body.
func fake(status int, ctype, body string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ctype != "" {
			w.Header().Set("Content-Type", ctype)
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	})
}

// TestHandlerReportsMismatches checks that the helper reports every kind
// of mismatch it promises to, and nothing for a correct exchange.
func TestHandlerReportsMismatches(t *testing.T) {
	const json = "application/json; charset=utf-8"
	vendor := "/rm/rmaccounts/c/vendors/1"
	tests := []struct {
		name    string
		method  string
		path    string
		key     bool
		handler http.Handler
		want    string // a part of the report; "" for none
	}{
		{"valid", "GET", vendor, true, fake(200, json, vendorOK), ""},
		{"valid HEAD", "HEAD", vendor, true, fake(200, json, ""), ""},
		{"missing field", "GET", vendor, true, fake(200, json, strings.Replace(vendorOK, `"isCustomer":false,`, "", 1)), `property "isCustomer" is missing`},
		{"misnamed field", "GET", vendor, true, fake(200, json, strings.Replace(vendorOK, `"vendorName"`, `"name"`, 1)), `property "name" is unsupported`},
		{"extra field", "GET", vendor, true, fake(200, json, strings.Replace(vendorOK, `{`, `{"extra":1,`, 1)), `property "extra" is unsupported`},
		{"wrong type", "GET", vendor, true, fake(200, json, strings.Replace(vendorOK, `"vendorId":1`, `"vendorId":"1"`, 1)), "/vendorId"},
		{"null where not nullable", "GET", vendor, true, fake(200, json, strings.Replace(vendorOK, `"vendorName":"V"`, `"vendorName":null`, 1)), "/vendorName"},
		{"wrong content type", "GET", vendor, true, fake(200, "text/plain", vendorOK), "Content-Type"},
		{"error body not an array", "GET", vendor, true, fake(404, json, `{"code":1001,"subcode":0,"message":"x"}`), "404"},
		{"undeclared status", "GET", "/pf/pfaccount/a.b.c/allpackages", false, fake(418, "", ""), "418"},
		{"pf error without header", "GET", "/pf/pfaccount/a.b.c/allpackages", false, fake(400, "", ""), "X-Error-Message"},
		{"accepted invalid parameter", "GET", "/rm/rmaccounts/c/vendors?count=0", true, fake(200, json, `{"totalResults":0,"vendors":[]}`), "count"},
		{"accepted without key", "GET", vendor, false, fake(200, json, vendorOK), "x-api-key"},
		{"refused invalid parameter", "GET", "/rm/rmaccounts/c/vendors?count=0", true, fake(400, json, `[{"code":1006,"subcode":0,"message":"bad"}]`), ""},
		{"unknown route answered 200", "GET", "/nowhere", false, fake(200, json, `{}`), "no operation"},
		{"unknown route answered 404", "GET", "/nowhere", false, fake(404, json, `[{"code":1001,"subcode":0,"message":"No route"}]`), ""},
		{"unknown route with bad error body", "GET", "/nowhere", false, fake(404, json, `[{"code":1001}]`), "errors"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec := &recorder{}
			srv := NewServer(rec, tt.handler)
			defer srv.Close()
			key := ""
			if tt.key {
				key = "k"
			}
			Do(t, srv.Client(), tt.method, srv.URL+tt.path, nil, "x-api-key", key)
			got := rec.all()
			switch {
			case tt.want == "" && got != "":
				t.Errorf("reported a correct exchange:\n%s", got)
			case tt.want != "" && got == "":
				t.Errorf("reported nothing, want a report naming %q", tt.want)
			case tt.want != "" && !strings.Contains(got, tt.want):
				t.Errorf("report does not name %q:\n%s", tt.want, got)
			}
		})
	}
}
