package httpapi_test

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/kbserver/kbserver/internal/httpapi/web"
)

// The replay test: one request of every kind the hosted service's
// recorded traffic holds, sent to our server in each wire, its answer's
// shape compared with the recorded answer's. On the hosted wire every kind
// must match, an error body exactly (the recorded envelope's member names
// in their case and its codes as numbers or strings); on the spec's wire
// only the two documented conflicts may differ, and exactly so: an error
// body is the spec's bare array [{code, subcode, message}] instead of the
// recorded envelope, and GET proxies is {"proxies":[…]} instead of a bare
// array.

// wires are the wires the replay runs in.
var wires = []web.Wire{web.WireHosted, web.WireSpec}

// brandedKeys are the recording's branded member names and the spec's
// words our server writes for them.
var brandedKeys = map[string]string{
	"allowEbscoToAddTitles": "allowOperatorToAddTitles",
	"isOrderedThroughEbsco": "isOrderedThroughOperator",
}

// Keys of the contract's models (section 2) that an answer may carry
// beyond what the 2018 recording shows: the hosted service has added them
// since, and FOLIO reads them. An extra key is no difference when the
// contract's model of its object names it; every other extra key is one.
var (
	titleModelKeys = []string{"titleId", "titleName", "publisherName", "description", "edition", "isPeerReviewed", "isTitleCustom",
		"pubType", "contributorsList", "identifiersList", "subjectsList", "alternateTitleList", "customerResourcesList"}
	resourceModelKeys = []string{"titleId", "packageId", "vendorId", "locationId", "packageName", "vendorName", "packageType",
		"coverageStatement", "url", "isPackageCustom", "isSelected", "isTokenNeeded", "visibilityData", "managedCoverageList",
		"customCoverageList", "managedEmbargoPeriod", "customEmbargoPeriod", "proxy", "userDefinedField1", "userDefinedField2",
		"userDefinedField3", "userDefinedField4", "userDefinedField5"}
	resourceProxyKeys = []string{"id", "inherited", "proxiedUrl"}
)

// titleModels returns the contract's title models under prefix ("" for a
// title body, "titles[]" for a list's items), by the path of the object.
func titleModels(prefix string) map[string][]string {
	return map[string][]string{
		prefix:                                  titleModelKeys,
		join(prefix, "customerResourcesList[]"): resourceModelKeys,
		join(prefix, "customerResourcesList[].proxy"): resourceProxyKeys,
	}
}

// recordedCase says how one kind of the recording is replayed.
type recordedCase struct {
	kind     string // as exchange.kind names it
	exchange string // the recording whose first exchange of the kind is replayed
	why      string // why that one
	path     func(f *replayFixture) string
	query    string                                         // replaces the recorded query when not ""
	body     func(f *replayFixture, recorded string) string // nil: the recorded body
	models   map[string][]string                            // object path → keys the contract's model names (extra keys allowed)
}

// The id of no object: the recording's 1 and 9999999 stand for unknown ids.
const unknownID = 9999999

// recordedCases replays each of the recording's 30 kinds, in the order
// they first occur in it.
var recordedCases = []recordedCase{
	{kind: "GET /rm/rmaccounts/{custid}/ 200", exchange: "get-custom-labels-success.yml",
		why:  "the root with labels set, as FOLIO reads it",
		path: func(f *replayFixture) string { return f.path("/") },
		models: map[string][]string{
			// Contract 2.1: FOLIO needs vendorId; it names ftfTokens
			// (and ignores it), as the spec does.
			"":      {"proxy", "vendorId", "labels", "ftfTokens"},
			"proxy": {"id", "inherited"},
		}},
	{kind: "PUT /rm/rmaccounts/{custid}/ 204", exchange: "put-root-proxy-success.yml",
		why:  "a root proxy change naming a proxy the customer has (EZProxy)",
		path: func(f *replayFixture) string { return f.path("/") }},
	{kind: "GET /rm/rmaccounts/{custid}/vendors/{id}/packages/{id} 200", exchange: "get-packages-success-with-package-token.yml",
		why:  "the one variant whose packageToken is an object, so the token's keys are compared too",
		path: func(f *replayFixture) string { return f.path("/vendors/%d/packages/%d", f.tokenVendor, f.tokenPackage) }},
	{kind: "PUT /rm/rmaccounts/{custid}/vendors/{id}/packages/{id} 204", exchange: "put-packages-isselected-update-proxy.yml",
		why: "a managed package's combined update: proxy (TestingFolio), coverage, the branded allow-add flag, a null token",
		path: func(f *replayFixture) string {
			return f.path("/vendors/%d/packages/%d", f.plainVendor, f.plainJournals)
		}},
	{kind: "GET /rm/rmaccounts/{custid}/vendors/{id}/packages/{id}/titles/{id} 200", exchange: "get-resources-success.yml",
		why: "a managed resource the customer customised (coverage, embargo, statement, proxy): the fullest recorded resource",
		path: func(f *replayFixture) string {
			return f.path("/vendors/%d/packages/%d/titles/%d", f.plainVendor, f.plainJournals, f.replayJournal)
		},
		models: titleModels("")},
	{kind: "PUT /rm/rmaccounts/{custid}/vendors/{id}/packages/{id}/titles/{id} 204", exchange: "put-resources-customembargo-update.yml",
		why: "a managed resource's full ResourcePut (every key, nulls kept) as FOLIO writes it",
		path: func(f *replayFixture) string {
			return f.path("/vendors/%d/packages/%d/titles/%d", f.plainVendor, f.plainJournals, f.replayJournal)
		}},
	{kind: "GET /rm/rmaccounts/{custid}/vendors/{id}/packages/{id} 404", exchange: "get-packages-not-found.yml",
		why:  "unknown vendor and package: needs no state",
		path: func(f *replayFixture) string { return f.path("/vendors/%d/packages/%d", unknownID, unknownID) }},
	{kind: "GET /rm/rmaccounts/{custid}/vendors/{id}/packages/{id}/titles/{id} 404", exchange: "get-resources-not-found.yml",
		why: "unknown vendor, package and title (the recording's capitalised envelope)",
		path: func(f *replayFixture) string {
			return f.path("/vendors/%d/packages/%d/titles/%d", unknownID, unknownID, unknownID)
		}},
	{kind: "GET /rm/rmaccounts/{custid}/vendors 200", exchange: "search-providers.yml",
		why:   "the one list whose items carry vendorToken as a string; the search word is ours so that both vendors are found",
		path:  func(f *replayFixture) string { return f.path("/vendors") },
		query: "count=25&offset=1&orderby=relevance&search=vendor"},
	{kind: "GET /rm/rmaccounts/{custid}/vendors/{id}/packages 200", exchange: "get-providers-include-packages-success.yml",
		why:  "a vendor's packages with FOLIO's query (empty search, sort by name)",
		path: func(f *replayFixture) string { return f.path("/vendors/%d/packages", f.plainVendor) }},
	{kind: "GET /rm/rmaccounts/{custid}/vendors/{id}/packages/{id}/titles 200", exchange: "get-custom-package-related-resources.yml",
		why: "a custom package's titles: the fullest recorded page of this kind",
		path: func(f *replayFixture) string {
			return f.path("/vendors/%d/packages/%d/titles", f.customVendor, f.customPackage)
		},
		models: titleModels("titles[]")},
	{kind: "GET /rm/rmaccounts/{custid}/titles/{id} 200", exchange: "get-resources-title.yml",
		why:    "the title of the customised managed resource: the fullest recorded title",
		path:   func(f *replayFixture) string { return f.path("/titles/%d", f.replayJournal) },
		models: titleModels("")},
	{kind: "GET /rm/rmaccounts/{custid}/vendors/{id} 200", exchange: "get-providers-token.yml",
		why:  "a vendor with a token: vendorToken is an object, so its keys are compared",
		path: func(f *replayFixture) string { return f.path("/vendors/%d", f.tokenVendor) },
		// The hosted service's vendor proxy carries proxiedUrl since the
		// recording (the service's answers in FOLIO's own tests).
		models: map[string][]string{"proxy": resourceProxyKeys}},
	{kind: "GET /rm/rmaccounts/{custid}/vendors/{id} 404", exchange: "get-provider-not-found.yml",
		why:  "unknown vendor",
		path: func(f *replayFixture) string { return f.path("/vendors/%d", unknownID) }},
	{kind: "GET /rm/rmaccounts/{custid}/proxies 200", exchange: "get-root-proxies-success.yml",
		why:  "the only recording of the kind's body; our proxies have the recorded ids",
		path: func(f *replayFixture) string { return f.path("/proxies") }},
	{kind: "GET /rm/rmaccounts/{custid}/titles/{id} 404", exchange: "get-titles-not-found.yml",
		why:  "unknown title",
		path: func(f *replayFixture) string { return f.path("/titles/%d", unknownID) }},
	{kind: "POST /rm/rmaccounts/{custid}/vendors/{id}/packages/ 200", exchange: "post-custom-package.yml",
		why:  "a custom package with content type and coverage, with the trailing slash clients send",
		path: func(f *replayFixture) string { return f.path("/vendors/%d/packages/", f.customVendor) }},
	{kind: "POST /rm/rmaccounts/{custid}/vendors/{id}/packages/ 400", exchange: "post-custom-package-taken-name.yml",
		why:  "a taken name: the recorded name is replaced by our custom package's",
		path: func(f *replayFixture) string { return f.path("/vendors/%d/packages/", f.customVendor) },
		body: func(f *replayFixture, rec string) string {
			return strings.Replace(rec, `"VCR Package 1.2"`, `"Replay Custom Package"`, 1)
		}},
	{kind: "POST /rm/rmaccounts/{custid}/vendors/{id}/packages/{id}/titles 200", exchange: "post-custom-title-all-fields.yml",
		why: "a custom title with every field FOLIO writes (contributors, identifiers)",
		path: func(f *replayFixture) string {
			return f.path("/vendors/%d/packages/%d/titles", f.customVendor, f.customPackage)
		}},
	{kind: "POST /rm/rmaccounts/{custid}/vendors/{id}/packages/{id}/titles 400", exchange: "post-custom-resource-invalid-embargo.yml",
		why: "a validation error (embargo unit) that needs no state, unlike the taken-name variants",
		path: func(f *replayFixture) string {
			return f.path("/vendors/%d/packages/%d/titles", f.customVendor, f.customPackage)
		}},
	{kind: "POST /rm/rmaccounts/{custid}/vendors/{id}/packages/{id}/titles 404", exchange: "post-custom-title-invalid-packageId.yml",
		why:  "unknown vendor and package",
		path: func(f *replayFixture) string { return f.path("/vendors/%d/packages/%d/titles", unknownID, unknownID) }},
	{kind: "PUT /rm/rmaccounts/{custid}/vendors/{id}/packages/{id}/titles/{id} 400", exchange: "put-custom-resource-invalid-contributors.yml",
		why: "the only recording of the kind: a custom title's update with a contributor type that is no type",
		path: func(f *replayFixture) string {
			return f.path("/vendors/%d/packages/%d/titles/%d", f.customVendor, f.customPackage, f.customTitle)
		}},
	{kind: "PUT /rm/rmaccounts/{custid}/vendors/{id}/packages/{id} 400", exchange: "put-package-managed-content-type.yml",
		why:  "the only recording of the kind: a managed package's update without isSelected",
		path: func(f *replayFixture) string { return f.path("/vendors/%d/packages/%d", f.plainVendor, f.plainEbook) }},
	{kind: "PUT /rm/rmaccounts/{custid}/vendors/{id} 400", exchange: "put-providers-isnotallowed-token.yml",
		why:  "the only recording of the kind: a token for a vendor that has none",
		path: func(f *replayFixture) string { return f.path("/vendors/%d", f.plainVendor) }},
	{kind: "PUT /rm/rmaccounts/{custid}/vendors/{id} 204", exchange: "put-providers-token.yml",
		why:  "a token value and a proxy for the vendor with a token, the token object sent whole as clients do",
		path: func(f *replayFixture) string { return f.path("/vendors/%d", f.tokenVendor) }},
	{kind: "GET /rm/rmaccounts/{custid}/packages 200", exchange: "search-packages.yml",
		why:   "a package search; the search word is ours so that it finds our packages",
		path:  func(f *replayFixture) string { return f.path("/packages") },
		query: "contenttype=all&count=25&offset=1&orderby=relevance&search=plain&selection=all"},
	{kind: "GET /rm/rmaccounts/{custid}/vendors/{id}/packages 400", exchange: "search-providers-related-packages-count-out-of-range.yml",
		why:  "the only recording of the kind: count 150",
		path: func(f *replayFixture) string { return f.path("/vendors/%d/packages", f.plainVendor) }},
	{kind: "GET /rm/rmaccounts/{custid}/vendors 400", exchange: "search-providers-specify-count-out-of-range.yml",
		why:  "the only recording of the kind: count 200",
		path: func(f *replayFixture) string { return f.path("/vendors") }},
	{kind: "GET /rm/rmaccounts/{custid}/titles 200", exchange: "search-titles-filter-subject.yml",
		why:    "the fullest recorded title search (by subject); our journals have the recorded subject word",
		path:   func(f *replayFixture) string { return f.path("/titles") },
		models: titleModels("titles[]")},
	{kind: "GET /rm/rmaccounts/{custid}/titles 400", exchange: "search-titles-specify-count-out-of-range.yml",
		why:  "the only recording of the kind: count 150 (its codes are numeric strings)",
		path: func(f *replayFixture) string { return f.path("/titles") }},
}

// specErrorShape is the spec's error body exactly (member names in their
// case, numbers as numbers): the bare array. On the hosted wire an error
// body must have the recorded body's shape exactly: the recordings show
// three envelopes (member names capitalised or not, codes as numbers or
// as strings), by operation.
var specErrorShape = bodyShape([]byte(`[{"code":1,"subcode":0,"message":"m"}]`), shapeOptions{})

func TestReplayRecordedTraffic(t *testing.T) {
	exs := readRecording(t)
	order, byKind := recordingKinds(exs)
	if len(order) != recordedKinds {
		t.Fatalf("the recording holds %d kinds of exchange, want %d: the file changed; review recordedCases\nkinds: %s",
			len(order), recordedKinds, strings.Join(order, "\n  "))
	}
	cases := map[string]recordedCase{}
	for _, c := range recordedCases {
		if _, ok := byKind[c.kind]; !ok {
			t.Errorf("case %q: no such kind in the recording", c.kind)
		}
		cases[c.kind] = c
	}
	for _, k := range order {
		if _, ok := cases[k]; !ok {
			t.Errorf("kind %q has no replay case", k)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
	for _, wire := range wires {
		t.Run(string(wire), func(t *testing.T) {
			f := newReplayFixture(t, wire)
			var failed []string
			for _, k := range order {
				c := cases[k]
				i := slices.IndexFunc(byKind[k], func(e exchange) bool { return e.name == c.exchange })
				if i < 0 {
					t.Errorf("%s: the recording has no exchange %s of this kind", k, c.exchange)
					continue
				}
				if line := replayOne(t, f, c, byKind[k][i]); line != "" {
					failed = append(failed, line)
				}
			}
			if len(failed) > 0 {
				t.Errorf("%d of %d kinds differ on the %s wire:\n%s", len(failed), len(order), wire, strings.Join(failed, "\n"))
			}
		})
	}
}

// replayOne sends the exchange's request as c says and returns "" when
// the answer has the shape the wire calls for, or else one line naming the
// kind and every difference.
func replayOne(t *testing.T, f *replayFixture, c recordedCase, e exchange) string {
	t.Helper()
	u := c.path(f)
	q := e.query
	if c.query != "" {
		q = c.query
	}
	if q != "" {
		u += "?" + q
	}
	body := e.reqBody
	if c.body != nil {
		body = c.body(f, body)
	}
	status, got := f.send(t, e.method, u, body)

	isError := e.status >= 400
	opt := shapeOptions{errorBody: isError}
	recorded := renameKeys(bodyShape([]byte(e.body), opt), brandedKeys)
	want := recorded
	if f.wire == web.WireSpec {
		switch {
		case isError: // conflict (a): the bare array of the envelope's errors
			want = recorded.keys["errors"]
			if want == nil {
				return fmt.Sprintf("%s: the recorded error body has no errors member", c.kind)
			}
		case strings.HasSuffix(e.path, "/proxies"): // conflict (b): the list wrapped
			want = &shape{kinds: kObject, keys: map[string]*shape{"proxies": recorded}}
		}
	}

	var diffs []string
	if status != e.status {
		diffs = append(diffs, fmt.Sprintf("status %d, want %d", status, e.status))
	}
	gotShape := bodyShape(got, opt)
	for _, d := range compareShapes(gotShape, want) {
		if strings.HasSuffix(d.what, "extra") && modelNames(c.models, d.path) {
			continue
		}
		diffs = append(diffs, d.String())
	}
	if isError && status == e.status {
		exact := bodyShape([]byte(e.body), shapeOptions{})
		if f.wire == web.WireSpec {
			exact = specErrorShape
			// The spec's wire must not answer the hosted envelope.
			if len(compareShapes(gotShape, recorded)) == 0 {
				diffs = append(diffs, "answers the hosted envelope on the spec's wire")
			}
		}
		for _, d := range compareShapes(bodyShape(got, shapeOptions{}), exact) {
			diffs = append(diffs, "exact error shape: "+d.String())
		}
	}
	if thin := uncompared("", gotShape, want); len(thin) > 0 {
		t.Logf("%s: empty in our answer, so not compared: %s", c.kind, strings.Join(thin, ", "))
	}
	if len(diffs) == 0 {
		return ""
	}
	return fmt.Sprintf("%s (%s → %s %s): %s\n    answer: %.300s", c.kind, c.exchange, e.method, u, strings.Join(diffs, "; "), bytes.TrimSpace(got))
}

// modelNames reports whether the contract's model of the object holding
// the member at path names that member.
func modelNames(models map[string][]string, path string) bool {
	parent, key := "", path
	if i := strings.LastIndex(path, "."); i >= 0 {
		parent, key = path[:i], path[i+1:]
	}
	return slices.Contains(models[parent], key)
}
