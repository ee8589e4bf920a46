package holdingsapi

import (
	"bytes"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/httpapi/web/webtest"
	"github.com/kbserver/kbserver/internal/kb"
)

// listBodySeeds are the seed corpus of FuzzListBodies: FOLIO's update and
// delete bodies and the edges of the v2 package PUT.
var listBodySeeds = []string{
	`{"packageName":null,"contentType":null,"isSelected":true,"visibility":[{"category":"PF","hidden":true,"reason":null},` +
		`{"category":"FTF","hidden":true,"reason":null},{"category":"MARC","hidden":true,"reason":null}],"customDescription":null,"url":null,` +
		`"isFullPackage":null,"allowEbscoToAddTitles":true,"customCoverage":{"beginCoverage":"2005-01-01","endCoverage":""},` +
		`"proxy":{"id":"EZProxy","inherited":false},"packageToken":{"factName":null,"prompt":null,"helpText":null,"value":"v"},` +
		`"customAltNames":null,"customDisplayName":null,"packageFreeAccess":null}`,
	`{"selected":false,"isSelected":false}`,
	`{"selected":true,"isSelected":false}`,
	`{"isSelected":true,"contentType":"ebook","packageName":"P"}`,
	`{"isSelected":true,"contentType":8}`,
	`{"isSelected":true,"contentType":1e400}`,
	`{"isSelected":true,"contentType":{"a":1}}`,
	`{"isSelected":true,"visibility":[{"category":"PF","hidden":true},{"category":"MARC","hidden":false}]}`,
	`{"isSelected":true,"customAltNames":[{"id":1,"altName":"x"},"y"]}`,
	`{"isSelected":true,"packageFreeAccess":true}`,
	`[]`, `null`, `{}`, ``,
}

// FuzzListBodies reads arbitrary bytes as the body of the v2 package PUT,
// as the handler does. Nothing panics; a body is refused with a client's
// error or read into values every store keeps (webtest.CheckDecoded).
func FuzzListBodies(f *testing.F) {
	for _, s := range listBodySeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		v, err := decode(httptest.NewRequest("PUT", "/", bytes.NewReader(body)), (*listPackagePayload).update)
		webtest.CheckDecoded(t, body, v, err)
	})
}

// FuzzListQuery reads arbitrary query strings as the parameters of the v2
// package lists. Nothing panics; a query is refused with CodeInvalid, or
// read into a query whose page is in range.
func FuzzListQuery(f *testing.F) {
	for _, s := range []string{
		"selection=all&contenttype=all&searchtype=advanced&searchfield=name&visibilitytype=hiddenInPF&highlighttag=mark" +
			"&facetstoinclude=subject&subjectfacetcount=1000&packagefreeaccess=TRUE&isprimarypackage=true&search=a+b&offset=1&count=25&orderby=packagename",
		"selection=orderedthroughebsco&contenttype=9", "searchtype=proximity&searchfield=KEYWORD", "count=0", "facetstoinclude=subjects,%20packages",
		"highlighttag=%3Cscript%3E", "subjectfacetcount=-1", "offset=99999999999999999999",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		vs, err := url.ParseQuery(raw)
		if err != nil {
			return
		}
		r := httptest.NewRequest("GET", "/", nil)
		r.URL.RawQuery = vs.Encode()
		q, err := readListQuery(web.NewQuery(r))
		if err != nil {
			if kb.ErrorCode(err) != kb.CodeInvalid {
				t.Fatalf("query %q: error %v is not CodeInvalid", raw, err)
			}
			return
		}
		if q.Page.Count < 1 || q.Page.Count > kb.MaxCount || q.Page.Number < 1 {
			t.Fatalf("query %q: page %+v out of range", raw, q.Page)
		}
	})
}
