package holdingsapi_test

import (
	"encoding/json"
	"net/http"
	"testing"
)

// TestTitleStringsRoundTrip writes awkward strings into every free-text
// field of a custom title and its resource (quotes, backslashes, HTML
// characters, non-ASCII, U+2028, control characters) and checks that GET
// title, GET titles and GET resource give them back unchanged. The store
// keeps some of them as JSON and reads its own plain JSON without
// encoding/json; these strings take its other paths.
func TestTitleStringsRoundTrip(t *testing.T) {
	f := newFixture(t)
	c := f.newCustomTitle(t, "Awkward Collection", "Awkward Title")
	values := []string{
		`He said "hi" \ left`, "<b>bold</b> & more", "Zürich – “quotes” 日本 😀", "line\u2028sep\u2029para",
		"tab\there", "bell\x07 and \x1f", `\u0041 is not A`, "plain",
	}
	for i, v := range values {
		body, err := json.Marshal(map[string]any{
			"isSelected": true, "titleName": "Awkward " + v, "pubType": "book", "publisherName": v,
			"edition": v, "description": v, "coverageStatement": v,
			"contributorsList":   []map[string]string{{"type": "author", "contributor": v}, {"type": "editor", "contributor": "Plain, Pat"}},
			"customCoverageList": []map[string]string{{"beginCoverage": "2001-01-01", "endCoverage": ""}},
			"userDefinedField1":  v, "userDefinedField3": v + v, "userDefinedField5": "plain",
		})
		if err != nil {
			t.Fatal(err)
		}
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, c.path, string(body))
		want := map[string]any{
			"titleName": "Awkward " + v, "publisherName": v, "edition": v, "description": v,
			"contributorsList": []any{
				map[string]any{"type": "Author", "contributor": v},
				map[string]any{"type": "Editor", "contributor": "Plain, Pat"},
			},
		}
		wantResource := map[string]any{
			"coverageStatement": v, "userDefinedField1": v, "userDefinedField2": nil, "userDefinedField3": v + v,
			"userDefinedField4": nil, "userDefinedField5": "plain",
			"customCoverageList": []any{map[string]any{"beginCoverage": "2001-01-01", "endCoverage": ""}},
		}
		// A package's title list carries neither the description, the
		// edition nor the contributors (titlePackageId).
		listed := map[string]bool{"titleName": true, "publisherName": true}
		check := func(what string, title map[string]any) {
			t.Helper()
			for k, w := range want {
				if what == "GET package titles" && !listed[k] {
					if _, ok := title[k]; ok {
						t.Errorf("value %d, %s: has %s", i, what, k)
					}
					continue
				}
				if got, _ := json.Marshal(title[k]); string(got) != mustMarshal(t, w) {
					t.Errorf("value %d, %s: %s is %s, want %s", i, what, k, got, mustMarshal(t, w))
				}
			}
			rs := title["customerResourcesList"].([]any)
			if len(rs) != 1 {
				t.Fatalf("value %d, %s: resources %v, want one", i, what, rs)
			}
			for k, w := range wantResource {
				if got, _ := json.Marshal(rs[0].(map[string]any)[k]); string(got) != mustMarshal(t, w) {
					t.Errorf("value %d, %s: resource %s is %s, want %s", i, what, k, got, mustMarshal(t, w))
				}
			}
		}
		check("GET title", f.read(t, p("/titles/%d", c.title)))
		check("GET resource", f.read(t, c.path))
		list := f.read(t, p("/vendors/%d/packages/%d/titles", f.cust1Vendor, c.pkg))["titles"].([]any)
		if len(list) != 1 {
			t.Fatalf("value %d: package titles %v, want one", i, list)
		}
		check("GET package titles", list[0].(map[string]any))
	}
}

func mustMarshal(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
