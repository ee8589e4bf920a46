package web

import (
	"bytes"
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/kbserver/kbserver/internal/kb"
)

// FuzzDecodeJSON checks DecodeJSON against encoding/json, the reference it
// is stricter than: whatever the body, it answers a client's error (4xx,
// with a message) or decodes; a body it decodes is valid UTF-8, has a
// member of the payload for each of its own (encoding/json with
// DisallowUnknownFields takes it and decodes the same value), and its
// strings keep to their limits.
func FuzzDecodeJSON(f *testing.F) {
	for _, s := range []string{
		`{"a":1,"isSelected":true,"customCoverage":{"beginCoverage":"2001"},"customCoverageList":[{"beginCoverage":""}],"name":"n","other":{"k":"v"},"note":"x"}`,
		`{"isSelected":true,"isSelected":false}`,
		`{"note":"caf` + "\xe9" + `"}`,
		`{"note":"\udc00"}`, `{"note":"\ud83d\ude00"}`, `{"note":"a\u0000"}`,
		`{"name":"` + strings.Repeat("한", 700) + `"}`,
		`{"other":{"` + strings.Repeat("k", 1001) + `":"v"}}`,
		`{"IsSelected":true}`, `{"a":1} {}`, `[]`, ``, `{"customCoverageList":` + strings.Repeat("[", 40),
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var got decodePayload
		err := DecodeJSON(httptest.NewRequest("POST", "/", bytes.NewReader(body)), &got)
		if err != nil {
			if status := StatusFor(kb.ErrorCode(err)); status < 400 || status > 499 || kb.ErrorMessage(err) == "" {
				t.Fatalf("body %q: %v (status %d), want a 4xx error with a message", body, err, status)
			}
			return
		}
		if !utf8.Valid(body) {
			t.Fatalf("body %q is not UTF-8, and was decoded", body)
		}
		var want decodePayload
		dec := json.NewDecoder(bytes.NewReader(body))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&want); err != nil {
			t.Fatalf("body %q was decoded; encoding/json refuses it: %v", body, err)
		}
		gotJSON, _ := json.Marshal(got)
		wantJSON, _ := json.Marshal(want)
		if !bytes.Equal(gotJSON, wantJSON) {
			t.Fatalf("body %q decoded as %s, encoding/json as %s", body, gotJSON, wantJSON)
		}
		if e := kb.LimitName.Exceeded(got.Name); e != "" {
			t.Fatalf("body %q was decoded, but its name %s", body, e)
		}
		var tree any
		if err := json.Unmarshal(body, &tree); err != nil {
			t.Fatal(err)
		}
		if names, keys := memberNames(body), treeKeys(tree); names != keys {
			t.Fatalf("body %q was decoded, but names %d members for %d distinct ones: one is given twice", body, names, keys)
		}
	})
}

// memberNames counts the member names of the objects in body, one valid
// JSON value.
func memberNames(body []byte) int {
	dec := json.NewDecoder(bytes.NewReader(body))
	var inObject []bool // per open object or array: whether it is an object
	key := false        // the next token is a member name
	n := 0
	for {
		tok, err := dec.Token()
		if err != nil {
			return n
		}
		if key && tok != json.Delim('}') {
			n++
			key = false
			continue
		}
		switch tok {
		case json.Delim('{'), json.Delim('['):
			inObject = append(inObject, tok == json.Delim('{'))
			key = tok == json.Delim('{')
			continue
		case json.Delim('}'), json.Delim(']'):
			inObject = inObject[:len(inObject)-1]
		}
		key = len(inObject) > 0 && inObject[len(inObject)-1]
	}
}

// treeKeys counts the keys of the maps in v, a value decoded into any.
func treeKeys(v any) int {
	n := 0
	switch v := v.(type) {
	case map[string]any:
		for _, e := range v {
			n += 1 + treeKeys(e)
		}
	case []any:
		for _, e := range v {
			n += treeKeys(e)
		}
	}
	return n
}
