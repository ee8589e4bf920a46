package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The FOLIO client contract (../shared/reference/folio-client-contract.md)
// as data: for each response model FOLIO decodes, the keys it names, their
// JSON types, which ones FOLIO needs, and whether the model refuses keys it
// does not know. Our own representation, written from the contract's
// tables; the contract file itself is not read at test time.
//
// Rules where the contract leaves room:
//   - A key's type is the one the contract's table names; the decoder's
//     coercions (a number read into a string field, a numeric string into
//     an int) are not relied on.
//   - null and absence are accepted for every key that is not required.
//   - Beyond the keys the contract marks required, the ids FOLIO reads
//     back from a create (packageId, titleId, transactionId) and the status
//     words it branches on are required too: without them the next request
//     FOLIO makes is wrong.
//   - Models marked NOT ignoreUnknown (CustomLabel, TokenInfo,
//     DeltaReport) refuse extra keys; every other model ignores them.

// cType is what the contract expects of a JSON value.
type cType struct {
	kinds    kinds // the JSON types allowed (null is always allowed); 0: any
	fields   []cField
	strict   bool // the model does not ignore unknown keys
	elem     *cType
	minItems int
	enum     []string       // the string values allowed
	foldEnum bool           // enum compared case-insensitively
	pattern  *regexp.Regexp // a string value must match
}

// cField is one key of an object model.
type cField struct {
	name string
	t    *cType
	req  bool // missing or null fails FOLIO
}

// Builders of contract types.
var (
	cStr  = &cType{kinds: kString}
	cInt  = &cType{kinds: kNumber}
	cBool = &cType{kinds: kBool}
	cAny  = &cType{}
)

func opt(name string, t *cType) cField { return cField{name: name, t: t} }
func req(name string, t *cType) cField { return cField{name: name, t: t, req: true} }
func cObj(fields ...cField) *cType     { return &cType{kinds: kObject, fields: fields} }
func cArr(elem *cType) *cType          { return &cType{kinds: kArray, elem: elem} }

// cStrict is an object model that refuses unknown keys.
func cStrict(fields ...cField) *cType {
	return &cType{kinds: kObject, fields: fields, strict: true}
}

// cWords is a string that must be one of words, exactly.
func cWords(words ...string) *cType { return &cType{kinds: kString, enum: words} }

// cWordsFold is a string that must be one of words in any case.
func cWordsFold(words ...string) *cType {
	return &cType{kinds: kString, enum: words, foldEnum: true}
}

// cMatch is a string that must match the expression.
func cMatch(expr string) *cType { return &cType{kinds: kString, pattern: regexp.MustCompile(expr)} }

// optAll lists optional keys of one type.
func optAll(t *cType, names ...string) []cField {
	out := make([]cField, len(names))
	for i, n := range names {
		out[i] = opt(n, t)
	}
	return out
}

// fields joins groups of fields.
func fields(groups ...[]cField) []cField { return slices.Concat(groups...) }

// Patterns the contract gives for strings.
var (
	cDate    = cMatch(`^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?$`) // yyyy-MM-dd HH:mm:ss[.fff], read as UTC
	cNumeric = cMatch(`^\d+$`)                                         // a count or an id FOLIO parses as a number
)

// The response models of the contract (its section 2).
var (
	cTokenInfo = cStrict(opt("factName", cStr), opt("prompt", cStr), opt("helpText", cStr), opt("value", cStr))
	cProxyRef  = cObj(opt("id", cStr), opt("inherited", cBool))
	cLabel     = cStrict(opt("id", cInt), opt("displayLabel", cStr), opt("displayOnFullTextFinder", cBool), opt("displayOnPublicationFinder", cBool))
	cRoot      = cObj(req("proxy", cProxyRef), req("vendorId", cStr), req("labels", cArr(cLabel)))
	cProxy     = cObj(req("id", cStr), opt("name", cStr), opt("urlMask", cStr))

	cVendor = cObj(fields(
		optAll(cInt, "vendorId", "packagesTotal", "packagesSelected"),
		[]cField{opt("vendorName", cStr), opt("isCustomer", cBool), opt("vendorToken", cStr)})...)
	cVendors    = cObj(req("vendors", cArr(cVendor)), opt("totalResults", cInt))
	cVendorByID = cObj(fields(
		optAll(cInt, "vendorId", "packagesTotal", "packagesSelected"),
		// The hosted service's vendor proxy carries proxiedUrl too (the
		// service's answers in FOLIO's own tests; the recording predates
		// it): FOLIO ignores it.
		[]cField{opt("vendorName", cStr), opt("isCustomer", cBool),
			req("proxy", cObj(opt("id", cStr), opt("inherited", cBool), opt("proxiedUrl", cStr))), opt("vendorToken", cTokenInfo)})...)

	cCoverage    = cObj(opt("beginCoverage", cStr), opt("endCoverage", cStr))
	cAltNames    = cArr(&cType{kinds: kObject | kString, fields: []cField{opt("id", cInt), opt("altName", cStr)}})
	cPackageData = cObj(fields(
		[]cField{
			opt("listId", cInt), opt("packageName", cStr), opt("vendorId", cInt), opt("vendorName", cStr),
			req("isCustom", cBool),
			req("contentType", cWordsFold("aggregatedfulltext", "abstractandindex", "ebook", "ejournal", "print", "unknown",
				"onlinereference", "streamingmedia", "mixedcontent")),
			req("customCoverage", cCoverage),
			req("visibility", cArr(cObj(opt("category", cWordsFold("PF", "FTF", "MARC")), opt("hidden", cBool), opt("reason", cStr)))),
			opt("managedAltNames", cAltNames), opt("customAltNames", cAltNames),
			opt("subjectAssociations", cArr(cObj(opt("id", cInt), opt("schemaId", cInt), opt("name", cStr), opt("isCustom", cBool),
				opt("explicitAssignment", cBool), opt("subjectHierarchy", cStr)))),
			opt("proxy", cProxyRef), opt("packageToken", cTokenInfo),
		},
		optAll(cInt, "titleCount", "selectedCount"),
		// The operator flags in the spec's words (the contract's model
		// names the branded ones).
		optAll(cBool, "isSelected", "isTokenNeeded", "isOrderedThroughOperator", "packageFreeAccess", "availableForSelection",
			"isPrimaryPackage", "allowOperatorToAddTitles", "isSmartLinksPlusEligible"),
		optAll(cStr, "customDisplayName", "managedDescription", "customDescription", "packageType", "url", "proxiedUrl", "consortia"))...)
	cFacets = cObj(
		opt("packages", cArr(cObj(opt("id", cInt), opt("name", cStr), opt("count", cInt)))),
		opt("subjects", cArr(cObj(opt("id", cInt), opt("parentId", cInt), opt("schema", cStr), opt("name", cStr), opt("count", cInt)))))
	cPackages = cObj(req("packagesList", cArr(cPackageData)), opt("totalResults", cInt), opt("facets", cFacets))
	// On the hosted wire the operator flags come under the names FOLIO
	// reads too (web.Wire.HostedNames).
	cPackageDataHosted = withFields(cPackageData, req("allowEbscoToAddTitles", cBool), req("isOrderedThroughEbsco", cBool))
	cPackagesHosted    = cObj(req("packagesList", cArr(cPackageDataHosted)), opt("totalResults", cInt), opt("facets", cFacets))

	cEmbargo  = cObj(opt("embargoUnit", cStr), opt("embargoValue", cInt))
	cResource = cObj(fields(
		optAll(cInt, "titleId", "packageId", "vendorId", "locationId"),
		optAll(cStr, "packageName", "vendorName", "packageType", "coverageStatement", "url",
			"userDefinedField1", "userDefinedField2", "userDefinedField3", "userDefinedField4", "userDefinedField5"),
		optAll(cBool, "isPackageCustom", "isSelected", "isTokenNeeded"),
		[]cField{
			opt("visibilityData", cObj(opt("isHidden", cBool), req("reason", cStr))),
			opt("managedCoverageList", cArr(cCoverage)), req("customCoverageList", cArr(cCoverage)),
			opt("managedEmbargoPeriod", cEmbargo), opt("customEmbargoPeriod", cEmbargo),
			opt("proxy", cObj(opt("id", cStr), opt("inherited", cBool), opt("proxiedUrl", cStr))),
		})...)
	cPubType = cWordsFold("audiobook", "book", "bookseries", "database", "journal", "newsletter", "newspaper", "proceedings",
		"report", "streamingaudio", "streamingvideo", "thesisdissertation", "website", "unspecified")
)

// cTitle is the Title model; minResources is the least number of
// resources FOLIO accepts (1 for a resource GET).
func cTitle(minResources int) *cType {
	resources := cArr(cResource)
	resources.minItems = minResources
	return cObj(fields(
		[]cField{opt("titleId", cInt), opt("isPeerReviewed", cBool), opt("isTitleCustom", cBool), req("pubType", cPubType)},
		optAll(cStr, "titleName", "publisherName", "description", "edition"),
		[]cField{
			opt("contributorsList", cArr(cObj(opt("type", cStr), opt("contributor", cStr)))),
			opt("identifiersList", cArr(cObj(opt("id", cStr), opt("subtype", cInt), opt("type", cInt)))),
			opt("subjectsList", cArr(cObj(opt("type", cStr), opt("subject", cStr)))),
			opt("alternateTitleList", cArr(cObj(opt("alternateTitle", cStr), opt("titleType", cStr)))),
			req("customerResourcesList", resources),
		})...)
}

var (
	cTitles = cObj(req("titles", cArr(cTitle(0))), opt("totalResults", cInt), opt("facets", cFacets))

	cHoldingsStatus = cObj(req("status", cWordsFold("Completed", "In Progress", "Failed", "None")), opt("created", cDate), req("totalCount", cInt))

	holdingStrings = []string{"publication_title", "print_identifier", "online_identifier", "date_first_issue_online",
		"num_first_vol_online", "num_first_issue_online", "date_last_issue_online", "num_last_vol_online", "num_last_issue_online",
		"title_url", "embargo_info", "coverage_depth", "notes", "publisher_name", "publication_type",
		"date_monograph_published_print", "date_monograph_published_online", "monograph_volume", "monograph_edition",
		"first_editor", "parent_publication_title_id", "preceding_publication_title_id", "access_type", "package_name",
		"vendor_name", "resource_type"}
	// title_id and package_id are strings FOLIO parses as integers.
	holdingFields = fields(optAll(cStr, holdingStrings...), []cField{opt("title_id", cNumeric), opt("package_id", cNumeric), opt("vendor_id", cInt)})
	cHoldings     = cObj(opt("offset", cInt), opt("format", cStr), req("holdings", cArr(cObj(holdingFields...))))

	cTransactionID  = cObj(req("transactionId", cStr))
	cTransactionIDs = cObj(req("transactionIds", cArr(cObj(req("transactionId", cStr), opt("status", cStr), req("creationDate", cDate),
		opt("expirationDate", cStr), opt("packageIds", cStr), opt("resourceTypeIds", cStr)))))
	cTransactionStatus = cObj(req("status", cWords("In Progress", "Complete", "Failed")), opt("creationDate", cDate),
		opt("expirationDate", cStr), opt("packageIds", cStr), opt("resourceTypeIds", cStr), opt("totalCount", cNumeric))
	cDeltaStatus = cObj(req("status", cWordsFold("COMPLETED", "IN_PROGRESS", "FAILED")), req("totalCount", cNumeric),
		opt("currentSnapshotId", cStr), opt("previousSnapshotId", cStr), opt("packageIds", cStr), opt("resourceTypeIds", cStr))
	cDeltaReport = cStrict(opt("count", cInt), opt("format", cStr), opt("offset", cInt), opt("packageIds", cStr),
		opt("resourceTypeIds", cStr), opt("totalCount", cInt),
		opt("holdings", cArr(cObj(fields(holdingFields, []cField{opt("first_author", cStr), opt("package_content_type", cStr),
			req("change_type", cWords("HOLDING_ADDED", "HOLDING_UPDATED", "HOLDING_DELETED",
				"HOLDING_UPDATED_ADDED_COVERAGE", "HOLDING_UPDATED_DELETED_COVERAGE"))})...))))
)

// cBody is what the contract expects of a response body.
type cBody struct {
	none bool   // no body (a PUT's 204)
	text bool   // bare text, not JSON (the delta id)
	any  bool   // anything: FOLIO reads it as text and ignores it
	json *cType // a JSON value of this type
}

// checkContractBody returns how body differs from want.
func checkContractBody(body []byte, want cBody) []string {
	b := bytes.TrimSpace(body)
	switch {
	case want.any:
		return nil
	case want.none:
		if len(b) != 0 {
			return []string{fmt.Sprintf("(body): %.60q, want no body", b)}
		}
		return nil
	case want.text:
		if len(b) == 0 || strings.ContainsRune("{[\"", rune(b[0])) {
			return []string{fmt.Sprintf("(body): %.60q, want a bare text id (not JSON)", b)}
		}
		return nil
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return []string{fmt.Sprintf("(body): %.60q is not JSON", b)}
	}
	if v == nil {
		return []string{"(body): null"}
	}
	var diffs []string
	checkContract("", v, want.json, &diffs)
	slices.Sort(diffs)
	return slices.Compact(diffs)
}

// checkContract adds how v, at path, differs from t to diffs.
func checkContract(path string, v any, t *cType, diffs *[]string) {
	if v == nil {
		return
	}
	at := path
	if at == "" {
		at = "(body)"
	}
	k := valueShape(v, shapeOptions{}).kinds
	if t.kinds != 0 && k&t.kinds == 0 {
		*diffs = append(*diffs, fmt.Sprintf("%s: %s, want %s", at, k, t.kinds))
		return
	}
	switch v := v.(type) {
	case map[string]any:
		for _, f := range t.fields {
			x, ok := v[f.name]
			switch {
			case !ok && f.req:
				*diffs = append(*diffs, join(path, f.name)+": missing (required)")
			case ok && x == nil && f.req:
				*diffs = append(*diffs, join(path, f.name)+": null (required)")
			case ok:
				checkContract(join(path, f.name), x, f.t, diffs)
			}
		}
		if t.strict {
			for key := range v {
				if !slices.ContainsFunc(t.fields, func(f cField) bool { return f.name == key }) {
					*diffs = append(*diffs, join(path, key)+": extra (the model does not ignore unknown keys)")
				}
			}
		}
	case []any:
		if len(v) < t.minItems {
			*diffs = append(*diffs, fmt.Sprintf("%s: %d elements, want at least %d", at, len(v), t.minItems))
		}
		if t.elem != nil {
			for _, x := range v {
				checkContract(path+"[]", x, t.elem, diffs)
			}
		}
	case string:
		if t.enum != nil && !slices.ContainsFunc(t.enum, func(w string) bool { return w == v || (t.foldEnum && strings.EqualFold(w, v)) }) {
			*diffs = append(*diffs, fmt.Sprintf("%s: %q, want one of %q", at, v, t.enum))
		}
		if t.pattern != nil && !t.pattern.MatchString(v) {
			*diffs = append(*diffs, fmt.Sprintf("%s: %q does not match %s", at, v, t.pattern))
		}
	}
}

func TestCheckContract(t *testing.T) {
	model := cObj(req("id", cStr), opt("count", cInt), opt("token", cTokenInfo),
		opt("items", cArr(cObj(req("change_type", cWords("HOLDING_ADDED", "HOLDING_DELETED"))))),
		opt("status", cWordsFold("Completed", "None")), opt("created", cDate))
	tests := []struct {
		name  string
		body  string
		want  cBody
		diffs []string
	}{
		{"all there", `{"id":"1","count":2,"token":{"factName":"f","value":null},"items":[{"change_type":"HOLDING_ADDED"}],"status":"completed","created":"2024-01-02 03:04:05.207"}`,
			cBody{json: model}, nil},
		{"extra keys ignored", `{"id":"1","more":[1]}`, cBody{json: model}, nil},
		{"optional key null or absent", `{"id":"1","count":null}`, cBody{json: model}, nil},
		{"required key missing", `{"count":2}`, cBody{json: model}, []string{"id: missing (required)"}},
		{"required key null", `{"id":null}`, cBody{json: model}, []string{"id: null (required)"}},
		{"wrong type, no coercion", `{"id":1,"count":"2"}`, cBody{json: model}, []string{"count: string, want number", "id: number, want string"}},
		{"strict model refuses extra keys", `{"id":"1","token":{"value":"v","extra":1}}`, cBody{json: model},
			[]string{"token.extra: extra (the model does not ignore unknown keys)"}},
		{"word outside the enum", `{"id":"1","items":[{"change_type":"holding_added"},{}]}`, cBody{json: model},
			[]string{`items[].change_type: "holding_added", want one of ["HOLDING_ADDED" "HOLDING_DELETED"]`, "items[].change_type: missing (required)"}},
		{"date with a T", `{"id":"1","created":"2024-01-02T03:04:05Z"}`, cBody{json: model},
			[]string{`created: "2024-01-02T03:04:05Z" does not match ^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?$`}},
		{"array for object", `[]`, cBody{json: model}, []string{"(body): array, want object"}},
		{"too few elements", `{"titles":[]}`, cBody{json: cObj(opt("titles", &cType{kinds: kArray, minItems: 1}))}, []string{"titles: 0 elements, want at least 1"}},
		{"no body", ``, cBody{none: true}, nil},
		{"a body for none", `{}`, cBody{none: true}, []string{`(body): "{}", want no body`}},
		{"bare text", "4f0c-77\n", cBody{text: true}, nil},
		{"JSON for text", `"4f0c-77"`, cBody{text: true}, []string{`(body): "\"4f0c-77\"", want a bare text id (not JSON)`}},
		{"not JSON", `oops`, cBody{json: model}, []string{`(body): "oops" is not JSON`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := checkContractBody([]byte(tt.body), tt.want); !slices.Equal(got, tt.diffs) {
				t.Errorf("check %s:\n got %q\nwant %q", tt.body, got, tt.diffs)
			}
		})
	}
}

// withFields returns a copy of the object model t with more fields.
func withFields(t *cType, more ...cField) *cType {
	c := *t
	c.fields = slices.Concat(t.fields, more)
	return &c
}
