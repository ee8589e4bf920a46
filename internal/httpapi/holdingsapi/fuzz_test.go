package holdingsapi

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/httpapi/web/webtest"
	"github.com/kbserver/kbserver/internal/kb"
)

// bodySeeds are the seed corpus of FuzzWriteBodies: a valid body of each
// write, and the bodies that once got through or broke something (the
// hardening issue's reproducers).
var bodySeeds = []string{
	`{"proxy":{"id":"<n>"},"labels":[{"id":1,"displayLabel":"Label","displayOnFullTextFinder":true,"displayOnPublicationFinder":false}]}`,
	`{"proxy":{"id":"ezp","inherited":false},"vendorToken":{"value":"t"}}`,
	`{"isSelected":true,"isHidden":false,"allowKbToAddTitles":true,"customCoverage":{"beginCoverage":"2001-01-01","endCoverage":""},"packageToken":{"value":"x"}}`,
	`{"packageName":"P","contentType":"E-Book","customCoverage":{"beginCoverage":"2001-01-01"}}`,
	`{"titleName":"T","pubType":"Book","publisherName":"P","isPeerReviewed":true,"identifiersList":[{"id":"978-0-306-40615-7","type":1,"subtype":1}],` +
		`"contributorsList":[{"type":"author","contributor":"A"}],"customCoverageList":[{"beginCoverage":"2001-01-01","endCoverage":"2002-12-31"}],` +
		`"coverageStatement":"s","customEmbargoPeriod":{"embargoUnit":"Months","embargoValue":6},"url":"https://x/","userDefinedField1":"u"}`,
	`{"isSelected":true,"isSelected":false}`,
	`{"packageName":"caf` + "\xe9" + `"}`,
	`{"packageName":"\udc00"}`,
	`{"packageName":"a\u0000b"}`,
	`{"packageName":"` + strings.Repeat("q", 2800) + `"}`,
	`{"titleName":"` + strings.Repeat("한", 700) + `","pubType":"Book"}`,
	`{"isSelected":true,"url":"https://x/` + strings.Repeat("z", 2700) + `"}`,
	`{"labels":[{"id":"7"},{"id":"1"},{"id":"1"}],"proxy":{}}`,
	`{"customCoverageList":[{"beginCoverage":"2001-13-45"}],"titleName":"T","pubType":"Book"}`,
	`{"isSelected":true,"customEmbargoPeriod":{"embargoUnit":"Fortnights","embargoValue":-1}}`,
	`[]`, `null`, `{}`, ``, `{"a":` + strings.Repeat("[", 5000),
}

// FuzzWriteBodies decodes arbitrary bytes as the body of every write of the
// holdings service and reads it as the handler does, into what the store
// would be given. Nothing panics; a body is refused with a client's error
// (4xx, with a message) or read into values every store keeps
// (webtest.CheckDecoded).
func FuzzWriteBodies(f *testing.F) {
	for _, s := range bodySeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		read := func(fn func() (any, error)) {
			t.Helper()
			v, err := fn()
			webtest.CheckDecoded(t, body, v, err)
		}
		r := func() *http.Request { return httptest.NewRequest("PUT", "/", bytes.NewReader(body)) }
		read(func() (any, error) { return decode(r(), (*rootPayload).settings) })
		read(func() (any, error) { return decode(r(), (*packagePayload).update) })
		read(func() (any, error) { return decode(r(), (*customPackagePayload).customPackage) })
		read(func() (any, error) { return decode(r(), (*customTitlePayload).customTitle) })
		read(func() (any, error) {
			return decode(r(), func(p *vendorPayload) (kb.VendorUpdate, error) { return p.update(), nil })
		})
		read(func() (any, error) {
			return decode(r(), func(p *resourcePayload) (any, error) {
				u, fields, err := p.update()
				if err == nil && u.Selected {
					err = p.requireNameAndType()
				}
				return []any{u, fields}, err
			})
		})
	})
}
