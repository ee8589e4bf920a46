package web

import (
	"net/http"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNotImplementedRoutes(t *testing.T) {
	routes := []Route{
		{Pattern: "GET /served", Handler: func(w http.ResponseWriter, r *http.Request) error {
			return WriteJSON(w, 200, map[string]bool{"ok": true})
		}},
		{Pattern: "POST /stub"},
		{Pattern: "GET /headerstub", HeaderErrors: true},
	}
	FillNotImplemented(routes)
	if routes[0].NotImplemented || !routes[1].NotImplemented || !routes[2].NotImplemented {
		t.Errorf("NotImplemented flags = %v %v %v, want false true true",
			routes[0].NotImplemented, routes[1].NotImplemented, routes[2].NotImplemented)
	}
	h, _ := testServer(t, 1<<20, routes...)

	if rec := do(h, "GET", "/served", nil); rec.Code != 200 {
		t.Errorf("served route: status %d", rec.Code)
	}

	rec := do(h, "POST", "/stub", nil)
	if rec.Code != 501 {
		t.Errorf("stub: status %d, want 501", rec.Code)
	}
	want := []ErrorModel{{Code: 1012, Message: "Not implemented yet: POST /stub"}}
	if diff := cmp.Diff(want, decodeErrors(t, rec)); diff != "" {
		t.Errorf("stub body (-want +got):\n%s", diff)
	}

	rec = do(h, "GET", "/headerstub", nil)
	if rec.Code != 501 || rec.Body.Len() != 0 || rec.Header().Get(ErrorMessageHeader) != "Not implemented yet: GET /headerstub" {
		t.Errorf("header stub: status %d, body %q, %s %q", rec.Code, rec.Body, ErrorMessageHeader, rec.Header().Get(ErrorMessageHeader))
	}
}
