package web

import (
	"net/http"

	"github.com/kbserver/kbserver/internal/kb"
)

// NotImplemented is the handler of an operation that kbserver does not
// serve yet: it answers 501 with code 1012 and a message naming the route,
// "Not implemented yet: POST /rm/rmaccounts/{custid}/holdings".
func NotImplemented(_ http.ResponseWriter, r *http.Request) error {
	return kb.Errorf(kb.CodeNotImplemented, "Not implemented yet: %s", r.Pattern)
}

// FillNotImplemented gives every route of routes that has no Handler the
// NotImplemented handler and marks it NotImplemented. An API family lists
// all of its operations in one table and leaves the Handler of the ones it
// does not serve yet empty; serving one later is a one-line change to that
// table. Call it before wrapping the handlers with middleware.
func FillNotImplemented(routes []Route) {
	for i := range routes {
		if routes[i].Handler == nil {
			routes[i].Handler = NotImplemented
			routes[i].NotImplemented = true
		}
	}
}
