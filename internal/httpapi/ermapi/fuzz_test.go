package ermapi

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/httpapi/web/webtest"
)

// FuzzWriteBodies decodes arbitrary bytes as the body of every write of the
// resource management service (each object kind, created and updated, and
// an assignment) and checks it as the handler does. Nothing panics; a body
// is refused with a client's error (4xx, with a message) or read into
// values every store keeps (webtest.CheckDecoded).
func FuzzWriteBodies(f *testing.F) {
	ext := `"extensionObject":{"objectDescription":"D","objectType":"license","status":"active","customerId":"c1"}`
	for _, s := range []string{
		`{` + ext + `,"license":{"licenseStartDate":"2024-01-31","licenseNotes":"n"}}`,
		`{` + ext + `,"contactPoint":{"name":"N","contactType":"T","telephone":"1","email":"e@x"}}`,
		`{` + ext + `,"externalDocument":{"url":"https://x/"}}`,
		`{` + ext + `,"hostURL":"https://x/","otherStringKeyValue":{"k":"v"},"dateIPRegistered":"2024-02-30"}`,
		`{"access":"a","assignmentContext":"c","assignmentType":"t","customerId":"c1","relativeUrl":"/vendors/1",` +
			`"extensionObject":{"objectDescription":"D","objectType":"license"},"link":{"application":{"name":"A"},"url":"https://x/"}}`,
		`{"relativeUrl":"` + strings.Repeat("/x", 1400) + `","link":{"url":"` + strings.Repeat("z", 2700) + `"}}`,
		`{` + ext + `,` + ext + `}`,
		`{"extensionObject":{"objectDescription":"caf` + "\xe9" + `"}}`,
		`{"extensionObject":{"objectDescription":"\ud800"}}`,
		`{"otherStatusKeyValue":{"` + strings.Repeat("k", 1001) + `":"v"}}`,
		`{"extensionObject":{"objectDescription":"` + strings.Repeat("d", 1001) + `"}}`,
		`{}`, `[]`, ``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		req := func(id string) *http.Request {
			r := httptest.NewRequest("PUT", "/", bytes.NewReader(body))
			r.SetPathValue("custid", "c1")
			r.SetPathValue("id", id)
			return r
		}
		for _, k := range kinds {
			for _, id := range []string{"", "5f0c8a4e-3d1b-4c2a-9e7f-1a2b3c4d5e6f"} {
				o, err := readObject(req(id), k, id)
				webtest.CheckDecoded(t, body, o, err)
			}
		}
		var dto assignmentDto
		err := web.DecodeJSON(req("o1"), &dto)
		if err == nil {
			_, err = dto.check("c1")
		}
		webtest.CheckDecoded(t, body, dto, err)
	})
}
