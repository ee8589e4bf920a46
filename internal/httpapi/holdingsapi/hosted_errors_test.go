package holdingsapi_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/kbserver/kbserver/internal/httpapi/web"
)

// The error envelopes of the two wires, told apart by how a body begins.
var (
	// specArray is the spec's bare array of error models.
	specArray = regexp.MustCompile(`^\[\{"code":[0-9]+,"subcode":[0-9]+,"message":"`)
	// hostedLower is the hosted service's usual envelope.
	hostedLower = regexp.MustCompile(`^\{"errors":\[\{"code":[0-9]+,"subCode":[0-9]+,"message":"`)
	// hostedCapitalised is the envelope of its title operations' 400 and 404.
	hostedCapitalised = regexp.MustCompile(`^\{"Errors":\[\{"Code":[0-9]+,"Message":".*","SubCode":[0-9]+\}\]\}$`)
	// hostedStringCodes is the envelope of its title search's 400.
	hostedStringCodes = regexp.MustCompile(`^\{"errors":\[\{"code":"[0-9]+","message":".*","subCode":"[0-9]+"\}\]\}$`)
)

// TestHostedErrorEnvelopes answers, on each wire, an error of every kind
// the hosted service's recorded traffic shows (and of the title
// operations' kinds it does not show, which share their envelope): on the
// hosted wire each in the envelope the hosted service answers that
// operation and status in, on the spec's wire each as the spec's bare
// array, unchanged. The bodies are compared with
// testdata/errors_<wire>.golden.json; go test -run TestHostedErrorEnvelopes
// -update rewrites them.
func TestHostedErrorEnvelopes(t *testing.T) {
	const unknown = 9999999 // no vendor, package or title has this id
	type errorCase struct {
		name         string
		method, path string
		body         string // "" sends none
		key          string
		status       int
		hosted       *regexp.Regexp // the envelope on the hosted wire
	}
	cases := func(f *fixture, custom customResource) []errorCase {
		resource := p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.alphaJournals, f.testing)
		return []errorCase{
			// The title operations: capitalised.
			{"title detail, unknown title", "GET", p("/titles/%d", unknown), "", key1, 404, hostedCapitalised},
			{"title detail, id not a number", "GET", p("/titles/abc"), "", key1, 400, hostedCapitalised},
			{"resource detail, unknown vendor", "GET", p("/vendors/%d/packages/%d/titles/%d", unknown, unknown, unknown), "", key1, 404, hostedCapitalised},
			{"resource detail, title not in the package", "GET", p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.alphaJournals, f.cookbook), "", key1, 404, hostedCapitalised},
			{"resource update, contributor type", "PUT", custom.path,
				`{"isSelected":true,"contributorsList":[{"type":"some type","contributor":"Lang Z"}]}`, key1, 400, hostedCapitalised},
			{"resource update, embargo unit", "PUT", resource,
				`{"isSelected":true,"customEmbargoPeriod":{"embargoUnit":"Seconds","embargoValue":6}}`, key1, 400, hostedCapitalised},
			{"resource update, unknown title", "PUT", p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.alphaJournals, unknown),
				`{"isSelected":true}`, key1, 404, hostedCapitalised},
			{"package's titles, count out of range", "GET", p("/vendors/%d/packages/%d/titles?count=150", f.alphaVendor, f.alphaJournals), "", key1, 400, hostedCapitalised},
			{"package's titles, unknown package", "GET", p("/vendors/%d/packages/%d/titles", unknown, unknown), "", key1, 404, hostedCapitalised},

			// The title search's invalid parameters: codes as strings.
			{"title search, count out of range", "GET", p("/titles?count=150&offset=1&search=e&searchfield=titlename"), "", key1, 400, hostedStringCodes},
			{"title search, unknown search type", "GET", p("/titles?search=e&searchtype=fuzzy"), "", key1, 400, hostedStringCodes},

			// Everything else, and the title operations' other statuses:
			// the usual envelope.
			{"title detail, no key", "GET", p("/titles/%d", f.testing), "", "", 401, hostedLower},
			{"resource update, another customer's key", "PUT", resource, `{"isSelected":true}`, key2, 403, hostedLower},
			{"vendor detail, unknown vendor", "GET", p("/vendors/%d", unknown), "", key1, 404, hostedLower},
			{"package detail, unknown vendor", "GET", p("/vendors/%d/packages/%d", unknown, unknown), "", key1, 404, hostedLower},
			{"vendor search, count out of range", "GET", p("/vendors?count=200&offset=1&search=e"), "", key1, 400, hostedLower},
			{"vendor's packages, count out of range", "GET", p("/vendors/%d/packages?count=150", f.alphaVendor), "", key1, 400, hostedLower},
			{"package search, count out of range", "GET", p("/packages?count=150&search=e"), "", key1, 400, hostedLower},
			{"package update, isSelected missing", "PUT", p("/vendors/%d/packages/%d", f.alphaVendor, f.betaBooks), `{"isHidden":null}`, key1, 400, hostedLower},
			{"custom title, embargo unit", "POST", p("/vendors/%d/packages/%d/titles", f.cust1Vendor, custom.pkg),
				`{"titleName":"Another Title","pubType":"book","customEmbargoPeriod":{"embargoUnit":"Seconds","embargoValue":6}}`, key1, 400, hostedLower},
			{"custom title, unknown package", "POST", p("/vendors/%d/packages/%d/titles", unknown, unknown),
				`{"titleName":"Another Title","pubType":"book"}`, key1, 404, hostedLower},
			{"unknown route", "GET", p("/titles/%d/nothing", f.testing), "", key1, 404, hostedLower},
		}
	}

	for _, wire := range []web.Wire{web.WireHosted, web.WireSpec} {
		t.Run(string(wire), func(t *testing.T) {
			f := newFixtureWire(t, wire)
			custom := f.newCustomTitle(t, "Envelope Package", "Envelope Title")
			type answer struct {
				Case   string          `json:"case"`
				Status int             `json:"status"`
				Body   json.RawMessage `json:"body"`
			}
			var answers []answer
			for _, tt := range cases(f, custom) {
				var body *strings.Reader
				if tt.body != "" {
					body = strings.NewReader(tt.body)
				}
				var res response
				if body != nil {
					res = f.send(t, tt.method, tt.path, tt.key, body)
				} else {
					res = f.do(t, tt.method, tt.path, tt.key)
				}
				got := bytes.TrimSpace(res.body)
				want := specArray
				if wire == web.WireHosted {
					want = tt.hosted
				}
				if res.status != tt.status || !want.Match(got) {
					t.Errorf("%s: %s %s: %d %s, want %d and a body matching %s", tt.name, tt.method, tt.path, res.status, got, tt.status, want)
				}
				answers = append(answers, answer{Case: tt.name, Status: res.status, Body: got})
			}
			compareGolden(t, fmt.Sprintf("errors_%s", wire), answers)
		})
	}
}

// compareGolden compares v, written as indented JSON, with
// testdata/<name>.golden.json, or rewrites the file under -update.
func compareGolden(t *testing.T, name string, v any) {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	b = append(b, '\n')
	file := filepath.Join("testdata", name+".golden.json")
	if *update {
		if err := os.WriteFile(file, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if errors.Is(err, os.ErrNotExist) {
		t.Fatalf("%s is missing; run go test -run %s -update", file, strings.Split(t.Name(), "/")[0])
	}
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(b)); diff != "" {
		t.Errorf("%s differs (-want +got):\n%s", file, diff)
	}
}
