package pfapi

import (
	"strconv"
	"strings"

	"github.com/kbserver/kbserver/internal/alpha"
	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// maxFacetCount bounds the *facetcount parameters.
const maxFacetCount = 1000

// pfPage reads count (default 50, at most 100) and offset (a page number
// from 1).
func pfPage(q web.Query) (kb.Page, error) {
	p, err := kb.ParsePage(q.Get("count"), q.Get("offset"))
	if err != nil {
		return p, err
	}
	if q.Get("count") == "" {
		p.Count = kb.PubDefaultCount
	}
	return p, nil
}

// parseBool reads true or false, in any case.
func parseBool(name string) func(string) (bool, error) {
	return func(s string) (bool, error) {
		switch strings.ToLower(s) {
		case "true":
			return true, nil
		case "false":
			return false, nil
		}
		return false, kb.Errorf(kb.CodeInvalid, "Parameter %s has an invalid value %q: allowed values are true, false.", name, s)
	}
}

// facetCount reads a facet limit: 1 to maxFacetCount, 0 when absent.
func facetCount(q web.Query, name string) (int, error) {
	s := q.Get(name)
	if s == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > maxFacetCount {
		return 0, kb.Errorf(kb.CodeInvalid, "Parameter %s must be a number from 1 to %d (got %q).", name, maxFacetCount, s)
	}
	return n, nil
}

// subjectSchemas maps the values of subjectfacetschemafilter to the
// subject schemes titles carry.
var subjectSchemas = map[string]string{
	"tli": "TLI", "bisac": "BISAC", "medical": "Medical", "library of congress": "Library of Congress",
}

// all returns every non-empty value of a repeated parameter, trimmed; a
// value with commas is several values.
func all(r web.Query, name string) []string {
	var out []string
	for _, v := range r.All(name) {
		for _, part := range strings.Split(v, ",") {
			if p := strings.TrimSpace(part); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// pubQuery reads the query parameters of GET publications.
func pubQuery(q web.Query) (kb.PubQuery, error) {
	var p kb.PubQuery
	var err error
	p.Search = q.Get("search")
	if p.Field, err = web.Enum(q, "searchfield", kb.FieldTitleName, kb.ParseSearchField); err != nil {
		return p, err
	}
	if p.Type, err = web.Enum(q, "searchtype", kb.SearchContains, kb.ParseSearchType); err != nil {
		return p, err
	}
	order, err := kb.ParseOrder(q.Get("orderby"), "titlename")
	if err != nil {
		return p, err
	}
	p.ByName = order == kb.OrderName
	if p.Page, err = pfPage(q); err != nil {
		return p, err
	}
	if p.Facets, err = web.Enum(q, "includefacets", false, parseBool("includefacets")); err != nil {
		return p, err
	}
	if s := q.Get("ispeerreviewed"); s != "" {
		v, err := parseBool("ispeerreviewed")(s)
		if err != nil {
			return p, err
		}
		p.PeerReviewed = &v
	}
	if p.ResourceType, err = web.Enum(q, "resourcetype", kb.ResourceAll, kb.ParsePubResourceType); err != nil {
		return p, err
	}
	for _, v := range all(q, "resourcetypefacet") {
		rt, err := kb.ParseResourceType(v)
		if err != nil || rt == kb.ResourceAll {
			return p, kb.Errorf(kb.CodeInvalid, "Parameter resourcetypefacet has an invalid value %q: allowed values are %s.",
				v, strings.Join(kb.ResourceTypeNames()[1:], ", "))
		}
		p.ResourceTypes = append(p.ResourceTypes, rt)
	}
	p.Subjects = q.All("subjectfacet")
	for _, v := range all(q, "packagefacet") {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id < 1 {
			return p, kb.Errorf(kb.CodeInvalid, "Parameter packagefacet must be a package id, a positive number (got %q).", v)
		}
		p.PackageIDs = append(p.PackageIDs, id)
	}
	if s := q.Get("alphamenufacet"); s != "" {
		if p.AlphaMenu, err = alpha.ParseTop(s); err != nil {
			return p, kb.Errorf(kb.CodeInvalid, "Parameter alphamenufacet: %v", err)
		}
	}
	if s := q.Get("subjectfacetschemafilter"); s != "" {
		schema, ok := subjectSchemas[strings.ToLower(s)]
		if !ok {
			return p, kb.Errorf(kb.CodeInvalid, "Parameter subjectfacetschemafilter has an invalid value %q: allowed values are tli, bisac, medical, library of congress.", s)
		}
		p.SubjectSchema = schema
	}
	for _, c := range []struct {
		name string
		to   *int
	}{
		{"subjectfacetcount", &p.SubjectFacetCount},
		{"resourcetypefacetcount", &p.ResourceTypeFacetCount},
		{"packagefacetcount", &p.PackageFacetCount},
		{"alphamenufacetcount", &p.AlphaMenuFacetCount},
	} {
		if *c.to, err = facetCount(q, c.name); err != nil {
			return p, err
		}
	}
	return p, nil
}
