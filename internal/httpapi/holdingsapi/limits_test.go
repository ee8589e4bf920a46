package holdingsapi_test

import (
	"math/rand/v2"
	"net/http"
	"net/url"
	"strings"
	"testing"
)

// letters returns n random lowercase letters: text no store compresses,
// as a client's worst case.
func letters(n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte('a' + rand.IntN(26))
	}
	return string(b)
}

// TestFieldLimits sends values over their limits (the reproducers of issue
// 19: names of 2,800 hard-to-compress letters, which broke PostgreSQL's
// index of package names) and values at them: the first are answered 400
// naming the member and the limit and store nothing, the second are
// stored, on either store.
func TestFieldLimits(t *testing.T) {
	f := newFixture(t)
	custom := p("/vendors/%d/packages", f.cust1Vendor)
	hangul := strings.Repeat("한", 700) // 2,100 bytes, 6,300 once folded
	res := f.mustWrite(t, http.StatusOK, http.MethodPost, custom, `{"packageName":"Local"}`)
	pkg := int64(res.object(t)["packageId"].(float64))
	res = f.mustWrite(t, http.StatusOK, http.MethodPost, p("/vendors/%d/packages/%d/titles", f.cust1Vendor, pkg), `{"titleName":"Mine","pubType":"book"}`)
	title := int64(res.object(t)["titleId"].(float64))
	before := f.changeCount(t)
	for _, tt := range []struct {
		name, method, path, body, message string
	}{
		{"package name", http.MethodPost, custom, `{"packageName":"` + letters(2800) + `"}`,
			"Attribute packageName is 2,800 characters long: at most 1,000 are allowed."},
		{"package name folded", http.MethodPost, custom, `{"packageName":"` + hangul + `"}`,
			"Attribute packageName takes 6,300 bytes once folded for sorting and matching: at most 2,000 are allowed."},
		{"title name", http.MethodPost, p("/vendors/%d/packages/%d/titles", f.cust1Vendor, pkg),
			`{"titleName":"` + letters(2800) + `","pubType":"book"}`,
			"Attribute titleName is 2,800 characters long: at most 1,000 are allowed."},
		{"publisher", http.MethodPost, p("/vendors/%d/packages/%d/titles", f.cust1Vendor, pkg),
			`{"titleName":"T","pubType":"book","publisherName":"` + letters(1001) + `"}`,
			"Attribute publisherName is 1,001 characters long: at most 1,000 are allowed."},
		{"title url", http.MethodPost, p("/vendors/%d/packages/%d/titles", f.cust1Vendor, pkg),
			`{"titleName":"T","pubType":"book","url":"https://x/` + letters(2000) + `"}`,
			"Attribute url is 2,010 characters long: at most 2,000 are allowed."},
		{"coverage statement", http.MethodPut, p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.alphaJournals, f.testing),
			`{"isSelected":true,"coverageStatement":"` + letters(1001) + `"}`,
			"Attribute coverageStatement is 1,001 characters long: at most 1,000 are allowed."},
		{"user-defined field", http.MethodPut, p("/vendors/%d/packages/%d/titles/%d", f.alphaVendor, f.alphaJournals, f.testing),
			`{"isSelected":true,"userDefinedField3":"` + letters(1001) + `"}`,
			"Attribute userDefinedField3 is 1,001 characters long: at most 1,000 are allowed."},
		{"label", http.MethodPut, p("/"), `{"proxy":{"id":"<n>"},"labels":[{"id":1,"displayLabel":"` + letters(101) + `"}]}`,
			"Attribute labels[0].displayLabel is 101 characters long: at most 100 are allowed."},
		{"token value", http.MethodPut, p("/vendors/%d", f.alphaVendor), `{"vendorToken":{"value":"` + letters(1001) + `"}}`,
			"Attribute vendorToken.value is 1,001 characters long: at most 1,000 are allowed."},
		{"any other string", http.MethodPut, p("/vendors/%d/packages/%d/titles/%d", f.cust1Vendor, pkg, title),
			`{"isSelected":true,"titleName":"T","pubType":"book","description":"` + letters(10001) + `"}`,
			"Attribute description is 10,001 characters long: at most 10,000 are allowed."},
	} {
		res := f.write(t, tt.method, tt.path, tt.body)
		if got := res.errors(t); res.status != 400 || got.Code != 1006 || got.Message != tt.message {
			t.Errorf("%s: %d %+v, want 400, code 1006, %q", tt.name, res.status, got, tt.message)
		}
	}
	if after := f.changeCount(t); after != before {
		t.Errorf("refused requests recorded %d changes", after-before)
	}
	// At their limits, the longest names are stored and read back.
	longest := letters(1000)
	res = f.write(t, http.MethodPost, custom, `{"packageName":"`+longest+`"}`)
	if res.status != 200 {
		t.Fatalf("a package name of 1,000 letters: %d %s", res.status, res.body)
	}
	res = f.write(t, http.MethodPost, custom, `{"packageName":"`+strings.Repeat("한", 222)+`"}`) // 1,998 bytes folded
	if res.status != 200 {
		t.Fatalf("a package name of 222 Hangul syllables: %d %s", res.status, res.body)
	}
	l := f.read(t, p("/packages?search=%s&count=5&offset=1", longest[:20]))
	if got := names(t, l, "packagesList", "packageName"); len(got) != 1 || got[0] != longest {
		t.Errorf("the longest package name reads back as %.40q…", got)
	}
}

// TestSearchLimits: a search of more words or characters than a search
// takes is answered 400 naming the limit, before the store sees it (a
// search of 20,000 words exhausted PostgreSQL's stack), on every list that
// takes a search.
func TestSearchLimits(t *testing.T) {
	f := newFixture(t)
	reproducer := url.QueryEscape(strings.TrimSpace(strings.Repeat("word ", 20000)))
	many := url.QueryEscape(strings.TrimSpace(strings.Repeat("a ", 200)))
	long := url.QueryEscape(letters(1001))
	for _, path := range []string{
		p("/titles?searchfield=titlename&count=5&offset=1&search="),
		p("/titles?searchfield=publisher&searchtype=advanced&count=5&offset=1&search="),
		p("/vendors?count=10&offset=1&search="),
		p("/packages?count=5&offset=1&search="),
		p("/vendors/%d/packages?count=5&offset=1&search=", f.alphaVendor),
		p("/vendors/%d/packages/%d/titles?searchfield=titlename&count=5&offset=1&search=", f.alphaVendor, f.alphaJournals),
	} {
		res := f.get(t, path+reproducer, key1)
		if got := res.errors(t); res.status != 400 || got.Code != 1006 || got.Message != "Parameter search is 99,999 characters long: at most 1,000 are allowed." {
			t.Errorf("%s… with 20,000 words: %d %+v", path, res.status, got)
		}
		res = f.get(t, path+many, key1)
		if got := res.errors(t); res.status != 400 || got.Code != 1006 || got.Message != "Parameter search has 200 words: at most 100 are allowed." {
			t.Errorf("%s… with 200 words: %d %+v", path, res.status, got)
		}
		res = f.get(t, path+long, key1)
		if got := res.errors(t); res.status != 400 || got.Message != "Parameter search is 1,001 characters long: at most 1,000 are allowed." {
			t.Errorf("%s… with 1,001 letters: %d %+v", path, res.status, got)
		}
		if res := f.get(t, path+url.QueryEscape(strings.TrimSpace(strings.Repeat("word ", 100))), key1); res.status != 200 {
			t.Errorf("%s… with 100 words: %d %s", path, res.status, res.body)
		}
	}
	repeated := strings.Repeat("&selection=all", 101)
	res := f.get(t, p("/packages?count=5&offset=1")+repeated, key1)
	if got := res.errors(t); res.status != 400 || got.Message != "Parameter selection is given 101 times: at most 100 are allowed." {
		t.Errorf("a parameter given 101 times: %d %+v", res.status, got)
	}
}
