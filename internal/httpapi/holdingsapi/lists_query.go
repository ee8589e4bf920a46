package holdingsapi

import (
	"slices"
	"strconv"
	"strings"

	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// The query of the v2 package lists, as clients of the hosted service send
// it: selection, contenttype, searchtype, searchfield, visibilitytype,
// highlighttag, facetstoinclude, subjectfacetcount, packagefreeaccess,
// isprimarypackage, search, offset, count and orderby. A value that is not
// allowed is 400 naming the parameter and the allowed values.

// Limits of the list parameters that have no limit elsewhere.
const (
	maxHighlightTag      = 20    // characters of a highlight tag
	maxSubjectFacetCount = 10000 // subjects a facet may ask for
)

// listQuery is a v2 package list request: the store's query, and whether
// a filter leaves nothing to list (a content type, free access or primary
// filter no kbserver package can pass).
type listQuery struct {
	kb.PackageQuery
	empty bool
}

// Names of the search fields and the facets of the v2 lists.
var (
	listSearchFields = []string{"name", "keyword"}
	listFacetNames   = []string{"subject", "package"}
)

// readListQuery reads the parameters of the v2 package lists.
func readListQuery(p web.Query) (listQuery, error) {
	var q listQuery
	var err error
	if q.Search, err = web.Search(p, "search"); err != nil {
		return q, err
	}
	if q.Selection, err = web.Enum(p, "selection", kb.SelectionAll, web.ParseSelection); err != nil {
		return q, err
	}
	if s := p.Get("contenttype"); s != "" {
		c, other, ok := kb.LookupHostedContentType(s)
		if !ok {
			return q, badValue("contenttype", s, kb.HostedContentTypeNames(), " (or 0-9)")
		}
		q.ContentType, q.empty = c, q.empty || other
	}
	t, err := web.Enum(p, "searchtype", kb.SearchAdvanced, web.ParseSearchType)
	if err != nil {
		return q, err
	}
	q.Match = kb.PackageMatchOf(t)
	field, err := oneOf(p, "searchfield", listSearchFields)
	if err != nil {
		return q, err
	}
	q.Keyword = field == "keyword"
	if s := p.Get("visibilitytype"); s != "" {
		var ok bool
		if q.Visibility, ok = kb.LookupVisibilityType(s); !ok {
			return q, badValue("visibilitytype", s, kb.VisibilityTypeNames(), "")
		}
	}
	if err := checkListExtras(p); err != nil {
		return q, err
	}
	free, err := flag(p, "packagefreeaccess", true)
	if err != nil {
		return q, err
	}
	primary, err := flag(p, "isprimarypackage", false)
	if err != nil {
		return q, err
	}
	q.empty = q.empty || !kb.FlagFilterPasses(free, kb.PackageFreeAccess) || !kb.FlagFilterPasses(primary, kb.PackageIsPrimary)
	if q.OrderBy, err = web.OrderBy(p, "packagename"); err != nil {
		return q, err
	}
	if q.Page, err = web.Page(p, kb.DefaultCount); err != nil {
		return q, err
	}
	return q, nil
}

// checkListExtras checks the parameters that change nothing in kbserver's
// answer: highlighttag (matches are not marked: a package name is data,
// and clients cache it), facetstoinclude (the facets are always there,
// empty: listFacets) and subjectfacetcount.
func checkListExtras(p web.Query) error {
	if s := p.Get("highlighttag"); s != "" {
		if len(s) > maxHighlightTag || strings.IndexFunc(s, func(r rune) bool {
			return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
		}) >= 0 {
			return kb.Errorf(kb.CodeInvalid, "Parameter highlighttag must be a tag name of 1 to %d letters and digits (got %q).",
				maxHighlightTag, kb.Abbrev(s, 40))
		}
	}
	if s := p.Get("facetstoinclude"); s != "" {
		for _, f := range strings.Split(s, ",") {
			f = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(f)), "s")
			if !slices.Contains(listFacetNames, f) {
				return badValue("facetstoinclude", s, listFacetNames, " (a comma-separated list)")
			}
		}
	}
	if s := p.Get("subjectfacetcount"); s != "" {
		if n, err := strconv.Atoi(s); err != nil || n < 1 || n > maxSubjectFacetCount {
			return kb.Errorf(kb.CodeInvalid, "Parameter subjectfacetcount is outside the range 1-%d (got %q).",
				maxSubjectFacetCount, kb.Abbrev(s, 40))
		}
	}
	return nil
}

// oneOf reads a parameter whose value is one of names, in any case; absent
// is names[0].
func oneOf(p web.Query, name string, names []string) (string, error) {
	s := p.Get(name)
	if s == "" {
		return names[0], nil
	}
	for _, n := range names {
		if strings.EqualFold(s, n) {
			return n, nil
		}
	}
	return "", badValue(name, s, names, "")
}

// flag reads a true/false filter, in any case; absent is nil. withAll also
// takes ALL, which is no filter.
func flag(p web.Query, name string, withAll bool) (*bool, error) {
	s := p.Get(name)
	names := []string{"true", "false"}
	if withAll {
		names = []string{"all", "true", "false"}
	}
	v, err := oneOf(p, name, names)
	if s == "" || err != nil || v == "all" {
		return nil, err
	}
	b := v == "true"
	return &b, nil
}

// badValue is the error for a parameter value that is not allowed.
func badValue(name, value string, allowed []string, more string) error {
	return kb.Errorf(kb.CodeInvalid, "Parameter %s has an invalid value %q: allowed values are %s%s.",
		name, kb.Abbrev(value, 100), strings.Join(allowed, ", "), more)
}
