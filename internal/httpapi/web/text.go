package web

import (
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/kbserver/kbserver/internal/kb"
)

// storableText reports whether s is text every store keeps as given: valid
// UTF-8 without NUL characters (PostgreSQL refuses both in text columns;
// SQLite would keep them, so both stores refuse them alike).
func storableText(s string) bool {
	return utf8.ValidString(s) && !strings.ContainsRune(s, 0)
}

// maxPath is the longest request path taken, in bytes.
const maxPath = 2000

// checkRequestText refuses a request whose path or query parameters are not
// storable text or too long (paramLimit), or a parameter given more than
// kb.MaxRepeated times, naming the parameter, before any handler sees
// them. (A search's words are counted where it is read: Search.)
func checkRequestText(r *http.Request) error {
	if !storableText(r.URL.Path) {
		return kb.Errorf(kb.CodeInvalid, "The request path must be UTF-8 text without NUL characters.")
	}
	if len(r.URL.Path) > maxPath {
		return kb.Errorf(kb.CodeInvalid, "The request path is %s bytes long: at most %s are allowed.", kb.Thousands(len(r.URL.Path)), kb.Thousands(maxPath))
	}
	for name, values := range r.URL.Query() {
		if !storableText(name) {
			return kb.Errorf(kb.CodeInvalid, "Query parameter names must be UTF-8 text without NUL characters.")
		}
		if e := kb.LimitID.Exceeded(name); e != "" {
			return kb.Errorf(kb.CodeInvalid, "A query parameter name %s.", e)
		}
		if len(values) > kb.MaxRepeated {
			return kb.Errorf(kb.CodeInvalid, "Parameter %s is given %s times: at most %d are allowed.", name, kb.Thousands(len(values)), kb.MaxRepeated)
		}
		for _, v := range values {
			if !storableText(v) {
				return kb.Errorf(kb.CodeInvalid, "Parameter %s must be UTF-8 text without NUL characters.", name)
			}
			if e := paramLimit(name).Exceeded(v); e != "" {
				return kb.Errorf(kb.CodeInvalid, "Parameter %s %s.", name, e)
			}
		}
	}
	return nil
}

// paramLimit is the limit of a query parameter's values: a search's
// (kb.LimitSearch), else a URL's, the longest value a parameter takes.
func paramLimit(name string) kb.TextLimit {
	switch strings.ToLower(name) {
	case "search", "searchvalue":
		return kb.LimitSearch
	}
	return kb.LimitURL
}

// Search returns the trimmed search parameter (name) of q, refusing one
// that is too long or has too many words (kb.CheckSearch).
func Search(q Query, name string) (string, error) {
	s := q.Get(name)
	return s, kb.CheckSearch("Parameter "+name, s)
}

// Text returns the trimmed parameter name of q, refusing one longer than
// its limit.
func Text(q Query, name string, l kb.TextLimit) (string, error) {
	s := q.Get(name)
	if e := l.Exceeded(s); e != "" {
		return "", kb.Errorf(kb.CodeInvalid, "Parameter %s %s.", name, e)
	}
	return s, nil
}
