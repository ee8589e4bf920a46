package holdingsapi_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/kbserver/kbserver/internal/kb"
)

// writeRoute is one write route with a valid body, for the tests that
// send every route the same malformed requests.
type writeRoute struct {
	method, path, body string
	member             string // a boolean or string member of the body, for the wrong-type check
	kind               string // its JSON kind, "a boolean" or "a string"
}

func writeRoutes(f *fixture) []writeRoute {
	return []writeRoute{
		{http.MethodPut, p("/"), `{"proxy":{"id":"<n>"}}`, "labels", "an array"},
		{http.MethodPut, p(""), `{"proxy":{"id":"<n>"}}`, "labels", "an array"},
		{http.MethodPut, p("/vendors/%d", f.alphaVendor), `{"proxy":{"id":"<n>","inherited":false}}`, "proxy", "an object"},
		{http.MethodPut, p("/vendors/%d/packages/%d", f.alphaVendor, f.alphaJournals), `{"isSelected":true}`, "isSelected", "a boolean"},
		{http.MethodPost, p("/vendors/%d/packages", f.cust1Vendor), `{"packageName":"Valid Package"}`, "packageName", "a string"},
		{http.MethodPut, p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.alphaJournals, f.testing), `{"isSelected":true}`, "isSelected", "a boolean"},
	}
}

// changeCount returns the number of changes recorded for cust1.
func (f *fixture) changeCount(t *testing.T) int {
	t.Helper()
	cs, err := f.store.Changes(t.Context(), kb.ChangeQuery{CustomerID: "cust1", Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return len(cs)
}

// TestWriteValidation sends every write route the malformed requests of
// rule 7 of the issue: each is answered 4xx with a message naming what is
// wrong, and writes nothing.
func TestWriteValidation(t *testing.T) {
	f := newFixture(t)
	big := `{"userDefinedField1":"` + strings.Repeat("x", 1<<20) + `","isSelected":true}`
	for _, rt := range writeRoutes(f) {
		t.Run(rt.method+" "+rt.path, func(t *testing.T) {
			before := f.changeCount(t)
			tests := []struct {
				name, body   string
				status, code int
				message      string // exact, or a prefix ending in "…"
			}{
				{"unknown member", strings.Replace(rt.body, "{", `{"colour":"red",`, 1), 400, 1006, "Attribute colour is not allowed."},
				{"member in another case", strings.Replace(rt.body, "{", `{"ISSELECTED":true,`, 1), 400, 1006, "Attribute ISSELECTED is not allowed…"},
				{"wrong type", `{"` + rt.member + `":12}`, 400, 1006, "Attribute " + rt.member + " must be " + rt.kind + "."},
				{"member twice", `{"` + rt.member + `":null,"` + rt.member + `":null}`, 400, 1006, "Attribute " + rt.member + " is given twice: send each member once."},
				{"not UTF-8", `{"` + rt.member + `":"caf` + "\xe9" + `"}`, 400, 1006, "Attribute " + rt.member + " is not valid UTF-8 text."},
				{"malformed JSON", rt.body[:len(rt.body)-1] + ",}", 400, 1006, "The request body is not valid JSON: invalid character '}' looking for beginning of object key string…"},
				{"truncated JSON", rt.body[:len(rt.body)-1], 400, 1006, "The request body is not valid JSON: it ends too early."},
				{"two values", rt.body + rt.body, 400, 1006, "The request body must hold exactly one JSON value."},
				{"an array", "[" + rt.body + "]", 400, 1006, "The request body must be a JSON object."},
				{"no body", "", 400, 1005, "The request body is missing."},
				{"too large", big, 413, 1008, "Request body is larger than 1048576 bytes."},
			}
			for _, tt := range tests {
				res := f.write(t, rt.method, rt.path, tt.body)
				got := res.errors(t)
				prefix, isPrefix := strings.CutSuffix(tt.message, "…")
				if res.status != tt.status || got.Code != tt.code ||
					(isPrefix && !strings.HasPrefix(got.Message, prefix)) || (!isPrefix && got.Message != tt.message) {
					t.Errorf("%s: %d %+v, want %d, code %d, %q", tt.name, res.status, got, tt.status, tt.code, tt.message)
				}
			}
			if after := f.changeCount(t); after != before {
				t.Errorf("refused requests recorded %d changes", after-before)
			}
			// The valid body is taken.
			if res := f.write(t, rt.method, rt.path, rt.body); res.status >= 300 {
				t.Errorf("valid body %s: %d %s", rt.body, res.status, res.body)
			}
		})
	}
}

// TestWriteAuth checks that a write needs the key of the customer in the
// path, and that a refused write changes nothing.
func TestWriteAuth(t *testing.T) {
	f := newFixture(t)
	routes := append(writeRoutes(f),
		writeRoute{method: http.MethodPost, path: p("/vendors/%d/packages/%d/titles", f.cust1Vendor, f.alphaJournals), body: `{"titleName":"X","pubType":"book"}`},
		writeRoute{method: http.MethodDelete, path: p("/vendors/%d/packages/%d", f.alphaVendor, f.alphaJournals)})
	root := f.read(t, p("/"))
	pkg := f.read(t, p("/vendors/%d/packages/%d", f.alphaVendor, f.alphaJournals))
	before := f.changeCount(t)
	for _, rt := range routes {
		var body *strings.Reader
		send := func(key string) response {
			body = strings.NewReader(rt.body)
			if rt.body == "" {
				return f.send(t, rt.method, rt.path, key, nil)
			}
			return f.send(t, rt.method, rt.path, key, body)
		}
		if res := send(""); res.status != 401 || res.errors(t).Code != 1003 {
			t.Errorf("%s %s without a key: %d %s", rt.method, rt.path, res.status, res.body)
		}
		res := send(key2)
		if res.status != 403 || res.errors(t).Code != 1004 {
			t.Errorf("%s %s with another customer's key: %d %s", rt.method, rt.path, res.status, res.body)
		}
	}
	if after := f.changeCount(t); after != before {
		t.Errorf("refused requests recorded %d changes", after-before)
	}
	if got := f.read(t, p("/")); fmt.Sprint(got) != fmt.Sprint(root) {
		t.Errorf("root changed by refused requests: %v", got)
	}
	if got := f.read(t, p("/vendors/%d/packages/%d", f.alphaVendor, f.alphaJournals)); fmt.Sprint(got) != fmt.Sprint(pkg) {
		t.Errorf("package changed by refused requests: %v", got)
	}
}

// TestWriteNotFound checks ids that do not exist, or that the customer may
// not see, on every write route.
func TestWriteNotFound(t *testing.T) {
	f := newFixture(t)
	tests := []struct {
		method, path, body, message string
	}{
		{http.MethodPut, p("/vendors/%d", f.nowhere), `{}`, "Vendor not found"},
		{http.MethodPut, p("/vendors/%d/packages/%d", f.alphaVendor, f.nowhere), `{"isSelected":true}`, "Package not found"},
		{http.MethodDelete, p("/vendors/%d/packages/%d", f.cust2Vendor, f.nowhere), ``, "Vendor not found"},
		{http.MethodPost, p("/vendors/%d/packages", f.nowhere), `{"packageName":"X"}`, "Vendor not found"},
		{http.MethodPut, p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.alphaJournals, f.nowhere), `{"isSelected":true}`, "Title not found"},
		{http.MethodPut, p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.alphaJournals, f.cookbook), `{"isSelected":true}`, "Title not found"},
		{http.MethodPut, p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.nowhere, f.testing), `{"isSelected":true}`, "Package not found"},
		{http.MethodPut, p("/vendors/%d/packages/%d/titles/%d", f.nowhere, f.alphaJournals, f.testing), `{"isSelected":true}`, "Vendor not found"},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.path, func(t *testing.T) {
			wantError(t, f.write(t, tt.method, tt.path, tt.body), 404, 1001, tt.message)
		})
	}
	for _, path := range []string{p("/vendors/x"), p("/vendors/0/packages/1"), p("/vendors/1/packages/1/titles/-2")} {
		if res := f.write(t, http.MethodPut, path, `{"isSelected":true}`); res.status != 400 || !strings.HasPrefix(res.errors(t).Message, "Parameter ") {
			t.Errorf("PUT %s: %d %s", path, res.status, res.body)
		}
	}
}

// TestChangeHistory checks that a write records the change with the API
// key that made it, and the states before and after.
func TestChangeHistory(t *testing.T) {
	f := newFixture(t)
	key, err := f.store.LookupAPIKey(t.Context(), kb.HashAPIKey(key1))
	if err != nil {
		t.Fatal(err)
	}
	f.mustWrite(t, http.StatusNoContent, http.MethodPut, p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.alphaJournals, f.testing),
		`{"isSelected":true,"userDefinedField1":"recorded"}`)
	cs, err := f.store.Changes(t.Context(), kb.ChangeQuery{CustomerID: "cust1", Limit: 1})
	if err != nil || len(cs) != 1 {
		t.Fatalf("changes %v, %v", cs, err)
	}
	c := cs[0]
	if c.KeyID != key.ID || c.Object != fmt.Sprintf("resource %d/%d", f.alphaJournals, f.testing) || c.At == "" ||
		!strings.Contains(c.After, "recorded") || strings.Contains(c.Before, "recorded") {
		t.Errorf("change %+v, want one by key %d of the resource, with the field after only", c, key.ID)
	}
}

// TestConcurrentResourceWrites sends PUTs on one resource from 8
// goroutines: every one is answered 204 (never 500), and the final state is
// the whole state of one of them.
func TestConcurrentResourceWrites(t *testing.T) {
	f := newFixture(t)
	path := p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.alphaJournals, f.testing)
	const goroutines, writes = 8, 25
	var wg sync.WaitGroup
	statuses := make(chan string, goroutines*writes)
	for g := range goroutines {
		wg.Go(func() {
			for i := range writes {
				hidden := (g+i)%2 == 0
				body := fmt.Sprintf(`{"isSelected":true,"isHidden":%t,"userDefinedField1":"g%d-w%d-%t","userDefinedField2":"g%d"}`, hidden, g, i, hidden, g)
				res := f.send(t, http.MethodPut, path, key1, strings.NewReader(body))
				if res.status != http.StatusNoContent {
					statuses <- fmt.Sprintf("%d %s", res.status, res.body)
				}
			}
		})
	}
	wg.Wait()
	close(statuses)
	for s := range statuses {
		t.Errorf("concurrent PUT answered %s", s)
	}
	if strings.Contains(f.log.String(), "level=ERROR") {
		t.Errorf("server log has errors:\n%s", f.log.String())
	}
	r := f.resourceOf(t, f.alphaVendor, f.alphaJournals, f.testing)
	udf1, _ := r["userDefinedField1"].(string)
	var g, i int
	var hidden bool
	if _, err := fmt.Sscanf(strings.ReplaceAll(udf1, "-", " "), "g%d w%d %t", &g, &i, &hidden); err != nil {
		t.Fatalf("userDefinedField1 = %q: %v", udf1, err)
	}
	wantFields(t, r, fmt.Sprintf(`{"isSelected":true,"visibilityData":{"isHidden":%t,"reason":%q},"userDefinedField2":"g%d"}`,
		hidden, map[bool]string{true: kb.ReasonHiddenByCustomer}[hidden], g))
	if n := f.changeCount(t); n != goroutines*writes {
		t.Errorf("%d changes recorded, want %d", n, goroutines*writes)
	}
}

// TestTokenKeptWhenAbsent checks the documented meaning of a token left out
// of a vendor PUT (kb.VendorUpdate.TokenValue nil: unchanged). Clients of
// the hosted service send "packageToken":null and leave out vendorToken
// when they change something else.
func TestTokenKeptWhenAbsent(t *testing.T) {
	f := newFixture(t)
	f.enableTokens(t)
	vendor := p("/vendors/%d", f.betaVendor)
	f.mustWrite(t, http.StatusNoContent, http.MethodPut, vendor, `{"vendorToken":{"value":"site42"}}`)
	f.mustWrite(t, http.StatusNoContent, http.MethodPut, vendor, `{"proxy":{"id":"EZProxy","inherited":false}}`)
	wantFields(t, f.read(t, vendor), `{"vendorToken":{"factName":"[[siteid]]","prompt":"/site/","helpText":"Your site id.","value":"site42"}}`)
}
