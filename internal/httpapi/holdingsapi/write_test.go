package holdingsapi_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/testdb"
)

// Helpers of the write tests: requests with bodies, the objects a GET
// shows after a write, and error checks.

// write sends a request with a JSON body (none when body is "") and the
// key of cust1.
func (f *fixture) write(t *testing.T, method, path, body string) response {
	t.Helper()
	if body == "" {
		return f.send(t, method, path, key1, nil)
	}
	return f.send(t, method, path, key1, strings.NewReader(body))
}

// mustWrite sends a write that must succeed with status.
func (f *fixture) mustWrite(t *testing.T, status int, method, path, body string) response {
	t.Helper()
	res := f.write(t, method, path, body)
	if res.status != status {
		t.Fatalf("%s %s %s: status %d, want %d; body %s", method, path, body, res.status, status, res.body)
	}
	if status == http.StatusNoContent && len(res.body) != 0 {
		t.Errorf("%s %s: 204 with a body %q", method, path, res.body)
	}
	return res
}

// read GETs path with cust1's key and returns the object it answers.
func (f *fixture) read(t *testing.T, path string) map[string]any {
	t.Helper()
	res := f.get(t, path, key1)
	if res.status != http.StatusOK {
		t.Fatalf("GET %s: status %d, body %s", path, res.status, res.body)
	}
	return res.object(t)
}

// resourceOf GETs a title in a package and returns its one resource, with
// the title's own fields under "title".
func (f *fixture) resourceOf(t *testing.T, vendorID, packageID, titleID int64) map[string]any {
	t.Helper()
	o := f.read(t, p("/vendors/%d/packages/%d/titles/%d", vendorID, packageID, titleID))
	rs := o["customerResourcesList"].([]any)
	if len(rs) != 1 {
		t.Fatalf("resources %v, want one", rs)
	}
	r := rs[0].(map[string]any)
	delete(o, "customerResourcesList")
	r["title"] = o
	return r
}

// wantFields checks that got has the members of the JSON object want, with
// equal values; members want does not name are not checked.
func wantFields(t *testing.T, got map[string]any, want string) {
	t.Helper()
	var w map[string]any
	if err := json.Unmarshal([]byte(want), &w); err != nil {
		t.Fatalf("bad want %s: %v", want, err)
	}
	for k, v := range w {
		g := got[k]
		// A proxy's proxiedUrl follows from its id and the object's URL;
		// it is compared only where the expectation names it.
		if wp, ok := v.(map[string]any); ok && k == "proxy" {
			if gp, ok := g.(map[string]any); ok {
				if _, named := wp["proxiedUrl"]; !named {
					g = maps.Clone(gp)
					delete(g.(map[string]any), "proxiedUrl")
				}
			}
		}
		if diff := cmp.Diff(v, g); diff != "" {
			t.Errorf("%s (-want +got):\n%s", k, diff)
		}
	}
}

// wantError checks an error answer: its status, code and exact message.
func wantError(t *testing.T, res response, status, code int, message string) {
	t.Helper()
	if res.status != status {
		t.Fatalf("status %d, want %d; body %s", res.status, status, res.body)
	}
	if diff := cmp.Diff(errorModel{Code: code, Message: message}, res.errors(t)); diff != "" {
		t.Errorf("error (-want +got):\n%s", diff)
	}
}

// addProxy adds a proxy of cust1 as `kbserver proxy add` does.
func (f *fixture) addProxy(t *testing.T, id string) {
	t.Helper()
	if err := f.store.AddProxy(t.Context(), "cust1", kb.Proxy{ID: id, Name: id, URLMask: "https://" + id + ".example/?u={targetURL}"}); err != nil {
		t.Fatal(err)
	}
}

// enableTokens gives the vendor Beta Media and its package Beta Books a
// token to fill in. No import path sets tokens yet, so the test writes the
// knowledge-base columns directly.
func (f *fixture) enableTokens(t *testing.T) {
	t.Helper()
	for _, q := range []string{
		fmt.Sprintf(`UPDATE vendors SET token_fact = '[[siteid]]', token_prompt = '/site/', token_help = 'Your site id.' WHERE id = %d`, f.betaVendor),
		fmt.Sprintf(`UPDATE packages SET token_fact = '[[pkgid]]', token_prompt = '/pkg/', token_help = 'Your package id.' WHERE id = %d`, f.betaBooks),
		// As the import that would set them does: what the store keeps
		// by version (answers, packages' facts) is read again.
		`INSERT INTO versions(name, n) VALUES ('kb', 1) ON CONFLICT (name) DO UPDATE SET n = versions.n + 1`,
	} {
		testdb.Exec(t, f.dsn, q)
	}
}

func TestPutVendor(t *testing.T) {
	f := newFixture(t)
	f.enableTokens(t)
	alpha := p("/vendors/%d", f.alphaVendor)
	beta := p("/vendors/%d", f.betaVendor)
	tests := []struct {
		name, path, body string
		want             string // members of the vendor a GET answers
	}{
		{"explicit proxy", alpha, `{"proxy":{"id":"EZProxy","inherited":false}}`, `{"proxy":{"id":"EZProxy","inherited":false}}`},
		{"explicitly no proxy", alpha, `{"proxy":{"id":"<n>","inherited":false}}`, `{"proxy":{"id":"<n>","inherited":false}}`},
		{"inherited proxy", alpha, `{"proxy":{"id":"EZProxy","inherited":true}}`, `{"proxy":{"id":"<n>","inherited":true}}`},
		{"no proxy member is inherited", alpha, `{}`, `{"proxy":{"id":"<n>","inherited":true}}`},
		{"token value", beta, `{"vendorToken":{"value":"site42"},"proxy":{"id":"EZProxy","inherited":false}}`,
			`{"vendorToken":{"factName":"[[siteid]]","prompt":"/site/","helpText":"Your site id.","value":"site42"},"proxy":{"id":"EZProxy","inherited":false}}`},
		{"whole token sent back", beta, `{"vendorToken":{"factName":"[[siteid]]","prompt":"/site/","helpText":"x","value":"site43"}}`,
			`{"vendorToken":{"factName":"[[siteid]]","prompt":"/site/","helpText":"Your site id.","value":"site43"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.mustWrite(t, http.StatusNoContent, http.MethodPut, tt.path, tt.body)
			wantFields(t, f.read(t, tt.path), tt.want)
		})
	}

	t.Run("errors", func(t *testing.T) {
		wantError(t, f.write(t, http.MethodPut, alpha, `{"proxy":{"id":"Nope","inherited":false}}`), 400, 1006, "Invalid Proxy ID")
		wantError(t, f.write(t, http.MethodPut, alpha, `{"vendorToken":{"value":"88"},"proxy":{"id":"<n>","inherited":false}}`), 400, 1010, "Vendor does not allow token")
		wantError(t, f.write(t, http.MethodPut, p("/vendors/%d", f.nowhere), `{}`), 404, 1001, "Vendor not found")
		wantError(t, f.write(t, http.MethodPut, p("/vendors/%d", f.cust2Vendor), `{}`), 404, 1001, "Vendor not found")
		wantError(t, f.write(t, http.MethodPut, alpha, `{"proxy":{"id":"EZProxy","inherited":"no"}}`), 400, 1006, "Attribute proxy.inherited must be a boolean.")
		wantError(t, f.write(t, http.MethodPut, alpha, `{"vendorToken":{"value":"1","extra":true}}`), 400, 1006, "Attribute vendorToken.extra is not allowed.")
	})
}

func TestPutPackagePayloadShapes(t *testing.T) {
	f := newFixture(t)
	f.enableTokens(t)
	f.addProxy(t, "Campus")
	beta := p("/vendors/%d/packages/%d", f.betaVendor, f.betaBooks)
	tests := []struct {
		name, body string
		want       string // members of the package a GET answers
	}{
		{"selectPayload", `{"isSelected":true}`,
			`{"isSelected":true,"selectedCount":3,"visibilityData":{"isHidden":false,"reason":""},"customCoverage":{"beginCoverage":"","endCoverage":""},"proxy":{"id":"<n>","inherited":true}}`},
		{"setHidePayload", `{"isSelected":true,"isHidden":true}`,
			`{"isSelected":true,"visibilityData":{"isHidden":true,"reason":"Hidden by Customer"}}`},
		{"un-hide", `{"isSelected":true,"isHidden":false}`,
			`{"isSelected":true,"visibilityData":{"isHidden":false,"reason":""}}`},
		{"setCustomCoverageExcludeHidePayload", `{"isSelected":true,"customCoverage":{"beginCoverage":"2003-01-01","endCoverage":"2004-01-01"}}`,
			`{"customCoverage":{"beginCoverage":"2003-01-01","endCoverage":"2004-01-01"},"visibilityData":{"isHidden":false,"reason":""}}`},
		{"setCustomCoverageIncludingHidePayload", `{"isSelected":true,"customCoverage":{"beginCoverage":"2003-01-01","endCoverage":""},"isHidden":true}`,
			`{"customCoverage":{"beginCoverage":"2003-01-01","endCoverage":""},"visibilityData":{"isHidden":true,"reason":"Hidden by Customer"}}`},
		{"setManagedPackagePayload", `{"isSelected":true,"proxy":{"id":"Campus","inherited":false},"customCoverage":{"beginCoverage":"2003-01-01","endCoverage":"2003-12-12"},"allowOperatorToAddTitles":true,"packageToken":{"value":"pkg7"},"isHidden":false}`,
			`{"proxy":{"id":"Campus","inherited":false},"customCoverage":{"beginCoverage":"2003-01-01","endCoverage":"2003-12-12"},"allowOperatorToAddTitles":true,
			  "packageToken":{"factName":"[[pkgid]]","prompt":"/pkg/","helpText":"Your package id.","value":"pkg7"}}`},
		{"explicit nulls are absent", `{"isSelected":true,"customCoverage":{"beginCoverage":null,"endCoverage":null},"allowOperatorToAddTitles":null,"packageToken":null,"isHidden":null,"proxy":null}`,
			`{"isSelected":true,"customCoverage":{"beginCoverage":"","endCoverage":""},"allowOperatorToAddTitles":false,"visibilityData":{"isHidden":false,"reason":""},"proxy":{"id":"<n>","inherited":true}}`},
		{"proxy inherited", `{"isSelected":true,"proxy":{"id":"","inherited":true}}`, `{"proxy":{"id":"<n>","inherited":true}}`},
		// What a Java client of the hosted service (FOLIO) writes: the
		// second key of a boolean, the branded name of the allow flag.
		{"Java's second key and the branded alias", `{"selected":true,"isSelected":true,"allowEbscoToAddTitles":true}`,
			`{"isSelected":true,"allowOperatorToAddTitles":true}`},
		{"the branded alias alone", `{"isSelected":true,"allowEbscoToAddTitles":false}`, `{"allowOperatorToAddTitles":false}`},
		{"packagesPartialSelectedPayload", `{"isSelected":false}`, `{"isSelected":false,"selectedCount":0}`},
		{"reselected by the second key alone", `{"selected":true}`, `{"isSelected":true}`},
		{"deselected as Java writes it", `{"selected":false,"isSelected":false}`, `{"isSelected":false,"selectedCount":0}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.mustWrite(t, http.StatusNoContent, http.MethodPut, beta, tt.body)
			wantFields(t, f.read(t, beta), tt.want)
		})
	}

	// A partial selection selects the package without its titles, which
	// are then selected one by one.
	t.Run("partial selection", func(t *testing.T) {
		empty := p("/vendors/%d/packages/%d", f.betaVendor, f.betaEmpty)
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, empty, `{"isSelected":true,"isFullPackage":false,"customCoverage":{"beginCoverage":"2001-01-01","endCoverage":""}}`)
		wantFields(t, f.read(t, empty), `{"selectedCount":0,"customCoverage":{"beginCoverage":"2001-01-01","endCoverage":""}}`)
		alpha := p("/vendors/%d/packages/%d", f.alphaVendor, f.alphaJournals)
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, alpha, `{"isSelected":false}`)
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, alpha, `{"isSelected":true,"isFullPackage":false}`)
		wantFields(t, f.read(t, alpha), `{"selectedCount":0}`)
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.alphaJournals, f.testing), `{"isSelected":true}`)
		wantFields(t, f.read(t, alpha), `{"selectedCount":1}`)
	})
}

// TestDeselectManagedPackage checks that deselecting a managed package
// removes its package- and title-level customisation.
func TestDeselectManagedPackage(t *testing.T) {
	f := newFixture(t)
	pkg := p("/vendors/%d/packages/%d", f.alphaVendor, f.alphaJournals)
	f.mustWrite(t, http.StatusNoContent, http.MethodPut, pkg, `{"isSelected":true,"isHidden":true,"customCoverage":{"beginCoverage":"2000-01-01","endCoverage":""},"proxy":{"id":"EZProxy","inherited":false}}`)
	f.mustWrite(t, http.StatusNoContent, http.MethodPut, p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.alphaJournals, f.testing),
		`{"isSelected":true,"isHidden":true,"userDefinedField1":"note","coverageStatement":"Some","customCoverageList":[{"beginCoverage":"2001-01-01","endCoverage":""}]}`)

	f.mustWrite(t, http.StatusNoContent, http.MethodPut, pkg, `{"isSelected":false}`)
	wantFields(t, f.read(t, pkg), `{"isSelected":false,"selectedCount":0,"visibilityData":{"isHidden":false,"reason":""},
		"customCoverage":{"beginCoverage":"","endCoverage":""},"proxy":{"id":"<n>","inherited":true}}`)
	for _, title := range []int64{f.testing, f.acta} {
		wantFields(t, f.resourceOf(t, f.alphaVendor, f.alphaJournals, title), `{"isSelected":false,"visibilityData":{"isHidden":false,"reason":""},
			"customCoverageList":[],"coverageStatement":null,"userDefinedField1":null,"proxy":{"id":"<n>","inherited":true}}`)
	}
}

func TestPutPackageErrors(t *testing.T) {
	f := newFixture(t)
	alpha := p("/vendors/%d/packages/%d", f.alphaVendor, f.alphaJournals)
	tests := []struct {
		name, path, body string
		status, code     int
		message          string
	}{
		{"isSelected missing", alpha, `{"allowOperatorToAddTitles":null,"packageToken":null,"isHidden":null}`, 400, 1005, "Attribute IsSelected is missing."},
		{"isSelected null", alpha, `{"isSelected":null}`, 400, 1005, "Attribute IsSelected is missing."},
		{"hidden but not selected", alpha, `{"isSelected":false,"isHidden":true}`, 400, 1006,
			"Attribute isHidden can be true only with isSelected true: a resource or package that is not selected cannot be hidden."},
		{"bad begin date", alpha, `{"isSelected":true,"customCoverage":{"beginCoverage":"2003-13-01","endCoverage":""}}`, 400, 1006, "beginCoverage has an invalid date."},
		{"bad end date", alpha, `{"isSelected":true,"customCoverage":{"beginCoverage":"2003-01-01","endCoverage":"2004"}}`, 400, 1006, "endCoverage has an invalid date."},
		{"end without begin", alpha, `{"isSelected":true,"customCoverage":{"beginCoverage":"","endCoverage":"2004-01-01"}}`, 400, 1006, "beginCoverage has an invalid date."},
		{"begin after end", alpha, `{"isSelected":true,"customCoverage":{"beginCoverage":"2005-01-01","endCoverage":"2004-01-01"}}`, 400, 1006, "beginCoverage 2005-01-01 is after endCoverage 2004-01-01."},
		{"content type 0", alpha, `{"isSelected":true,"contentType":0}`, 400, 1006,
			"Attribute contentType must be an integer from 1 to 7 (1 aggregated full text, 2 abstract and index, 3 ebook, 4 e-journal, 5 print, 6 unknown, 7 online reference), not 0."},
		{"empty name", alpha, `{"isSelected":true,"packageName":" "}`, 400, 1006, "Attribute packageName must not be empty."},
		{"unknown proxy", alpha, `{"isSelected":true,"proxy":{"id":"Nope","inherited":false}}`, 400, 1006, "Invalid Proxy ID"},
		{"token not allowed", alpha, `{"isSelected":true,"packageToken":{"value":"x"}}`, 400, 1010, "Package does not allow token"},
		{"branded alias disagrees", alpha, `{"isSelected":true,"allowOperatorToAddTitles":false,"allowEbscoToAddTitles":true}`, 400, 1006,
			"Attributes allowOperatorToAddTitles and allowEbscoToAddTitles name the same setting and must agree: false and true."},
		{"Java's second key disagrees", alpha, `{"isSelected":true,"selected":false}`, 400, 1006,
			"Attributes isSelected and selected name the same setting and must agree: true and false."},
		{"alias without isSelected", alpha, `{"allowEbscoToAddTitles":null,"packageToken":null,"isHidden":null}`, 400, 1005, "Attribute IsSelected is missing."},
		{"unknown package", p("/vendors/%d/packages/%d", f.alphaVendor, f.nowhere), `{"isSelected":true}`, 404, 1001, "Package not found"},
		{"package of another vendor", p("/vendors/%d/packages/%d", f.betaVendor, f.alphaJournals), `{"isSelected":true}`, 404, 1001, "Package not found"},
		{"unknown vendor", p("/vendors/%d/packages/%d", f.nowhere, f.alphaJournals), `{"isSelected":true}`, 404, 1001, "Vendor not found"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			wantError(t, f.write(t, http.MethodPut, tt.path, tt.body), tt.status, tt.code, tt.message)
		})
	}
	// Nothing was written.
	wantFields(t, f.read(t, alpha), `{"isSelected":true,"customCoverage":{"beginCoverage":"","endCoverage":""},"proxy":{"id":"<n>","inherited":true}}`)
}

func TestCustomPackages(t *testing.T) {
	f := newFixture(t)
	own := p("/vendors/%d/packages", f.cust1Vendor)
	res := f.mustWrite(t, http.StatusOK, http.MethodPost, own,
		`{"packageName":"Local Journals","contentType":4,"customCoverage":{"beginCoverage":"2003-01-01","endCoverage":"2004-01-01"},"proxy":{"id":"EZProxy","inherited":false}}`)
	id := int64(res.object(t)["packageId"].(float64))
	pkg := p("/vendors/%d/packages/%d", f.cust1Vendor, id)
	wantFields(t, f.read(t, pkg), `{"packageName":"Local Journals","isCustom":true,"packageType":"Custom","contentType":"EJournal","isSelected":true,
		"customCoverage":{"beginCoverage":"2003-01-01","endCoverage":"2004-01-01"},"proxy":{"id":"EZProxy","inherited":false},"allowOperatorToAddTitles":false,"titleCount":0}`)

	// What FOLIO writes: every member of its model, null where unset.
	res = f.mustWrite(t, http.StatusOK, http.MethodPost, own, `{"contentType":6,"customAltNames":null,"customDescription":null,"customDisplayName":null,
		"customCoverage":null,"packageFreeAccess":null,"packageName":"Folio Package","proxy":{"id":"<n>","inherited":false},"subjects":null,"url":null}`)
	wantFields(t, f.read(t, p("/vendors/%d/packages/%d", f.cust1Vendor, int64(res.object(t)["packageId"].(float64)))), `{"packageName":"Folio Package","contentType":"Unknown"}`)
	for _, tt := range []struct{ member, value string }{
		{"customAltNames", `[{"id":1,"altName":"Other"}]`}, {"subjects", `[3]`}, {"customDescription", `"Ours."`},
		{"customDisplayName", `"Shown"`}, {"url", `"https://x.example/"`}, {"packageFreeAccess", `true`},
	} {
		wantError(t, f.write(t, http.MethodPost, own, `{"packageName":"Not Kept","`+tt.member+`":`+tt.value+`}`), 400, 1006,
			"Attribute "+tt.member+" is not kept by this server: send it null or empty.")
	}

	// The trailing slash that clients of the hosted service send; no
	// content type is unknown.
	res = f.mustWrite(t, http.StatusOK, http.MethodPost, own+"/", `{"packageName":"Local Books","contentType":null}`)
	second := int64(res.object(t)["packageId"].(float64))
	wantFields(t, f.read(t, p("/vendors/%d/packages/%d", f.cust1Vendor, second)), `{"contentType":"Unknown","isCustom":true}`)

	t.Run("setCustomPackagePayload", func(t *testing.T) {
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, pkg,
			`{"contentType":1,"isSelected":true,"allowOperatorToAddTitles":null,"packageToken":null,"isHidden":true,"packageName":"Local Aggregated","customCoverage":{"beginCoverage":"","endCoverage":""}}`)
		wantFields(t, f.read(t, pkg), `{"packageName":"Local Aggregated","contentType":"AggregatedFullText","visibilityData":{"isHidden":true,"reason":"Hidden by Customer"},
			"customCoverage":{"beginCoverage":"","endCoverage":""},"proxy":{"id":"<n>","inherited":true}}`)
		// Absent name and content type keep them.
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, pkg, `{"isSelected":true}`)
		wantFields(t, f.read(t, pkg), `{"packageName":"Local Aggregated","contentType":"AggregatedFullText","visibilityData":{"isHidden":false,"reason":""}}`)
	})

	t.Run("errors", func(t *testing.T) {
		wantError(t, f.write(t, http.MethodPost, own, `{"packageName":"local aggregated","contentType":3}`), 400, 1009, "Custom Package with the provided name already exists")
		wantError(t, f.write(t, http.MethodPut, pkg, `{"isSelected":true,"packageName":"Local Books"}`), 400, 1009, "Custom Package with the provided name already exists")
		wantError(t, f.write(t, http.MethodPost, own, `{"contentType":3}`), 400, 1005, "Attribute PackageName is missing.")
		for _, ct := range []int{0, 8} {
			res := f.write(t, http.MethodPost, own, fmt.Sprintf(`{"packageName":"X","contentType":%d}`, ct))
			if res.status != 400 || !strings.HasPrefix(res.errors(t).Message, "Attribute contentType must be an integer from 1 to 7") {
				t.Errorf("contentType %d: %d %s", ct, res.status, res.body)
			}
		}
		wantError(t, f.write(t, http.MethodPost, own, `{"packageName":"X","contentType":"ebook"}`), 400, 1006, "Attribute contentType must be an integer.")
		wantError(t, f.write(t, http.MethodPost, own, `{"packageName":"X","customCoverage":{"beginCoverage":"99","endCoverage":""}}`), 400, 1006, "beginCoverage has an invalid date.")
		wantError(t, f.write(t, http.MethodPost, own, `{"packageName":"X","proxy":{"id":"Nope","inherited":false}}`), 400, 1006, "Invalid Proxy ID")
		res := f.write(t, http.MethodPost, p("/vendors/%d/packages", f.alphaVendor), `{"packageName":"X"}`)
		if res.status != 400 || res.errors(t).Code != 1010 {
			t.Errorf("custom package under a managed vendor: %d %s", res.status, res.body)
		}
		wantError(t, f.write(t, http.MethodPost, p("/vendors/%d/packages", f.cust2Vendor), `{"packageName":"X"}`), 404, 1001, "Vendor not found")
		if got := f.read(t, p("/vendors/%d/packages", f.cust1Vendor))["totalResults"]; got != 3.0 {
			t.Errorf("custom packages after the refused requests: %v, want 3", got)
		}
	})

	t.Run("delete", func(t *testing.T) {
		res := f.write(t, http.MethodDelete, p("/vendors/%d/packages/%d", f.alphaVendor, f.alphaJournals), "")
		if res.status != 400 || res.errors(t).Code != 1010 {
			t.Errorf("DELETE of a managed package: %d %s", res.status, res.body)
		}
		second := p("/vendors/%d/packages/%d", f.cust1Vendor, second)
		f.mustWrite(t, http.StatusNoContent, http.MethodDelete, second, "")
		wantError(t, f.get(t, second, key1), 404, 1001, "Package not found")
		wantError(t, f.write(t, http.MethodDelete, second, ""), 404, 1001, "Package not found")
	})

	t.Run("deselect deletes", func(t *testing.T) {
		res := f.mustWrite(t, http.StatusOK, http.MethodPost, p("/vendors/%d/packages/%d/titles", f.cust1Vendor, id), `{"titleName":"Local Title","pubType":"book"}`)
		title := int64(res.object(t)["titleId"].(float64))
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, pkg, `{"isSelected":false}`)
		wantError(t, f.get(t, pkg, key1), 404, 1001, "Package not found")
		wantError(t, f.get(t, p("/titles/%d", title), key1), 404, 1001, "Title not found")
	})
}

func TestPutRoot(t *testing.T) {
	f := newFixture(t)
	label := func(id int, text string, ftf, pf bool) string {
		return fmt.Sprintf(`{"id":%d,"displayLabel":%q,"displayOnFullTextFinder":%t,"displayOnPublicationFinder":%t}`, id, text, ftf, pf)
	}
	empty := func(id int) string { return label(id, "", false, false) }
	tests := []struct {
		name, path, body string
		want             string
	}{
		{"labels with string and integer ids", p("/"),
			`{"proxy":{"id":"EZProxy"},"labels":[{"id":"1","displayLabel":"Shelf","displayOnFullTextFinder":true,"displayOnPublicationFinder":false},{"id":3,"displayLabel":"Note","displayOnFullTextFinder":true,"displayOnPublicationFinder":true}]}`,
			`{"proxy":{"id":"EZProxy"},"labels":[` + strings.Join([]string{label(1, "Shelf", true, false), empty(2), label(3, "Note", true, true), empty(4), empty(5)}, ",") + `]}`},
		{"an id left out is reset, without the slash", p(""),
			`{"proxy":{"id":"EZProxy"},"labels":[{"id":"2","displayLabel":"Frontside","displayOnFullTextFinder":false,"displayOnPublicationFinder":false}]}`,
			`{"proxy":{"id":"EZProxy"},"labels":[` + strings.Join([]string{empty(1), label(2, "Frontside", false, false), empty(3), empty(4), empty(5)}, ",") + `]}`},
		{"five labels, no proxy", p("/"),
			`{"proxy":{"id":"<n>"},"labels":[` + strings.Join([]string{label(5, "E", false, true), label(4, "D", false, false), label(3, "C", false, false), label(2, "B", false, false), label(1, "A", false, false)}, ",") + `]}`,
			`{"proxy":{"id":"<n>"},"labels":[` + strings.Join([]string{label(1, "A", false, false), label(2, "B", false, false), label(3, "C", false, false), label(4, "D", false, false), label(5, "E", false, true)}, ",") + `]}`},
		{"what FOLIO writes back: read-only members, inherited null", p("/"),
			`{"proxy":{"id":"<n>","inherited":null},"vendorId":"123","ftfTokens":[],"labels":[{"id":1,"displayLabel":"A","displayOnFullTextFinder":false,"displayOnPublicationFinder":true}]}`,
			`{"proxy":{"id":"<n>"},"labels":[` + strings.Join([]string{label(1, "A", false, true), empty(2), empty(3), empty(4), empty(5)}, ",") + `]}`},
		{"no labels", p("/"), `{"proxy":{"id":"EZProxy"},"labels":null}`,
			`{"proxy":{"id":"EZProxy"},"labels":[` + strings.Join([]string{empty(1), empty(2), empty(3), empty(4), empty(5)}, ",") + `]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.mustWrite(t, http.StatusNoContent, http.MethodPut, tt.path, tt.body)
			want := map[string]any{}
			if err := json.Unmarshal([]byte(tt.want), &want); err != nil {
				t.Fatal(err)
			}
			got := f.read(t, p("/"))
			// Read-only members: the customer's own vendor, no tokens.
			if got["vendorId"] != strconv.FormatInt(f.cust1Vendor, 10) || fmt.Sprint(got["ftfTokens"]) != "[]" {
				t.Errorf("root vendorId %v, ftfTokens %v; want %d and []", got["vendorId"], got["ftfTokens"], f.cust1Vendor)
			}
			delete(got, "vendorId")
			delete(got, "ftfTokens")
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("root (-want +got):\n%s", diff)
			}
		})
	}

	six := `{"proxy":{"id":"<n>"},"labels":[` + strings.Join([]string{empty(1), empty(2), empty(3), empty(4), empty(5), empty(1)}, ",") + `]}`
	for _, tt := range []struct {
		name, body string
		code       int
		message    string
	}{
		{"id 0", `{"proxy":{"id":"<n>"},"labels":[` + empty(0) + `]}`, 1006, "Attribute labels[0].id must be from 1 to 5, not 0."},
		{"id 6", `{"proxy":{"id":"<n>"},"labels":[` + empty(2) + `,` + empty(6) + `]}`, 1006, "Attribute labels[1].id must be from 1 to 5, not 6."},
		{"id not a number", `{"proxy":{"id":"<n>"},"labels":[{"id":"one"}]}`, 1006, `Attribute labels.id must be an integer from 1 to 5 (a number or a string), not "one".`},
		{"id missing", `{"proxy":{"id":"<n>"},"labels":[{"displayLabel":"x"}]}`, 1005, "Attribute labels[0].id is missing."},
		{"six labels", six, 1006, "Attribute labels holds 6 labels: at most 5 are allowed."},
		{"id twice", `{"proxy":{"id":"<n>"},"labels":[` + empty(2) + `,` + empty(2) + `]}`, 1006, "Attribute labels[1].id: label 2 is sent more than once."},
		{"proxy missing", `{"labels":[]}`, 1005, "Attribute Proxy is missing."},
		{"unknown proxy", `{"proxy":{"id":"Nope"}}`, 1006, "Invalid Proxy ID"},
		{"unknown label member", `{"proxy":{"id":"<n>"},"labels":[{"id":1,"label":"x"}]}`, 1006, "Attribute labels[0].label is not allowed."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantError(t, f.write(t, http.MethodPut, p("/"), tt.body), 400, tt.code, tt.message)
		})
	}
	// The refused requests changed nothing.
	wantFields(t, f.read(t, p("/")), `{"proxy":{"id":"EZProxy"}}`)
}
