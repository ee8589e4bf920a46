package holdingsapi

import (
	"net/http"
	"strconv"
	"sync"

	"github.com/kbserver/kbserver/internal/kb"
)

// This file writes the title answers (GET titles, a title, a resource),
// the largest and most frequent answers of the holdings service, without
// encoding/json: its reflection over the wire types and its allocations
// cost more than the rest of a title GET's Go code. The append functions
// below write exactly the bytes encoding/json's Encoder writes for the wire
// types with SetEscapeHTML(false), as web.WriteJSON does (field order and
// names of wire.go, null for nil pointers and slices, the same string
// escapes); TestTitleJSONMatchesEncodingJSON checks it. A field added to
// one of these wire types must be added here too: that test fails until it
// is.

// writeTitleList answers a page of titles.
func writeTitleList(w http.ResponseWriter, l kb.TitleList, form int) error {
	resp := toTitleList(l, form)
	return writeJSONAppended(w, func(b []byte) []byte { return appendTitleList(b, &resp) })
}

// writeTitle answers one title with its resources.
func writeTitle(w http.ResponseWriter, t kb.Title, masks proxyMasks) error {
	wt := toTitle(t, masks)
	return writeJSONAppended(w, func(b []byte) []byte { return appendTitle(b, &wt) })
}

// jsonBuffers holds the buffers of answers being written; a buffer that
// grew past maxPooledJSON is left to the garbage collector.
var jsonBuffers = sync.Pool{New: func() any { return new([]byte) }}

const maxPooledJSON = 1 << 20

// writeJSONAppended answers 200 with the JSON value appendValue appends,
// followed by a newline as encoding/json's Encoder ends it, with the
// headers of web.WriteJSON and the length of the body: one write.
func writeJSONAppended(w http.ResponseWriter, appendValue func([]byte) []byte) error {
	bp := jsonBuffers.Get().(*[]byte)
	body := append(appendValue((*bp)[:0]), '\n')
	defer func() {
		if cap(body) <= maxPooledJSON {
			*bp = body
			jsonBuffers.Put(bp)
		}
	}()
	return writeCachedJSON(w, body)
}

func appendTitleList(b []byte, l *titleListResponse) []byte {
	b = append(b, `{"totalResults":`...)
	b = strconv.AppendInt(b, int64(l.TotalResults), 10)
	b = append(b, `,"titles":`...)
	if l.Titles == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i := range l.Titles {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendTitleListItem(b, &l.Titles[i])
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func appendTitleListItem(b []byte, t *titleListItem) []byte {
	b = appendTitleHead(b, t.TitleID, t.TitleName, t.PublisherName, t.IdentifiersList, t.SubjectsList, t.IsTitleCustom, t.PubType)
	if t.ContributorsList != nil {
		b = append(b, `,"contributorsList":`...)
		b = appendList(b, *t.ContributorsList, appendContributor)
	}
	b = append(b, `,"customerResourcesList":`...)
	b = appendList(b, t.CustomerResourcesList, appendResource)
	if t.AlternateTitleList != nil {
		b = append(b, `,"alternateTitleList":`...)
		b = appendList(b, *t.AlternateTitleList, appendAlternateTitle)
	}
	return append(b, '}')
}

func appendAlternateTitle(b []byte, a *alternateTitleWire) []byte {
	b = append(b, `{"alternateTitle":`...)
	b = appendJSONString(b, a.AlternateTitle)
	b = append(b, `,"titleType":`...)
	b = appendJSONString(b, a.TitleType)
	return append(b, '}')
}

// appendTitleHead appends the opening of a title object: the members
// that title details and list items share, in their order.
func appendTitleHead(b []byte, id int64, name string, publisher *string, ids []identifierWire, subjects []subjectListWire,
	custom bool, pubType string) []byte {
	b = append(b, `{"titleId":`...)
	b = strconv.AppendInt(b, id, 10)
	b = append(b, `,"titleName":`...)
	b = appendJSONString(b, name)
	b = append(b, `,"publisherName":`...)
	b = appendNullableString(b, publisher)
	b = append(b, `,"identifiersList":`...)
	b = appendList(b, ids, appendIdentifier)
	b = append(b, `,"subjectsList":`...)
	b = appendList(b, subjects, appendListSubject)
	b = append(b, `,"isTitleCustom":`...)
	b = strconv.AppendBool(b, custom)
	b = append(b, `,"pubType":`...)
	return appendJSONString(b, pubType)
}

func appendTitle(b []byte, t *titleWire) []byte {
	b = appendTitleHead(b, t.TitleID, t.TitleName, t.PublisherName, t.IdentifiersList, t.SubjectsList, t.IsTitleCustom, t.PubType)
	b = append(b, `,"customerResourcesList":`...)
	b = appendList(b, t.CustomerResourcesList, appendResource)
	b = append(b, `,"description":`...)
	b = appendNullableString(b, t.Description)
	b = append(b, `,"edition":`...)
	b = appendNullableString(b, t.Edition)
	b = append(b, `,"isPeerReviewed":`...)
	b = strconv.AppendBool(b, t.IsPeerReviewed)
	b = append(b, `,"contributorsList":`...)
	b = appendList(b, t.ContributorsList, appendContributor)
	b = append(b, `,"alternateTitleList":`...)
	b = appendList(b, t.AlternateTitleList, appendAlternateTitle)
	return append(b, '}')
}

func appendIdentifier(b []byte, id *identifierWire) []byte {
	b = append(b, `{"id":`...)
	b = appendJSONString(b, id.ID)
	b = append(b, `,"source":`...)
	b = appendJSONString(b, id.Source)
	b = append(b, `,"subtype":`...)
	b = strconv.AppendInt(b, int64(id.Subtype), 10)
	b = append(b, `,"type":`...)
	b = strconv.AppendInt(b, int64(id.Type), 10)
	return append(b, '}')
}

func appendListSubject(b []byte, s *subjectListWire) []byte {
	b = append(b, `{"type":`...)
	b = appendJSONString(b, s.Type)
	if s.Name != nil {
		b = append(b, `,"name":`...)
		b = appendJSONString(b, *s.Name)
	}
	b = append(b, `,"subject":`...)
	b = appendJSONString(b, s.Subject)
	return append(b, '}')
}

func appendContributor(b []byte, c *contributorWire) []byte {
	b = append(b, `{"type":`...)
	b = appendJSONString(b, c.Type)
	b = append(b, `,"contributor":`...)
	b = appendJSONString(b, c.Contributor)
	return append(b, '}')
}

func appendResource(b []byte, r *resourceWire) []byte {
	b = append(b, `{"titleId":`...)
	b = strconv.AppendInt(b, r.TitleID, 10)
	b = append(b, `,"packageId":`...)
	b = strconv.AppendInt(b, r.PackageID, 10)
	b = append(b, `,"packageName":`...)
	b = appendJSONString(b, r.PackageName)
	b = append(b, `,"packageType":`...)
	b = appendJSONString(b, r.PackageType)
	if r.Proxy != nil {
		b = append(b, `,"proxy":{"id":`...)
		b = appendJSONString(b, r.Proxy.ID)
		b = append(b, `,"inherited":`...)
		b = strconv.AppendBool(b, r.Proxy.Inherited)
		b = append(b, `,"proxiedUrl":`...)
		b = appendNullableString(b, r.Proxy.ProxiedURL)
		b = append(b, '}')
	}
	b = append(b, `,"isPackageCustom":`...)
	b = strconv.AppendBool(b, r.IsPackageCustom)
	b = append(b, `,"vendorId":`...)
	b = strconv.AppendInt(b, r.VendorID, 10)
	b = append(b, `,"vendorName":`...)
	b = appendJSONString(b, r.VendorName)
	b = append(b, `,"locationId":`...)
	b = strconv.AppendInt(b, int64(r.LocationID), 10)
	b = append(b, `,"isSelected":`...)
	b = strconv.AppendBool(b, r.IsSelected)
	b = append(b, `,"isTokenNeeded":`...)
	b = strconv.AppendBool(b, r.IsTokenNeeded)
	b = append(b, `,"visibilityData":{"isHidden":`...)
	b = strconv.AppendBool(b, r.VisibilityData.IsHidden)
	b = append(b, `,"reason":`...)
	b = appendJSONString(b, r.VisibilityData.Reason)
	b = append(b, `},"managedCoverageList":`...)
	b = appendList(b, r.ManagedCoverageList, appendCoverage)
	b = append(b, `,"customCoverageList":`...)
	b = appendList(b, r.CustomCoverageList, appendCoverage)
	b = append(b, `,"coverageStatement":`...)
	b = appendNullableString(b, r.CoverageStatement)
	b = append(b, `,"managedEmbargoPeriod":`...)
	b = appendEmbargo(b, &r.ManagedEmbargoPeriod)
	b = append(b, `,"customEmbargoPeriod":`...)
	b = appendEmbargo(b, &r.CustomEmbargoPeriod)
	b = append(b, `,"url":`...)
	b = appendNullableString(b, r.URL)
	b = append(b, `,"userDefinedField1":`...)
	b = appendNullableString(b, r.UserDefinedField1)
	b = append(b, `,"userDefinedField2":`...)
	b = appendNullableString(b, r.UserDefinedField2)
	b = append(b, `,"userDefinedField3":`...)
	b = appendNullableString(b, r.UserDefinedField3)
	b = append(b, `,"userDefinedField4":`...)
	b = appendNullableString(b, r.UserDefinedField4)
	b = append(b, `,"userDefinedField5":`...)
	b = appendNullableString(b, r.UserDefinedField5)
	return append(b, '}')
}

func appendCoverage(b []byte, c *coverageDates) []byte {
	b = append(b, `{"beginCoverage":`...)
	b = appendJSONString(b, c.BeginCoverage)
	b = append(b, `,"endCoverage":`...)
	b = appendJSONString(b, c.EndCoverage)
	return append(b, '}')
}

func appendEmbargo(b []byte, e *embargoPeriod) []byte {
	b = append(b, `{"embargoUnit":`...)
	b = appendNullableString(b, e.EmbargoUnit)
	b = append(b, `,"embargoValue":`...)
	b = strconv.AppendInt(b, int64(e.EmbargoValue), 10)
	return append(b, '}')
}

// appendList appends the JSON array of the elements of list, each written
// by appendElem, or null for a nil list.
func appendList[T any](b []byte, list []T, appendElem func([]byte, *T) []byte) []byte {
	if list == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i := range list {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendElem(b, &list[i])
	}
	return append(b, ']')
}

// appendNullableString appends *s as a JSON string, or null for nil.
func appendNullableString(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendJSONString(b, *s)
}
