package holdingsapi_test

import (
	"fmt"
	"net/http"
	"testing"
)

// customResource is the fixture's custom package with one custom title, made
// through the API.
type customResource struct {
	pkg, title int64
	path       string // PUT path of the custom title's resource
}

// newCustomTitle creates a custom package and a custom title in it.
func (f *fixture) newCustomTitle(t *testing.T, packageName, titleName string) customResource {
	t.Helper()
	res := f.mustWrite(t, http.StatusOK, http.MethodPost, p("/vendors/%d/packages", f.cust1Vendor), fmt.Sprintf(`{"packageName":%q,"contentType":6}`, packageName))
	pkg := int64(res.object(t)["packageId"].(float64))
	res = f.mustWrite(t, http.StatusOK, http.MethodPost, p("/vendors/%d/packages/%d/titles", f.cust1Vendor, pkg), fmt.Sprintf(`{"titleName":%q,"pubType":"book"}`, titleName))
	title := int64(res.object(t)["titleId"].(float64))
	return customResource{pkg: pkg, title: title, path: p("/vendors/%d/packages/%d/titles/%d", f.cust1Vendor, pkg, title)}
}

// noCustomisation is a resource with no title-level customisation.
const noCustomisation = `{"visibilityData":{"isHidden":false,"reason":""},"customCoverageList":[],"coverageStatement":null,
	"customEmbargoPeriod":{"embargoUnit":null,"embargoValue":0},"proxy":{"id":"<n>","inherited":true},
	"userDefinedField1":null,"userDefinedField2":null,"userDefinedField3":null,"userDefinedField4":null,"userDefinedField5":null}`

// everything is a body that sets every customisation of a resource.
const everything = `{"isSelected":true,"isHidden":true,"customCoverageList":[{"beginCoverage":"2005-01-01","endCoverage":""},{"beginCoverage":"2000-01-01","endCoverage":"2004-02-01"}],
	"coverageStatement":"Only 2000s issues.","customEmbargoPeriod":{"embargoUnit":"Months","embargoValue":5},"proxy":{"id":"EZProxy","inherited":false},
	"userDefinedField1":"one","userDefinedField2":"two","userDefinedField3":"three","userDefinedField4":"four","userDefinedField5":"five"}`

// everythingSet is what a GET shows after everything.
const everythingSet = `{"isSelected":true,"visibilityData":{"isHidden":true,"reason":"Hidden by Customer"},
	"customCoverageList":[{"beginCoverage":"2005-01-01","endCoverage":""},{"beginCoverage":"2000-01-01","endCoverage":"2004-02-01"}],
	"coverageStatement":"Only 2000s issues.","customEmbargoPeriod":{"embargoUnit":"Months","embargoValue":5},"proxy":{"id":"EZProxy","inherited":false},
	"userDefinedField1":"one","userDefinedField2":"two","userDefinedField3":"three","userDefinedField4":"four","userDefinedField5":"five"}`

// TestResourcePayloadShapes sends every title payload shape of the
// specification to a managed title in a managed package, one after the
// other, and checks what a GET shows after each.
func TestResourcePayloadShapes(t *testing.T) {
	f := newFixture(t)
	path := p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.alphaJournals, f.testing)
	tests := []struct {
		name, body, want string
	}{
		{"select", `{"isSelected":true}`, noCustomisation},
		{"hide", `{"isSelected":true,"isHidden":true}`, `{"isSelected":true,"visibilityData":{"isHidden":true,"reason":"Hidden by Customer"}}`},
		{"un-hide", `{"isSelected":true,"isHidden":false}`, `{"isSelected":true,"visibilityData":{"isHidden":false,"reason":""}}`},
		{"custom coverage, one range", `{"isSelected":true,"customCoverageList":[{"beginCoverage":"2003-01-01","endCoverage":"2004-01-01"}],"coverageStatement":"Some.","customEmbargoPeriod":{"embargoUnit":"Days","embargoValue":7}}`,
			`{"customCoverageList":[{"beginCoverage":"2003-01-01","endCoverage":"2004-01-01"}],"coverageStatement":"Some.","customEmbargoPeriod":{"embargoUnit":"Days","embargoValue":7}}`},
		{"custom coverage, three ranges newest first", `{"isSelected":true,"customCoverageList":[{"beginCoverage":"2010-01-01"},{"beginCoverage":"2005-01-01","endCoverage":"2009-12-31"},{"beginCoverage":"2000-01-01","endCoverage":"2005-01-01"}]}`,
			`{"customCoverageList":[{"beginCoverage":"2010-01-01","endCoverage":""},{"beginCoverage":"2005-01-01","endCoverage":"2009-12-31"},{"beginCoverage":"2000-01-01","endCoverage":"2005-01-01"}],"coverageStatement":null}`},
		{"embargo unit in any case", `{"isSelected":true,"customEmbargoPeriod":{"embargoUnit":"wEEKS","embargoValue":6}}`, `{"customEmbargoPeriod":{"embargoUnit":"Weeks","embargoValue":6}}`},
		{"embargo with a null value is none", `{"isSelected":true,"customEmbargoPeriod":{"embargoUnit":"Years","embargoValue":null}}`, `{"customEmbargoPeriod":{"embargoUnit":null,"embargoValue":0}}`},
		{"embargo with a null unit and value 0 is none", `{"isSelected":true,"customEmbargoPeriod":{"embargoUnit":null,"embargoValue":0}}`, `{"customEmbargoPeriod":{"embargoUnit":null,"embargoValue":0}}`},
		{"user-defined fields", `{"isSelected":true,"userDefinedField1":"a","userDefinedField3":"c","userDefinedField5":"e"}`,
			`{"userDefinedField1":"a","userDefinedField2":null,"userDefinedField3":"c","userDefinedField4":null,"userDefinedField5":"e","customCoverageList":[]}`},
		{"combined", everything, everythingSet},
		{"combined as real clients send it", `{"isSelected":true,"isHidden":false,"customCoverageList":[{"beginCoverage":"2005-01-01","endCoverage":""},{"beginCoverage":"2000-01-01","endCoverage":"2004-02-01"}],
			"contributorsList":null,"identifiersList":null,"customEmbargoPeriod":{"embargoUnit":"Months","embargoValue":5},"coverageStatement":"Only 2000s.",
			"titleName":"Renamed?","pubType":"Book","isPeerReviewed":false,"publisherName":"Elsevier","edition":null,"description":null,"url":null,"proxy":{"id":"EZProxy","inherited":false}}`,
			`{"visibilityData":{"isHidden":false,"reason":""},"coverageStatement":"Only 2000s.","customEmbargoPeriod":{"embargoUnit":"Months","embargoValue":5},"userDefinedField1":null}`},
		{"setProxyPayload: explicit proxy", `{"isSelected":true,"titleName":"Journal of Testing","pubType":"Journal","proxy":{"id":"EZProxy","inherited":false}}`, `{"proxy":{"id":"EZProxy","inherited":false}}`},
		{"FOLIO's select payload", `{"selected":true,"isSelected":true,"titleName":"Journal of Testing","pubType":"journal","url":null}`, `{"isSelected":true}`},
		{"setProxyTwoPayload: explicitly no proxy", `{"isSelected":true,"proxy":{"id":"<n>","inherited":false}}`, `{"proxy":{"id":"<n>","inherited":false}}`},
		{"setProxyInPayload: inherited", `{"isSelected":true,"titleName":"Journal of Testing","pubType":"journal","proxy":{"id":"","inherited":true}}`, `{"proxy":{"id":"<n>","inherited":true}}`},
		{"un-select", `{"isSelected":false}`, `{"isSelected":false}`},
		{"FOLIO's delete payload", `{"selected":false,"isSelected":false}`, `{"isSelected":false}`},
		{"un-select as real clients send it", `{"isSelected":false,"isHidden":false,"customCoverageList":[],"contributorsList":null,"identifiersList":null,"customEmbargoPeriod":{"embargoUnit":null,"embargoValue":0},
			"coverageStatement":null,"titleName":"Journal of Testing","pubType":"Journal","isPeerReviewed":false,"publisherName":"Alpha Publishing","edition":null,"description":null,"url":null,"proxy":{"id":"<n>","inherited":false}}`,
			`{"isSelected":false}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f.mustWrite(t, http.StatusNoContent, http.MethodPut, path, tt.body)
			got := f.resourceOf(t, f.alphaVendor, f.alphaJournals, f.testing)
			wantFields(t, got, tt.want)
			// Title fields never rename a managed title.
			wantFields(t, got["title"].(map[string]any), `{"titleName":"Journal of Testing","pubType":"Journal","isTitleCustom":false}`)
		})
	}
}

// TestResourceRules has one test per rule of "Rules for the PUT title body".
func TestResourceRules(t *testing.T) {
	f := newFixture(t)
	managed := p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.alphaJournals, f.testing)

	t.Run("1 isSelected is mandatory", func(t *testing.T) {
		wantError(t, f.write(t, http.MethodPut, managed, `{"isHidden":false}`), 400, 1005, "Attribute IsSelected is missing.")
		c := f.newCustomTitle(t, "Rule One", "Rule One Title")
		wantError(t, f.write(t, http.MethodPut, c.path, `{"titleName":"x","pubType":"book"}`), 400, 1005, "Attribute IsSelected is missing.")
	})

	t.Run("2 a custom title needs titleName and pubType", func(t *testing.T) {
		c := f.newCustomTitle(t, "Rule Two", "Rule Two Title")
		wantError(t, f.write(t, http.MethodPut, c.path, `{"isSelected":true}`), 400, 1005, "Attribute TitleName is missing.")
		wantError(t, f.write(t, http.MethodPut, c.path, `{"isSelected":true,"titleName":"New Name"}`), 400, 1005, "Attribute PubType is missing.")
		wantError(t, f.write(t, http.MethodPut, c.path, `{"isSelected":true,"titleName":" ","pubType":"book"}`), 400, 1005, "Attribute TitleName is missing.")
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, c.path, `{"isSelected":true,"titleName":"New Name","pubType":"bookseries"}`)
		wantFields(t, f.resourceOf(t, f.cust1Vendor, c.pkg, c.title)["title"].(map[string]any), `{"titleName":"New Name","pubType":"BookSeries","isTitleCustom":true}`)
		// A managed title needs neither.
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, managed, `{"isSelected":true}`)
	})

	t.Run("3 only the listed body shapes", func(t *testing.T) {
		wantError(t, f.write(t, http.MethodPut, managed, `{"isSelected":true,"customCoverage":{"beginCoverage":"2001-01-01"}}`), 400, 1006, "Attribute customCoverage is not allowed.")
		wantError(t, f.write(t, http.MethodPut, managed, `{"isSelected":true,"userDefinedField6":"x"}`), 400, 1006, "Attribute userDefinedField6 is not allowed.")
	})

	t.Run("4 an inherited proxy takes the package's, vendor's or root proxy", func(t *testing.T) {
		f.addProxy(t, "Campus")
		f.addProxy(t, "Library")
		inherited := `{"isSelected":true,"proxy":{"id":"","inherited":true}}`
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, managed, inherited)
		steps := []struct {
			path, body, want string
		}{
			{p("/"), `{"proxy":{"id":"EZProxy"}}`, "EZProxy"},
			{p("/vendors/%d", f.alphaVendor), `{"proxy":{"id":"Campus","inherited":false}}`, "Campus"},
			{p("/vendors/%d/packages/%d", f.alphaVendor, f.alphaJournals), `{"isSelected":true,"proxy":{"id":"Library","inherited":false}}`, "Library"},
			{p("/vendors/%d/packages/%d", f.alphaVendor, f.alphaJournals), `{"isSelected":true,"proxy":{"inherited":true}}`, "Campus"},
			{p("/vendors/%d", f.alphaVendor), `{"proxy":{"id":"Campus","inherited":true}}`, "EZProxy"},
		}
		for _, s := range steps {
			f.mustWrite(t, http.StatusNoContent, http.MethodPut, s.path, s.body)
			wantFields(t, f.resourceOf(t, f.alphaVendor, f.alphaJournals, f.testing), fmt.Sprintf(`{"proxy":{"id":%q,"inherited":true}}`, s.want))
		}
		wantError(t, f.write(t, http.MethodPut, managed, `{"isSelected":true,"proxy":{"id":"Nope","inherited":false}}`), 400, 1006, "Invalid Proxy ID")
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, p("/"), `{"proxy":{"id":"<n>"}}`)
	})

	t.Run("5 custom coverage ranges newest first", func(t *testing.T) {
		for _, body := range []string{
			`{"isSelected":true,"customCoverageList":[{"beginCoverage":"2000-01-01","endCoverage":"2004-02-01"},{"beginCoverage":"2005-01-01","endCoverage":""}]}`,
			`{"isSelected":true,"customCoverageList":[{"beginCoverage":"2005-01-01","endCoverage":""},{"beginCoverage":"2000-01-01","endCoverage":""}]}`,
			`{"isSelected":true,"customCoverageList":[{"beginCoverage":"2005-01-01","endCoverage":""},{"beginCoverage":"2000-01-01","endCoverage":"2006-01-01"}]}`,
		} {
			wantError(t, f.write(t, http.MethodPut, managed, body), 400, 1006, "CoverageList contains a date that exceeds a previous date value")
		}
		c := f.newCustomTitle(t, "Rule Five", "Rule Five Title")
		wantError(t, f.write(t, http.MethodPost, p("/vendors/%d/packages/%d/titles", f.cust1Vendor, c.pkg),
			`{"titleName":"Rule Five Other","pubType":"book","customCoverageList":[{"beginCoverage":"2000-01-01","endCoverage":"2001-01-01"},{"beginCoverage":"2005-01-01","endCoverage":""}]}`),
			400, 1006, "CoverageList contains a date that exceeds a previous date value")
		for body, message := range map[string]string{
			`{"isSelected":true,"customCoverageList":[{"beginCoverage":"99","endCoverage":"99"}]}`:                 "beginCoverage has an invalid date.",
			`{"isSelected":true,"customCoverageList":[{"beginCoverage":"2001-02-30","endCoverage":""}]}`:           "beginCoverage has an invalid date.",
			`{"isSelected":true,"customCoverageList":[{"endCoverage":"2001-01-01"}]}`:                              "beginCoverage has an invalid date.",
			`{"isSelected":true,"customCoverageList":[{"beginCoverage":"2001-01-01","endCoverage":"01/02/2003"}]}`: "endCoverage has an invalid date.",
			`{"isSelected":true,"customCoverageList":[{"beginCoverage":"2001-01-01","endCoverage":"2000-12-31"}]}`: "beginCoverage 2001-01-01 is after endCoverage 2000-12-31.",
			`{"isSelected":true,"customEmbargoPeriod":{"embargoUnit":"Seconds","embargoValue":6}}`:                 "Parameter customEmbargoPeriod.embargoUnit must be one of (days, weeks, months, years).",
			`{"isSelected":true,"customEmbargoPeriod":{"embargoUnit":null,"embargoValue":6}}`:                      "Parameter customEmbargoPeriod.embargoUnit must be one of (days, weeks, months, years).",
			`{"isSelected":true,"customEmbargoPeriod":{"embargoUnit":"Days","embargoValue":-1}}`:                   "Attribute customEmbargoPeriod.embargoValue must not be negative.",
		} {
			wantError(t, f.write(t, http.MethodPut, managed, body), 400, 1006, message)
		}
	})

	t.Run("6 isSelected alone clears, false clears or deletes", func(t *testing.T) {
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, managed, everything)
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, managed, `{"isSelected":true}`)
		wantFields(t, f.resourceOf(t, f.alphaVendor, f.alphaJournals, f.testing), noCustomisation)
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, managed, everything)
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, managed, `{"isSelected":false}`)
		wantFields(t, f.resourceOf(t, f.alphaVendor, f.alphaJournals, f.testing), `{"isSelected":false}`)
		wantFields(t, f.resourceOf(t, f.alphaVendor, f.alphaJournals, f.testing), noCustomisation)
		c := f.newCustomTitle(t, "Rule Six", "Rule Six Title")
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, c.path, `{"isSelected":false}`)
		wantError(t, f.get(t, c.path, key1), 404, 1001, "Title not found")
		wantError(t, f.get(t, p("/titles/%d", c.title), key1), 404, 1001, "Title not found")
	})
}

// TestTitleSelectionStateTable has one test per row of the title-selection
// state table of the specification.
func TestTitleSelectionStateTable(t *testing.T) {
	f := newFixture(t)
	// Acta Testica starts selected and hidden (the fixture); Testing
	// Monographs, in the unselected Beta Books, starts not selected.
	acta := p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.alphaJournals, f.acta)
	alpha := func(t *testing.T) map[string]any { return f.resourceOf(t, f.alphaVendor, f.alphaJournals, f.acta) }

	t.Run("any: isSelected true, no customisation: selected, earlier customisation removed", func(t *testing.T) {
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, acta, everything)
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, acta, `{"isSelected":true}`)
		wantFields(t, alpha(t), `{"isSelected":true}`)
		wantFields(t, alpha(t), noCustomisation)
	})
	t.Run("any: isSelected true with customisation: selected, customisation applied", func(t *testing.T) {
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, acta, `{"isSelected":false}`)
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, acta, everything)
		wantFields(t, alpha(t), everythingSet)
	})
	t.Run("selected managed title: isSelected false: not selected, customisation lost", func(t *testing.T) {
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, acta, `{"isSelected":false}`)
		wantFields(t, alpha(t), `{"isSelected":false}`)
		wantFields(t, alpha(t), noCustomisation)
		if got := f.read(t, p("/vendors/%d/packages/%d", f.alphaVendor, f.alphaJournals))["selectedCount"]; got != 1.0 {
			t.Errorf("selectedCount = %v, want 1", got)
		}
	})
	t.Run("selected custom title: isSelected false: hard deleted", func(t *testing.T) {
		c := f.newCustomTitle(t, "State Table", "Hard Delete Me")
		if got := f.read(t, p("/titles?search=%s", "hard%20delete"))["totalResults"]; got != 1.0 {
			t.Fatalf("custom title not searchable at once: %v", got)
		}
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, c.path, `{"isSelected":false}`)
		wantError(t, f.get(t, c.path, key1), 404, 1001, "Title not found")
		if got := f.read(t, p("/titles?search=%s", "hard%20delete"))["totalResults"]; got != 0.0 {
			t.Errorf("deleted custom title still found: %v", got)
		}
		if got := f.read(t, p("/vendors/%d/packages/%d", f.cust1Vendor, c.pkg))["titleCount"]; got != 0.0 {
			t.Errorf("titleCount = %v, want 0", got)
		}
	})
	t.Run("selected: isHidden true or false with isSelected true: hidden or visible", func(t *testing.T) {
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, acta, `{"isSelected":true,"isHidden":true}`)
		wantFields(t, alpha(t), `{"isSelected":true,"visibilityData":{"isHidden":true,"reason":"Hidden by Customer"}}`)
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, acta, `{"isSelected":true,"isHidden":false}`)
		wantFields(t, alpha(t), `{"isSelected":true,"visibilityData":{"isHidden":false,"reason":""}}`)
		wantError(t, f.write(t, http.MethodPut, acta, `{"isSelected":false,"isHidden":true}`), 400, 1006,
			"Attribute isHidden can be true only with isSelected true: a resource or package that is not selected cannot be hidden.")
		wantFields(t, alpha(t), `{"isSelected":true,"visibilityData":{"isHidden":false,"reason":""}}`)
	})
	t.Run("title of a Complete package: selection refused", func(t *testing.T) {
		res := f.write(t, http.MethodPut, p("/vendors/%d/packages/%d/titles/%d", f.betaVendor, f.betaBooks, f.series), `{"isSelected":true}`)
		if res.status != 400 || res.errors(t).Code != 1010 {
			t.Errorf("status %d, body %s; want 400 with code 1010", res.status, res.body)
		}
	})
}

func TestCustomTitles(t *testing.T) {
	f := newFixture(t)
	c := f.newCustomTitle(t, "Local Collection", "First Local Title")
	titles := p("/vendors/%d/packages/%d/titles", f.cust1Vendor, c.pkg)

	t.Run("every field", func(t *testing.T) {
		res := f.mustWrite(t, http.StatusOK, http.MethodPost, titles, `{"titleName":"Local Studies Bulletin","pubType":"NEWSLETTER","publisherName":"City Library",
			"isPeerReviewed":true,"peerReviewed":true,"edition":"2nd","description":"The library's bulletin.","url":"https://library.example/bulletin",
			"contributorsList":[{"type":"editor","contributor":"Doe, Jane"},{"type":"ILLUSTRATOR","contributor":"Roe, Rick"},{"type":"Author","contributor":"Poe, Pat"}],
			"identifiersList":[{"id":"0317-8471","type":0,"subtype":1},{"id":"978-0-306-40615-7","type":1,"subtype":2}],
			"customCoverageList":[{"beginCoverage":"2010-01-01","endCoverage":""}],"coverageStatement":"Since 2010.",
			"customEmbargoPeriod":{"embargoUnit":"weeks","embargoValue":6},"userDefinedField2":"local"}`)
		id := int64(res.object(t)["titleId"].(float64))
		r := f.resourceOf(t, f.cust1Vendor, c.pkg, id)
		wantFields(t, r, `{"isSelected":true,"isPackageCustom":true,"packageType":"Custom","url":"https://library.example/bulletin",
			"customCoverageList":[{"beginCoverage":"2010-01-01","endCoverage":""}],"coverageStatement":"Since 2010.",
			"customEmbargoPeriod":{"embargoUnit":"Weeks","embargoValue":6},"userDefinedField2":"local"}`)
		wantFields(t, r["title"].(map[string]any), `{"titleName":"Local Studies Bulletin","pubType":"Newsletter","publisherName":"City Library",
			"isTitleCustom":true,"isPeerReviewed":true,"edition":"2nd","description":"The library's bulletin.",
			"contributorsList":[{"type":"Editor","contributor":"Doe, Jane"},{"type":"Illustrator","contributor":"Roe, Rick"},{"type":"Author","contributor":"Poe, Pat"}]}`)
		ids := names(t, r["title"].(map[string]any), "identifiersList", "id")
		if len(ids) != 2 {
			t.Errorf("identifiers %v, want two", ids)
		}
		if got := f.read(t, p("/titles?search=0317-8471&searchfield=isxn"))["totalResults"]; got != 2.0 {
			t.Errorf("ISSN search finds %v titles, want the managed and the custom one", got)
		}
		if got := f.read(t, p("/titles?search=bulletin"))["totalResults"]; got != 1.0 {
			t.Errorf("custom title not searchable at once: %v", got)
		}
	})

	t.Run("contributorIdList, the example body's name", func(t *testing.T) {
		res := f.mustWrite(t, http.StatusOK, http.MethodPost, titles, `{"titleName":"Example Body","pubType":"book","contributorIdList":[{"type":"author","contributor":"Ex, Ample"}]}`)
		id := int64(res.object(t)["titleId"].(float64))
		wantFields(t, f.resourceOf(t, f.cust1Vendor, c.pkg, id)["title"].(map[string]any), `{"contributorsList":[{"type":"Author","contributor":"Ex, Ample"}]}`)
	})

	t.Run("custom title update", func(t *testing.T) {
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, c.path, `{"isSelected":true,"isHidden":true,"customCoverageList":[{"beginCoverage":"2003-01-01","endCoverage":"2003-12-12"}],
			"contributorsList":[{"type":"Editor","contributor":"Lang Z"}],"identifiersList":[{"id":"12345","subtype":1,"type":1}],"customEmbargoPeriod":{"embargoUnit":null,"embargoValue":0},
			"coverageStatement":"We have coverage.","titleName":"Updated Local Title","pubType":"BookSeries","isPeerReviewed":true,"publisherName":"Test Publisher",
			"edition":"23","description":"Updated.","url":"http://url ","proxy":{"id":"EZProxy","inherited":false},"userDefinedField1":"u1"}`)
		r := f.resourceOf(t, f.cust1Vendor, c.pkg, c.title)
		wantFields(t, r, `{"visibilityData":{"isHidden":true,"reason":"Hidden by Customer"},"customCoverageList":[{"beginCoverage":"2003-01-01","endCoverage":"2003-12-12"}],
			"coverageStatement":"We have coverage.","url":"http://url","proxy":{"id":"EZProxy","inherited":false},"userDefinedField1":"u1"}`)
		wantFields(t, r["title"].(map[string]any), `{"titleName":"Updated Local Title","pubType":"BookSeries","publisherName":"Test Publisher","edition":"23",
			"description":"Updated.","isPeerReviewed":true,"contributorsList":[{"type":"Editor","contributor":"Lang Z"}],
			"identifiersList":[{"id":"12345","source":"ResourceIdentifier","subtype":1,"type":1}]}`)
		wantError(t, f.write(t, http.MethodPut, c.path, `{"isSelected":true,"titleName":"x","pubType":"book","contributorsList":[{"type":"some type","contributor":"Lang Z"}]}`),
			400, 1006, "Attribute Type is invalid.")
		wantError(t, f.write(t, http.MethodPut, c.path, `{"isSelected":true,"titleName":"Example Body","pubType":"book"}`), 400, 1006, "Custom Title with the provided name already exists")
	})

	t.Run("managed title added to a custom package", func(t *testing.T) {
		path := p("/vendors/%d/packages/%d/titles/%d", f.cust1Vendor, c.pkg, f.cookbook)
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, path, `{"isSelected":true,"titleName":"The Test Cookbook","pubType":"Book","url":"http://test.io"}`)
		r := f.resourceOf(t, f.cust1Vendor, c.pkg, f.cookbook)
		wantFields(t, r, `{"isSelected":true,"url":"http://test.io","isPackageCustom":true}`)
		wantFields(t, r["title"].(map[string]any), `{"titleName":"The Test Cookbook","isTitleCustom":false}`)
		if got := len(f.read(t, p("/titles/%d", f.cookbook))["customerResourcesList"].([]any)); got != 2 {
			t.Errorf("the cookbook has %d resources, want 2", got)
		}
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, path, `{"isSelected":true,"titleName":"The Test Cookbook","pubType":"Book","url":null}`)
		wantFields(t, f.resourceOf(t, f.cust1Vendor, c.pkg, f.cookbook), `{"url":null}`)
		// Deselecting takes it out of the custom package; the title stays.
		f.mustWrite(t, http.StatusNoContent, http.MethodPut, path, `{"isSelected":false}`)
		wantError(t, f.get(t, path, key1), 404, 1001, "Title not found")
		f.read(t, p("/titles/%d", f.cookbook))
	})

	t.Run("errors", func(t *testing.T) {
		for _, tt := range []struct {
			name, path, body string
			status, code     int
			message          string
		}{
			{"duplicate name", titles, `{"titleName":"example body","pubType":"book"}`, 400, 1006, "Custom Title with the provided name already exists"},
			{"second key disagrees", titles, `{"titleName":"Y","pubType":"book","isPeerReviewed":true,"peerReviewed":false}`, 400, 1006,
				"Attributes isPeerReviewed and peerReviewed name the same setting and must agree: true and false."},
			{"managed package", p("/vendors/%d/packages/%d/titles", f.alphaVendor, f.alphaJournals), `{"titleName":"X","pubType":"book"}`, 400, 1010, "Custom Title can not be added to the provided package"},
			// As the hosted service answers: a package the vendor does not
			// have takes no custom title, like a managed one.
			{"unknown package", p("/vendors/%d/packages/%d/titles", f.cust1Vendor, f.nowhere), `{"titleName":"X","pubType":"book"}`, 400, 1010,
				"Custom Title can not be added to the provided package"},
			{"unknown vendor", p("/vendors/%d/packages/%d/titles", f.nowhere, f.nowhere), `{"titleName":"X","pubType":"book"}`, 404, 1001, "Vendor not found"},
			{"unknown vendor", p("/vendors/%d/packages/%d/titles", f.nowhere, c.pkg), `{"titleName":"X","pubType":"book"}`, 404, 1001, "Vendor not found"},
			{"no titleName", titles, `{"pubType":"book"}`, 400, 1005, "Attribute TitleName is missing."},
			{"no pubType", titles, `{"titleName":"X","pubType":null}`, 400, 1005, "Attribute PubType is missing."},
			{"bad pubType", titles, `{"titleName":"X","pubType":"podcast"}`, 400, 1006,
				`Attribute pubType has an invalid value "podcast": allowed values are journal, newsletter, report, proceedings, website, newspaper, unspecified, book, bookseries, database, thesisdissertation, streamingaudio, streamingvideo, audiobook.`},
			{"pubType all", titles, `{"titleName":"X","pubType":"all"}`, 400, 1006,
				`Attribute pubType has an invalid value "all": allowed values are journal, newsletter, report, proceedings, website, newspaper, unspecified, book, bookseries, database, thesisdissertation, streamingaudio, streamingvideo, audiobook.`},
			{"bad contributor type", titles, `{"titleName":"X","pubType":"book","contributorsList":[{"type":"invalid type","contributor":"some editor"},{"type":"Illustrator","contributor":"some illustrator"}]}`,
				400, 1006, "Parameter contributorsList.contributorType must be one of (author, editor, illustrator)."},
			{"empty contributor", titles, `{"titleName":"X","pubType":"book","contributorsList":[{"type":"author","contributor":""}]}`, 400, 1005, "Attribute contributorsList[0].contributor is missing."},
			{"both contributor lists", titles, `{"titleName":"X","pubType":"book","contributorsList":[],"contributorIdList":[]}`, 400, 1006,
				"Attributes contributorsList and contributorIdList are two names of one list: send one of them."},
			{"identifier type 2", titles, `{"titleName":"X","pubType":"book","identifiersList":[{"id":"1","type":2,"subtype":1}]}`, 400, 1006, "Attribute identifiersList[0].type must be 0 (ISSN) or 1 (ISBN), not 2."},
			{"identifier subtype 3", titles, `{"titleName":"X","pubType":"book","identifiersList":[{"id":"1","type":0,"subtype":3}]}`, 400, 1006, "Attribute identifiersList[0].subtype must be 1 (print) or 2 (online), not 3."},
			{"identifier without id", titles, `{"titleName":"X","pubType":"book","identifiersList":[{"type":0,"subtype":1}]}`, 400, 1005, "Attribute identifiersList[0].id is missing."},
			{"isSelected is no member", titles, `{"titleName":"X","pubType":"book","isSelected":true}`, 400, 1006, "Attribute isSelected is not allowed."},
			{"invalid coverage", titles, `{"titleName":"X","pubType":"book","customCoverageList":[{"beginCoverage":"99","endCoverage":"99"}]}`, 400, 1006, "beginCoverage has an invalid date."},
			{"invalid embargo", titles, `{"titleName":"X","pubType":"book","customEmbargoPeriod":{"embargoUnit":"Seconds","embargoValue":6}}`, 400, 1006,
				"Parameter customEmbargoPeriod.embargoUnit must be one of (days, weeks, months, years)."},
		} {
			t.Run(tt.name, func(t *testing.T) {
				wantError(t, f.write(t, http.MethodPost, tt.path, tt.body), tt.status, tt.code, tt.message)
			})
		}
		if got := f.read(t, p("/vendors/%d/packages/%d", f.cust1Vendor, c.pkg))["titleCount"]; got != 3.0 {
			t.Errorf("titleCount after refused requests = %v, want 3", got)
		}
	})
}
