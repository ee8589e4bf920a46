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

// parseBool reads the parameter name's value as true or false, in any
// case.
func parseBool(name, value string) (bool, error) {
	switch strings.ToLower(value) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, kb.Errorf(kb.CodeInvalid, "Parameter %s has an invalid value %q: allowed values are true, false.", name, value)
}

// pubResourceType reads the parameter name's value as the resource type
// of a publication search: a display value such as "Web site", "Book
// Series" or "Thesis/Dissertation", a name such as "bookseries", or a
// number. Case, spaces, '/' and '-' do not matter.
func pubResourceType(name, value string) (kb.ResourceType, error) {
	squeezed := strings.Map(func(r rune) rune {
		if r == ' ' || r == '/' || r == '-' {
			return -1
		}
		return r
	}, value)
	rt, ok := kb.LookupResourceType(squeezed)
	if !ok {
		return 0, kb.Errorf(kb.CodeInvalid, "Parameter %s has an invalid value %q: allowed values are Journal, Newsletter, Report, Proceedings, Web site, Newspaper, Unspecified, Book, Book Series, Database, Thesis/Dissertation, Streaming Audio, Streaming Video, Audio Book.", name, value)
	}
	return rt, nil
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

// facetChoice is which facets a publication search answers: all five
// with includefacets, and the IsPeerReviewed facet as ispeerreviewed says
// ("include peer-reviewed facet information"): true includes it even
// without includefacets, false leaves it out, absent follows
// includefacets.
type facetChoice struct {
	all  bool
	peer bool
}

// facetsOf reads includefacets and ispeerreviewed.
func facetsOf(q web.Query) (facetChoice, error) {
	var c facetChoice
	var err error
	if c.all, err = web.Enum(q, "includefacets", false, parseBool); err != nil {
		return c, err
	}
	if c.peer, err = web.Enum(q, "ispeerreviewed", c.all, parseBool); err != nil {
		return c, err
	}
	return c, nil
}

// pubQuery reads the query parameters of GET publications, and which
// facets to answer.
func pubQuery(q web.Query) (p kb.PubQuery, fc facetChoice, err error) {
	if p.Search, err = web.Search(q, "search"); err != nil {
		return p, fc, err
	}
	if p.Field, err = web.Enum(q, "searchfield", kb.FieldTitleName, web.ParseSearchField); err != nil {
		return p, fc, err
	}
	if p.Type, err = web.Enum(q, "searchtype", kb.SearchContains, web.ParseSearchType); err != nil {
		return p, fc, err
	}
	order, err := web.OrderBy(q, "titlename")
	if err != nil {
		return p, fc, err
	}
	p.ByName = order == kb.OrderName
	if p.Page, err = web.Page(q, kb.PubDefaultCount); err != nil {
		return p, fc, err
	}
	if fc, err = facetsOf(q); err != nil {
		return p, fc, err
	}
	p.Facets = fc.all || fc.peer
	if s := q.Get("ispeerreviewedfacet"); s != "" {
		v, err := parseBool("ispeerreviewedfacet", s)
		if err != nil {
			return p, fc, err
		}
		p.PeerReviewed = &v
	}
	if p.ResourceType, err = web.Enum(q, "resourcetype", kb.ResourceAll, pubResourceType); err != nil {
		return p, fc, err
	}
	for _, v := range all(q, "resourcetypefacet") {
		rt, ok := kb.LookupResourceType(v)
		if !ok || rt == kb.ResourceAll {
			return p, fc, kb.Errorf(kb.CodeInvalid, "Parameter resourcetypefacet has an invalid value %q: allowed values are %s.",
				v, strings.Join(kb.ResourceTypeNames()[1:], ", "))
		}
		p.ResourceTypes = append(p.ResourceTypes, rt)
	}
	p.Subjects = q.All("subjectfacet")
	for _, v := range all(q, "packagefacet") {
		id, err := strconv.ParseInt(v, 10, 64)
		if err != nil || id < 1 {
			return p, fc, kb.Errorf(kb.CodeInvalid, "Parameter packagefacet must be a package id, a positive number (got %q).", v)
		}
		p.PackageIDs = append(p.PackageIDs, id)
	}
	if s := q.Get("alphamenufacet"); s != "" {
		e, err := alpha.ParseEntry(s)
		if err != nil {
			return p, fc, kb.Errorf(kb.CodeInvalid, "Parameter alphamenufacet: %v", err)
		}
		p.AlphaMenu = e.String()
	}
	if s := q.Get("subjectfacetschemafilter"); s != "" {
		schema, ok := subjectSchemas[strings.ToLower(s)]
		if !ok {
			return p, fc, kb.Errorf(kb.CodeInvalid, "Parameter subjectfacetschemafilter has an invalid value %q: allowed values are tli, bisac, medical, library of congress.", s)
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
			return p, fc, err
		}
	}
	return p, fc, nil
}
