package web

import (
	"net/url"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

func TestOneValueEach(t *testing.T) {
	many := map[string]bool{"subjectfacet": true}
	for _, tt := range []struct {
		query, want string
	}{
		{"search=a&count=2", ""},
		{"subjectfacet=a&subjectfacet=b&SubjectFacet=c", ""},
		{"alphamenufacet=A&alphamenufacet=B", "Parameter alphamenufacet is given 2 times: it takes one value."},
		{"search=a&Search=b", "Parameter search is given 2 times: it takes one value."},
		{"offset=1&count=1&count=2&count=3&offset=2", "Parameter count is given 3 times: it takes one value."},
	} {
		v, _ := url.ParseQuery(tt.query)
		err := oneValueEach(v, many)
		got := ""
		if err != nil {
			got = kb.ErrorMessage(err)
			if kb.ErrorCode(err) != kb.CodeInvalid {
				t.Errorf("%s: code %v, want CodeInvalid", tt.query, kb.ErrorCode(err))
			}
		}
		if got != tt.want {
			t.Errorf("%s: %q, want %q", tt.query, got, tt.want)
		}
	}
}
