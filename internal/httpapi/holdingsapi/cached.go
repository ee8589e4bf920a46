package holdingsapi

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// This file answers the hot reads of one object (a title, a resource, a
// vendor, a package) from a cache of finished answers (answercache). An
// answer is kept under its request (wire, path with the customer id and
// the object's ids, query) and the customer's version, which the store
// changes in the transaction of every write that can change an answer in
// the customer's context (an import, the customer's holdings, root proxy,
// labels and proxies: kbsql's versions.go). The version is read from the
// store at every request, in the API-key lookup's statement (APIKey.Version),
// so an answer is never served after a write made by this instance or any
// other over the same database. The API-key check runs before (routes.go wraps every handler
// in it), and the key names the customer, so one customer's answer is
// never served to another.

// cached returns next served through the cache of answers, or next itself
// when there is no cache. Only 200 answers with a JSON body are kept.
func (h *handlers) cached(next web.HandlerFunc) web.HandlerFunc {
	if h.answers == nil {
		return next
	}
	return func(w http.ResponseWriter, r *http.Request) error {
		// The API-key check read the customer's version with the key;
		// without it (a store that does not), it is read here.
		version, ok := kb.VersionFrom(r.Context())
		if !ok {
			custID := r.PathValue("custid")
			var err error
			if version, err = h.store.CollectionVersion(r.Context(), custID); err != nil {
				return fmt.Errorf("version of %s: %w", custID, err)
			}
		}
		key := answerKey(r)
		if body, ok := h.answers.Get(key, version); ok {
			return writeCachedJSON(w, body)
		}
		rec := &answerRecorder{ResponseWriter: w}
		if err := next(rec, r); err != nil {
			return err
		}
		if rec.status == http.StatusOK && rec.Header().Get("Content-Type") == web.ContentTypeJSON {
			h.answers.Put(key, version, rec.body)
		}
		return nil
	}
}

// answerKey is the cache key of a request: the wire it is answered in, its
// path (which names the customer and the object) and its query.
func answerKey(r *http.Request) string {
	var b strings.Builder
	wire := string(web.WireOf(r))
	b.Grow(len(wire) + len(r.URL.Path) + len(r.URL.RawQuery) + 2)
	b.WriteString(wire)
	b.WriteByte(' ')
	b.WriteString(r.URL.Path)
	b.WriteByte('?')
	b.WriteString(r.URL.RawQuery)
	return b.String()
}

// writeCachedJSON answers 200 with a finished JSON body (a kept one, or
// one writeJSONAppended made) and the headers web.WriteJSON sends, with the
// length: one write.
func writeCachedJSON(w http.ResponseWriter, body []byte) error {
	h := w.Header()
	jsonHeaders(h)
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	if _, err := w.Write(body); err != nil {
		return fmt.Errorf("write JSON response: %w", err)
	}
	return nil
}

// answerRecorder passes an answer through to the client and keeps a copy
// of its status and body.
type answerRecorder struct {
	http.ResponseWriter
	status int
	body   []byte
}

func (a *answerRecorder) WriteHeader(code int) {
	if a.status == 0 {
		a.status = code
	}
	a.ResponseWriter.WriteHeader(code)
}

func (a *answerRecorder) Write(p []byte) (int, error) {
	if a.status == 0 {
		a.status = http.StatusOK
	}
	a.body = append(a.body, p...)
	return a.ResponseWriter.Write(p)
}

// Unwrap lets http.ResponseController reach the client's writer.
func (a *answerRecorder) Unwrap() http.ResponseWriter { return a.ResponseWriter }
