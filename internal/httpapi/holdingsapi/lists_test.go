package holdingsapi_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kbserver/kbserver/internal/kb"
)

// Tests of the hosted service's v2 package operations
// (/rm/rmaccounts/v2/{custid}/lists…), with the query strings and bodies
// that FOLIO's holdings client sends.

// v2 builds a path under /rm/rmaccounts/v2/cust1.
func v2(format string, args ...any) string {
	return "/rm/rmaccounts/v2/cust1" + fmt.Sprintf(format, args...)
}

// folioQuery is the package query FOLIO sends, in its order, with the
// given search, page and sort; more parameters go before search.
func folioQuery(search string, more ...string) string {
	q := "?selection=all&contenttype=all&searchtype=advanced&searchfield=name"
	for _, m := range more {
		q += "&" + m
	}
	return q + "&search=" + search + "&offset=1&count=25&orderby=packagename"
}

// checkPackageData checks the keys and types of a v2 package record that
// FOLIO requires or reads.
func checkPackageData(t *testing.T, pkg map[string]any) {
	t.Helper()
	if _, ok := pkg["packageId"]; ok {
		t.Errorf("package has packageId; the v2 key is listId: %v", pkg)
	}
	kinds := map[string]string{
		"listId": "number", "packageName": "string", "vendorId": "number", "vendorName": "string", "isCustom": "bool",
		"contentType": "string", "packageType": "string", "titleCount": "number", "selectedCount": "number",
		"isSelected": "bool", "isTokenNeeded": "bool", "visibility": "array", "customCoverage": "object", "proxy": "object",
		"allowOperatorToAddTitles": "bool", "isOrderedThroughOperator": "bool", "availableForSelection": "bool",
		"isPrimaryPackage": "bool", "packageFreeAccess": "bool", "managedAltNames": "array", "customAltNames": "array",
		"subjectAssociations": "array", "customDisplayName": "null", "managedDescription": "null", "customDescription": "null",
		"url": "null",
	}
	for key, want := range kinds {
		if got := jsonKind(pkg[key], key, pkg); got != want {
			t.Errorf("%s is %s, want %s", key, got, want)
		}
	}
	for _, branded := range []string{"isOrderedThroughEbsco", "allowEbscoToAddTitles"} {
		if _, ok := pkg[branded]; ok {
			t.Errorf("package has the branded key %s", branded)
		}
	}
	ct := strings.ToLower(fmt.Sprint(pkg["contentType"]))
	if !slices.Contains(kb.ContentTypeNames()[1:], ct) {
		t.Errorf("contentType %q is not one FOLIO knows (lower-cased)", ct)
	}
	cov, _ := pkg["customCoverage"].(map[string]any)
	for _, k := range []string{"beginCoverage", "endCoverage"} {
		if _, ok := cov[k].(string); !ok {
			t.Errorf("customCoverage.%s is not a string: %v", k, cov)
		}
	}
	vis, _ := pkg["visibility"].([]any)
	var cats []string
	for _, v := range vis {
		e := v.(map[string]any)
		if len(e) != 3 || jsonKind(e["hidden"], "", nil) != "bool" || jsonKind(e["reason"], "", nil) != "string" {
			t.Errorf("visibility entry %v", e)
		}
		cats = append(cats, fmt.Sprint(e["category"]))
	}
	if !slices.Equal(cats, []string{"PF", "FTF", "MARC"}) {
		t.Errorf("visibility categories %v", cats)
	}
	proxy, _ := pkg["proxy"].(map[string]any)
	if jsonKind(proxy["id"], "", nil) != "string" || jsonKind(proxy["inherited"], "", nil) != "bool" {
		t.Errorf("proxy %v", proxy)
	}
	switch tok := pkg["packageToken"].(type) {
	case nil:
	case map[string]any:
		keys := make([]string, 0, len(tok))
		for k := range tok {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if !slices.Equal(keys, []string{"factName", "helpText", "prompt", "value"}) {
			t.Errorf("packageToken keys %v, want exactly factName, helpText, prompt, value", keys)
		}
	default:
		t.Errorf("packageToken %v is neither null nor an object", tok)
	}
}

// jsonKind names the JSON type of v; a missing key (when obj is given) is
// "missing".
func jsonKind(v any, key string, obj map[string]any) string {
	if obj != nil {
		if _, ok := obj[key]; !ok {
			return "missing"
		}
	}
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "bool"
	case float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

func TestListsShape(t *testing.T) {
	f := newFixture(t)
	l := f.read(t, v2("/lists")+folioQuery(""))
	if len(l) != 3 || jsonKind(l["totalResults"], "", nil) != "number" {
		t.Errorf("list keys: %v", l)
	}
	if diff := cmp.Diff(map[string]any{"packages": []any{}, "subjects": []any{}}, l["facets"]); diff != "" {
		t.Errorf("facets (-want +got):\n%s", diff)
	}
	items := l["packagesList"].([]any)
	if len(items) != 3 {
		t.Fatalf("%d packages, want 3", len(items))
	}
	for _, it := range items {
		checkPackageData(t, it.(map[string]any))
	}
	one := f.read(t, v2("/lists/%d", f.alphaJournals))
	checkPackageData(t, one)
	if diff := cmp.Diff(items[0], any(one)); diff != "" {
		t.Errorf("a list item and the package alone differ (-list +alone):\n%s", diff)
	}
	wantFields(t, one, fmt.Sprintf(`{"listId":%d,"packageName":"Alpha Journals","vendorId":%d,"vendorName":"Alpha Publishing",
		"isCustom":false,"contentType":"EJournal","packageType":"Selectable","titleCount":2,"selectedCount":2,"isSelected":true,
		"isTokenNeeded":false,"packageToken":null,"proxy":{"id":"<n>","inherited":true},
		"customCoverage":{"beginCoverage":"","endCoverage":""},
		"visibility":[{"category":"PF","hidden":false,"reason":""},{"category":"FTF","hidden":false,"reason":""},{"category":"MARC","hidden":false,"reason":""}],
		"allowOperatorToAddTitles":false,"isOrderedThroughOperator":false,"packageFreeAccess":false,"isPrimaryPackage":true,
		"availableForSelection":true,"managedAltNames":[],"customAltNames":[],"subjectAssociations":[]}`, f.alphaJournals, f.alphaVendor))
	f.enableTokens(t)
	wantFields(t, f.read(t, v2("/lists/%d", f.betaBooks)), `{"isTokenNeeded":true,
		"packageToken":{"factName":"[[pkgid]]","prompt":"/pkg/","helpText":"Your package id.","value":null}}`)
}

func TestListsParameters(t *testing.T) {
	f := newFixture(t)
	// cust1 hides Alpha Journals.
	f.mustWrite(t, http.StatusNoContent, http.MethodPut, v2("/lists/%d", f.alphaJournals),
		`{"isSelected":true,"visibility":[{"category":"PF","hidden":true,"reason":null},{"category":"FTF","hidden":true,"reason":null},{"category":"MARC","hidden":true,"reason":null}]}`)
	all := []string{"Alpha Journals", "Beta Books", "Beta Empty"}
	tests := []struct {
		name, path string
		total      int
		names      []string
	}{
		{"no parameters", v2("/lists"), 3, all},
		{"FOLIO's query, no search", v2("/lists") + folioQuery(""), 3, all},
		{"selected", v2("/lists?selection=selected"), 1, []string{"Alpha Journals"}},
		{"not selected", v2("/lists?selection=notselected"), 2, []string{"Beta Books", "Beta Empty"}},
		{"ordered through the operator", v2("/lists?selection=orderedthroughoperator"), 0, nil},
		{"ordered through, branded alias", v2("/lists?selection=orderedthroughebsco"), 0, nil},
		{"content type", v2("/lists?contenttype=ejournal"), 1, []string{"Alpha Journals"}},
		{"content type kbserver lacks", v2("/lists?contenttype=streamingmedia"), 0, nil},
		{"content type kbserver lacks, by number", v2("/lists?contenttype=9"), 0, nil},
		{"advanced: every word a prefix", v2("/lists") + folioQuery("bet+boo"), 1, []string{"Beta Books"}},
		{"any word", v2("/lists?searchtype=any&search=journals+empty"), 2, []string{"Alpha Journals", "Beta Empty"}},
		{"contains", v2("/lists?searchtype=contains&search=ook"), 1, []string{"Beta Books"}},
		{"exact match", v2("/lists?searchtype=exactmatch&search=beta+books"), 1, []string{"Beta Books"}},
		{"exact match is whole", v2("/lists?searchtype=exactmatch&search=beta"), 0, nil},
		{"begins with", v2("/lists?searchtype=beginswith&search=beta+e"), 1, []string{"Beta Empty"}},
		{"exact phrase", v2("/lists?searchtype=exactphrase&search=alpha+journals"), 1, []string{"Alpha Journals"}},
		{"exact phrase in order", v2("/lists?searchtype=exactphrase&search=journals+alpha"), 0, nil},
		{"name does not search vendors", v2("/lists?searchfield=name&search=media"), 0, nil},
		{"keyword searches vendors", v2("/lists?searchfield=keyword&search=media"), 2, []string{"Beta Books", "Beta Empty"}},
		{"keyword searches names", v2("/lists?searchfield=keyword&search=journals"), 1, []string{"Alpha Journals"}},
		{"hidden somewhere", v2("/lists") + folioQuery("", "visibilitytype=hiddenSomewhere"), 1, []string{"Alpha Journals"}},
		{"hidden in PF", v2("/lists?visibilitytype=hiddenInPF"), 1, []string{"Alpha Journals"}},
		{"excluded from MARC", v2("/lists?visibilitytype=excludedFromMARC"), 1, []string{"Alpha Journals"}},
		{"visible in FTF", v2("/lists?visibilitytype=visibleInFTF"), 2, []string{"Beta Books", "Beta Empty"}},
		{"included in MARC", v2("/lists?visibilitytype=includedInMARC"), 2, []string{"Beta Books", "Beta Empty"}},
		{"visible somewhere", v2("/lists?visibilitytype=visibleSomewhere"), 2, []string{"Beta Books", "Beta Empty"}},
		{"free access", v2("/lists?packagefreeaccess=TRUE"), 0, nil},
		{"controlled access", v2("/lists?packagefreeaccess=FALSE"), 3, all},
		{"any access", v2("/lists?packagefreeaccess=ALL"), 3, all},
		{"primary packages", v2("/lists?isprimarypackage=true"), 3, all},
		{"not primary packages", v2("/lists?isprimarypackage=false"), 0, nil},
		{"highlight and facets accepted", v2("/lists") + folioQuery("beta", "highlighttag=mark", "facetstoinclude=subject&subjectfacetcount=1000"),
			2, []string{"Beta Books", "Beta Empty"}},
		{"page 2 of 1", v2("/lists?count=1&offset=2"), 3, []string{"Beta Books"}},
		{"count 100", v2("/lists?count=100&offset=1"), 3, all},
		{"past the end", v2("/lists?count=25&offset=2"), 3, nil},
		{"relevance", v2("/lists?search=beta&orderby=relevance&searchtype=advanced"), 2, []string{"Beta Books", "Beta Empty"}},
		{"vendor's packages", v2("/vendors/%d/lists", f.betaVendor) + folioQuery(""), 2, []string{"Beta Books", "Beta Empty"}},
		{"vendor's packages filtered to none", v2("/vendors/%d/lists?contenttype=print", f.betaVendor), 0, nil},
		{"vendor's packages, none possible", v2("/vendors/%d/lists?packagefreeaccess=TRUE", f.betaVendor), 0, nil},
		{"own vendor, no packages", v2("/vendors/%d/lists", f.cust1Vendor), 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l := f.read(t, tt.path)
			got := names(t, l, "packagesList", "packageName")
			if int(l["totalResults"].(float64)) != tt.total || !slices.Equal(got, append([]string{}, tt.names...)) {
				t.Errorf("got %v of %v, want %v of %d", got, l["totalResults"], tt.names, tt.total)
			}
		})
	}
	// The hidden flag shows in every place, as v1 shows it.
	wantFields(t, f.read(t, v2("/lists/%d", f.alphaJournals)), `{"visibility":[{"category":"PF","hidden":true,"reason":"Hidden by Customer"},
		{"category":"FTF","hidden":true,"reason":"Hidden by Customer"},{"category":"MARC","hidden":true,"reason":"Hidden by Customer"}]}`)
	wantFields(t, f.read(t, p("/vendors/%d/packages/%d", f.alphaVendor, f.alphaJournals)), `{"visibilityData":{"isHidden":true,"reason":"Hidden by Customer"}}`)
}

func TestListsBadParameters(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		query, message string
	}{
		{"selection=bogus", `Parameter selection has an invalid value "bogus": allowed values are all, selected, notselected, orderedthroughoperator (or 0-3).`},
		{"contenttype=journal", `Parameter contenttype has an invalid value "journal": allowed values are all, aggregatedfulltext, abstractandindex, ebook, ejournal, print, unknown, onlinereference, streamingmedia, mixedcontent (or 0-9).`},
		{"contenttype=10", `Parameter contenttype has an invalid value "10": allowed values are all, aggregatedfulltext, abstractandindex, ebook, ejournal, print, unknown, onlinereference, streamingmedia, mixedcontent (or 0-9).`},
		{"searchtype=fuzzy", `Parameter searchtype has an invalid value "fuzzy": allowed values are any, contains, exactmatch, beginswith, proximity, exactphrase, advanced (or 0-6).`},
		{"searchfield=title", `Parameter searchfield has an invalid value "title": allowed values are name, keyword.`},
		{"visibilitytype=hidden", `Parameter visibilitytype has an invalid value "hidden": allowed values are visibleSomewhere, visibleInPF, visibleInFTF, includedInMARC, hiddenSomewhere, hiddenInPF, hiddenInFTF, excludedFromMARC.`},
		{"highlighttag=%3Cb%3E", `Parameter highlighttag must be a tag name of 1 to 20 letters and digits (got "<b>").`},
		{"facetstoinclude=vendor", `Parameter facetstoinclude has an invalid value "vendor": allowed values are subject, package (a comma-separated list).`},
		{"subjectfacetcount=0", `Parameter subjectfacetcount is outside the range 1-10000 (got "0").`},
		{"subjectfacetcount=many", `Parameter subjectfacetcount is outside the range 1-10000 (got "many").`},
		{"packagefreeaccess=maybe", `Parameter packagefreeaccess has an invalid value "maybe": allowed values are all, true, false.`},
		{"isprimarypackage=yes", `Parameter isprimarypackage has an invalid value "yes": allowed values are true, false.`},
		{"count=101", `Parameter count is outside the range 1-100 (got "101").`},
		{"count=0", `Parameter count is outside the range 1-100 (got "0").`},
		{"offset=0", `Parameter offset must be a page number of 1 or more (got "0").`},
		{"orderby=titlename", `Parameter orderby has an invalid value "titlename": allowed values are relevance, packagename (or 0-1).`},
	}
	for _, tt := range tests {
		for _, path := range []string{v2("/lists"), v2("/vendors/%d/lists", f.betaVendor)} {
			t.Run(tt.query+" "+path, func(t *testing.T) {
				wantError(t, f.get(t, path+"?"+tt.query, key1), http.StatusBadRequest, int(kb.CodeInvalid), tt.message)
			})
		}
	}
	wantError(t, f.get(t, v2("/vendors/%d/lists", f.nowhere), key1), http.StatusNotFound, int(kb.CodeNotFound), "Vendor not found")
	wantError(t, f.get(t, v2("/vendors/x/lists"), key1), http.StatusBadRequest, int(kb.CodeInvalid), "Parameter vendorid must be a positive integer.")
}

func TestListPackageReads(t *testing.T) {
	f := newFixture(t)
	res := f.mustWrite(t, http.StatusOK, http.MethodPost, p("/vendors/%d/packages", f.cust1Vendor), `{"packageName":"Local Journals","contentType":4}`)
	custom := int64(res.object(t)["packageId"].(float64))
	wantFields(t, f.read(t, v2("/lists/%d", custom)), fmt.Sprintf(`{"listId":%d,"isCustom":true,"packageType":"Custom","vendorId":%d,
		"contentType":"EJournal","isSelected":true,"allowOperatorToAddTitles":false}`, custom, f.cust1Vendor))
	for _, tt := range []struct {
		name, path, key string
		status, code    int
		message         string
	}{
		{"unknown package", v2("/lists/%d", f.nowhere), key1, 404, 1001, "Package not found"},
		{"custom package of another customer", fmt.Sprintf("/rm/rmaccounts/v2/cust2/lists/%d", custom), key2, 404, 1001, "Package not found"},
		{"not an id", v2("/lists/abc"), key1, 400, 1006, "Parameter packageid must be a positive integer."},
		{"zero", v2("/lists/0"), key1, 400, 1006, "Parameter packageid must be a positive integer."},
	} {
		t.Run(tt.name, func(t *testing.T) {
			wantError(t, f.get(t, tt.path, tt.key), tt.status, tt.code, tt.message)
		})
	}
	// Another customer's key is refused before anything is read.
	if res := f.get(t, v2("/lists/%d", f.alphaJournals), key2); res.status != http.StatusForbidden {
		t.Errorf("cust1's package with cust2's key: status %d", res.status)
	}
}

// folioPut is the package PUT body FOLIO writes: every member of its
// model, null where unset, with the given members replaced.
func folioPut(t *testing.T, set string) string {
	t.Helper()
	body := map[string]any{
		"packageName": nil, "contentType": nil, "isSelected": nil, "visibility": nil, "customDescription": nil, "url": nil,
		"isFullPackage": nil, "allowEbscoToAddTitles": nil, "customCoverage": nil, "proxy": nil, "packageToken": nil,
		"customAltNames": nil, "customDisplayName": nil, "packageFreeAccess": nil,
	}
	var over map[string]any
	if err := json.Unmarshal([]byte(set), &over); err != nil {
		t.Fatalf("bad members %s: %v", set, err)
	}
	for k, v := range over {
		body[k] = v
	}
	b, err := json.Marshal(body)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// hideAll is FOLIO's visibility array for a hidden (or shown) package.
func hideAll(hidden bool) string {
	return fmt.Sprintf(`[{"category":"PF","hidden":%[1]t,"reason":null},{"category":"FTF","hidden":%[1]t,"reason":null},{"category":"MARC","hidden":%[1]t,"reason":null}]`, hidden)
}

func TestListPackageUpdate(t *testing.T) {
	f := newFixture(t)
	f.enableTokens(t)
	beta := v2("/lists/%d", f.betaBooks)
	betaV1 := p("/vendors/%d/packages/%d", f.betaVendor, f.betaBooks)

	// FOLIO's managed package update: selected, hidden everywhere, custom
	// coverage, a proxy, a token and the operator flag under its branded
	// name.
	f.mustWrite(t, http.StatusNoContent, http.MethodPut, beta, folioPut(t, `{"isSelected":true,"visibility":`+hideAll(true)+`,
		"allowEbscoToAddTitles":true,"customCoverage":{"beginCoverage":"2005-01-01","endCoverage":""},"proxy":{"id":"EZProxy","inherited":false},
		"packageToken":{"factName":null,"prompt":null,"helpText":null,"value":"site-7"}}`))
	wantFields(t, f.read(t, beta), `{"isSelected":true,"selectedCount":3,"allowOperatorToAddTitles":true,
		"visibility":[{"category":"PF","hidden":true,"reason":"Hidden by Customer"},{"category":"FTF","hidden":true,"reason":"Hidden by Customer"},{"category":"MARC","hidden":true,"reason":"Hidden by Customer"}],
		"customCoverage":{"beginCoverage":"2005-01-01","endCoverage":""},"proxy":{"id":"EZProxy","inherited":false},
		"packageToken":{"factName":"[[pkgid]]","prompt":"/pkg/","helpText":"Your package id.","value":"site-7"}}`)
	// The v1 operations read the same state.
	wantFields(t, f.read(t, betaV1), `{"isSelected":true,"allowOperatorToAddTitles":true,"visibilityData":{"isHidden":true,"reason":"Hidden by Customer"},
		"customCoverage":{"beginCoverage":"2005-01-01","endCoverage":""},"proxy":{"id":"EZProxy","inherited":false}}`)

	// Shown again, the operator flag under the specification's name; the
	// token is kept when none is sent, as v1 keeps it.
	f.mustWrite(t, http.StatusNoContent, http.MethodPut, beta, folioPut(t, `{"isSelected":true,"visibility":`+hideAll(false)+`,"allowOperatorToAddTitles":false}`))
	wantFields(t, f.read(t, beta), `{"isSelected":true,"allowOperatorToAddTitles":false,
		"visibility":[{"category":"PF","hidden":false,"reason":""},{"category":"FTF","hidden":false,"reason":""},{"category":"MARC","hidden":false,"reason":""}],
		"customCoverage":{"beginCoverage":"","endCoverage":""},"proxy":{"id":"<n>","inherited":true},
		"packageToken":{"factName":"[[pkgid]]","prompt":"/pkg/","helpText":"Your package id.","value":"site-7"}}`)

	// FOLIO's delete payload deselects a managed package and clears it.
	f.mustWrite(t, http.StatusNoContent, http.MethodPut, beta, `{"selected":false,"isSelected":false}`)
	wantFields(t, f.read(t, beta), `{"isSelected":false,"selectedCount":0,"allowOperatorToAddTitles":false,
		"visibility":[{"category":"PF","hidden":false,"reason":""},{"category":"FTF","hidden":false,"reason":""},{"category":"MARC","hidden":false,"reason":""}]}`)

	// Either name of the selection alone will do; the unkept members take
	// their empty values.
	f.mustWrite(t, http.StatusNoContent, http.MethodPut, beta, `{"selected":true,"customAltNames":[],"customDescription":"","url":" ","packageFreeAccess":false}`)
	wantFields(t, f.read(t, beta), `{"isSelected":true,"selectedCount":3}`)
}

func TestListCustomPackage(t *testing.T) {
	f := newFixture(t)
	// A custom package is created on the v1 path (as FOLIO does) and read
	// and written on v2.
	res := f.mustWrite(t, http.StatusOK, http.MethodPost, p("/vendors/%d/packages", f.cust1Vendor), `{"packageName":"Local Journals","contentType":6}`)
	id := int64(res.object(t)["packageId"].(float64))
	pkg := v2("/lists/%d", id)
	wantFields(t, f.read(t, pkg), `{"packageName":"Local Journals","contentType":"Unknown","isCustom":true}`)

	for _, tt := range []struct {
		name, set, want string
	}{
		{"rename, content type by number", `{"isSelected":true,"packageName":"Renamed Journals","contentType":4}`,
			`{"packageName":"Renamed Journals","contentType":"EJournal","isSelected":true}`},
		{"content type by name", `{"isSelected":true,"contentType":"ebook"}`, `{"packageName":"Renamed Journals","contentType":"EBook"}`},
		{"content type as a numeric string", `{"isSelected":true,"contentType":"7"}`, `{"contentType":"OnlineReference"}`},
		{"hidden with coverage", `{"isSelected":true,"visibility":` + hideAll(true) + `,"customCoverage":{"beginCoverage":"2001-01-01","endCoverage":"2002-12-31"}}`,
			`{"visibility":[{"category":"PF","hidden":true,"reason":"Hidden by Customer"},{"category":"FTF","hidden":true,"reason":"Hidden by Customer"},{"category":"MARC","hidden":true,"reason":"Hidden by Customer"}],
			  "customCoverage":{"beginCoverage":"2001-01-01","endCoverage":"2002-12-31"},"allowOperatorToAddTitles":false}`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f.mustWrite(t, http.StatusNoContent, http.MethodPut, pkg, folioPut(t, tt.set))
			wantFields(t, f.read(t, pkg), tt.want)
		})
	}
	// FOLIO's delete payload deletes a custom package.
	f.mustWrite(t, http.StatusNoContent, http.MethodPut, pkg, `{"selected":false,"isSelected":false}`)
	wantError(t, f.get(t, pkg, key1), http.StatusNotFound, 1001, "Package not found")
	wantError(t, f.write(t, http.MethodPut, pkg, `{"isSelected":true}`), http.StatusNotFound, 1001, "Package not found")
}

func TestListPackageUpdateErrors(t *testing.T) {
	f := newFixture(t)
	alpha := v2("/lists/%d", f.alphaJournals)
	before := f.read(t, alpha)
	tests := []struct {
		name, path, body string
		status, code     int
		message          string
	}{
		{"no selection", alpha, folioPut(t, `{}`), 400, 1005, "Attribute IsSelected is missing."},
		{"the two selections disagree", alpha, `{"selected":true,"isSelected":false}`, 400, 1006,
			"Attributes isSelected and selected are one value under two names and must agree (got false and true)."},
		{"the two operator flags disagree", alpha, `{"isSelected":true,"allowOperatorToAddTitles":true,"allowEbscoToAddTitles":false}`, 400, 1006,
			"Attributes allowOperatorToAddTitles and allowEbscoToAddTitles are one value under two names and must agree (got true and false)."},
		{"places disagree", alpha, `{"isSelected":true,"visibility":[{"category":"PF","hidden":true},{"category":"FTF","hidden":false}]}`, 400, 1006,
			"Attribute visibility gives different hidden values: kbserver keeps one hidden flag for PF, FTF, MARC alike, so send the same value for each."},
		{"unknown place", alpha, `{"isSelected":true,"visibility":[{"category":"OPAC","hidden":true}]}`, 400, 1006,
			`Attribute visibility[0].category has an invalid value "OPAC": allowed values are PF, FTF, MARC.`},
		{"hidden but not selected", alpha, `{"isSelected":false,"visibility":` + hideAll(true) + `}`, 400, 1006,
			"Attribute isHidden can be true only with isSelected true: a resource or package that is not selected cannot be hidden."},
		{"content type kbserver lacks", alpha, `{"isSelected":true,"contentType":8}`, 400, 1006,
			`Attribute contentType "8" is a content type kbserver does not have: allowed are 1 to 7 (aggregatedfulltext, abstractandindex, ebook, ejournal, print, unknown, onlinereference).`},
		{"content type out of range", alpha, `{"isSelected":true,"contentType":10}`, 400, 1006,
			`Attribute contentType has an invalid value "10": allowed are 1 to 7 or a name (aggregatedfulltext, abstractandindex, ebook, ejournal, print, unknown, onlinereference).`},
		{"content type all", alpha, `{"isSelected":true,"contentType":"all"}`, 400, 1006,
			`Attribute contentType has an invalid value "all": allowed are 1 to 7 or a name (aggregatedfulltext, abstractandindex, ebook, ejournal, print, unknown, onlinereference).`},
		{"content type not an integer", alpha, `{"isSelected":true,"contentType":4.5}`, 400, 1006, "Attribute contentType must be an integer or a name, not 4.5."},
		{"customDescription", alpha, folioPut(t, `{"isSelected":true,"customDescription":"Ours"}`), 400, 1006,
			"Attribute customDescription is not kept by kbserver: send null (or leave it out)."},
		{"url", alpha, folioPut(t, `{"isSelected":true,"url":"https://x.example/"}`), 400, 1006,
			"Attribute url is not kept by kbserver: send null (or leave it out)."},
		{"customDisplayName", alpha, folioPut(t, `{"isSelected":true,"customDisplayName":"Ours"}`), 400, 1006,
			"Attribute customDisplayName is not kept by kbserver: send null (or leave it out)."},
		{"customAltNames", alpha, folioPut(t, `{"isSelected":true,"customAltNames":[{"id":1,"altName":"Ours"}]}`), 400, 1006,
			"Attribute customAltNames is not kept by kbserver: send null (or leave it out)."},
		{"packageFreeAccess", alpha, folioPut(t, `{"isSelected":true,"packageFreeAccess":true}`), 400, 1006,
			"Attribute packageFreeAccess is not kept by kbserver: send null (or leave it out)."},
		{"unknown member", alpha, `{"isSelected":true,"isHidden":true}`, 400, 1006, ""},
		{"bad coverage", alpha, folioPut(t, `{"isSelected":true,"customCoverage":{"beginCoverage":"2003-13-01","endCoverage":""}}`), 400, 1006,
			"beginCoverage has an invalid date."},
		{"unknown proxy", alpha, folioPut(t, `{"isSelected":true,"proxy":{"id":"Nope","inherited":false}}`), 400, 1006, "Invalid Proxy ID"},
		{"token not allowed", alpha, folioPut(t, `{"isSelected":true,"packageToken":{"factName":null,"prompt":null,"helpText":null,"value":"x"}}`), 400, 1010,
			"Package does not allow token"},
		{"unknown package", v2("/lists/%d", f.nowhere), `{"isSelected":true}`, 404, 1001, "Package not found"},
		{"not an id", v2("/lists/x"), `{"isSelected":true}`, 400, 1006, "Parameter packageid must be a positive integer."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := f.write(t, http.MethodPut, tt.path, tt.body)
			if tt.message == "" {
				if res.status != tt.status || res.errors(t).Code != tt.code {
					t.Errorf("status %d, body %s; want %d, code %d", res.status, res.body, tt.status, tt.code)
				}
				return
			}
			wantError(t, res, tt.status, tt.code, tt.message)
		})
	}
	// Nothing was written.
	if diff := cmp.Diff(before, f.read(t, alpha)); diff != "" {
		t.Errorf("a refused PUT changed the package (-before +after):\n%s", diff)
	}
}
