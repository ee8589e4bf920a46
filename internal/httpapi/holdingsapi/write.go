package holdingsapi

import (
	"net/http"

	"github.com/kbserver/kbserver/internal/httpapi/web"
)

// The write side of the holdings service. Each handler reads its path ids,
// decodes its body strictly (web.DecodeJSON), checks every rule that the
// body alone decides (validate.go), and makes one call of kb.HoldingsWriter,
// which is one transaction and records the change with the caller's API key
// (put in the context by web.RequireCustomerKey). A request that fails a
// check changes nothing.

// noContent answers 204 with no body, as every PUT and DELETE of the
// service does.
func noContent(w http.ResponseWriter) error {
	w.WriteHeader(http.StatusNoContent)
	return nil
}

// decode reads the request body strictly into a payload P and turns it into
// the store's T with read, which checks the body's rules.
func decode[P, T any](r *http.Request, read func(*P) (T, error)) (T, error) {
	var body P
	if err := web.DecodeJSON(r, &body); err != nil {
		var zero T
		return zero, err
	}
	return read(&body)
}
