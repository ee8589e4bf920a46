package web

import (
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// PathID reads the path parameter name as a positive integer id. Anything
// else is a CodeInvalid error naming the parameter.
func PathID(r *http.Request, name string) (int64, error) {
	s := r.PathValue(name)
	if s == "" || strings.TrimLeft(s, "0123456789") != "" {
		return 0, positiveIntError(name)
	}
	id, err := strconv.ParseInt(s, 10, 64)
	if err != nil || id < 1 {
		return 0, positiveIntError(name)
	}
	return id, nil
}

// PathIDPair reads the path parameters a and b as PathID does, a first.
func PathIDPair(r *http.Request, a, b string) (int64, int64, error) {
	x, err := PathID(r, a)
	if err != nil {
		return 0, 0, err
	}
	y, err := PathID(r, b)
	return x, y, err
}

func positiveIntError(name string) error {
	return kb.Errorf(kb.CodeInvalid, "Parameter %s must be a positive integer.", name)
}

// Query gives the query parameters of a request. A parameter is looked up by
// its exact name first, then without regard to case; only its first value
// counts, with surrounding white space removed. An empty value (search=, or
// search with no "=") is the same as an absent parameter.
type Query struct {
	values url.Values
}

// NewQuery parses the query string of r. Malformed pairs are skipped, as
// url.ParseQuery does.
func NewQuery(r *http.Request) Query {
	return Query{values: r.URL.Query()}
}

// Get returns the trimmed first value of the parameter name, or "" when it
// is absent or empty.
func (q Query) Get(name string) string {
	if vs, ok := q.values[name]; ok && len(vs) > 0 {
		return strings.TrimSpace(vs[0])
	}
	// Several spellings of one name (Search, SEARCH): take the smallest key,
	// so that the answer does not depend on map order.
	found := ""
	for k, vs := range q.values {
		if strings.EqualFold(k, name) && len(vs) > 0 && (found == "" || k < found) {
			found = k
		}
	}
	if found == "" {
		return ""
	}
	return strings.TrimSpace(q.values[found][0])
}

// All returns every non-empty value of a repeated parameter (subjectfacet=a
// &subjectfacet=b), trimmed, from all spellings of its name in order of
// the spellings.
func (q Query) All(name string) []string {
	var keys []string
	for k := range q.values {
		if strings.EqualFold(k, name) {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	var out []string
	for _, k := range keys {
		for _, v := range q.values[k] {
			if v = strings.TrimSpace(v); v != "" {
				out = append(out, v)
			}
		}
	}
	return out
}

// IDs reads a comma-separated list of positive integer ids from the
// parameter name (packageidfilter=12,34), each once, at most kb.MaxCount;
// nil when the parameter is absent. Anything else is a CodeInvalid error
// naming the parameter.
func IDs(q Query, name string) ([]int64, error) {
	s := q.Get(name)
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) > kb.MaxCount {
		return nil, kb.Errorf(kb.CodeInvalid, "Parameter %s holds %d ids: at most %d are allowed.", name, len(parts), kb.MaxCount)
	}
	ids := make([]int64, 0, len(parts))
	for _, p := range parts {
		p = strings.TrimSpace(p)
		id, err := strconv.ParseInt(p, 10, 64)
		if err != nil || id < 1 || strings.TrimLeft(p, "0123456789") != "" {
			return nil, kb.Errorf(kb.CodeInvalid, "Parameter %s must be a comma-separated list of positive integer ids, not %q.", name, kb.Abbrev(p, 40))
		}
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids, nil
}

// OneValueEach returns a middleware that refuses a request giving a query
// parameter more than once (in any spelling of its name: search and
// Search are one parameter) unless the parameter is one of repeatable,
// names of lists such as subjectfacet: a second value of a single-valued
// parameter would otherwise be ignored without a word.
func OneValueEach(repeatable ...string) Middleware {
	many := map[string]bool{}
	for _, name := range repeatable {
		many[strings.ToLower(name)] = true
	}
	return func(next HandlerFunc) HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) error {
			if err := oneValueEach(r.URL.Query(), many); err != nil {
				return err
			}
			return next(w, r)
		}
	}
}

// oneValueEach refuses a parameter given more than once unless many
// names it (in lower case). Of several, it names the first by name.
func oneValueEach(values url.Values, many map[string]bool) error {
	count := map[string]int{}
	for name, vs := range values {
		count[strings.ToLower(name)] += len(vs)
	}
	names := make([]string, 0, len(count))
	for name, n := range count {
		if n > 1 && !many[name] {
			names = append(names, name)
		}
	}
	if len(names) == 0 {
		return nil
	}
	slices.Sort(names)
	return kb.Errorf(kb.CodeInvalid, "Parameter %s is given %d times: it takes one value.", names[0], count[names[0]])
}
