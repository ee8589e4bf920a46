package httpapi_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The shape comparer of the replay test: it decides whether two answers
// have the same JSON shape (keys at every level and JSON types), ignoring
// values.

// kinds is a set of JSON types.
type kinds uint8

// The JSON types.
const (
	kNull kinds = 1 << iota
	kBool
	kNumber
	kString
	kObject
	kArray
)

// String names the types of a set, e.g. "number|string".
func (k kinds) String() string {
	var names []string
	for _, n := range []struct {
		k    kinds
		name string
	}{{kNull, "null"}, {kBool, "bool"}, {kNumber, "number"}, {kString, "string"}, {kObject, "object"}, {kArray, "array"}} {
		if k&n.k != 0 {
			names = append(names, n.name)
		}
	}
	if len(names) == 0 {
		return "nothing"
	}
	return strings.Join(names, "|")
}

// shape is the shape of a body or of a JSON value in it. A body is
// nothing (kinds 0, text false: an empty body), text that is not JSON, or
// a JSON value. A value that an array holds several times has the union of
// their shapes: every type any element has, every key any object element
// has.
type shape struct {
	kinds kinds             // the JSON types seen; 0 for an empty body or text
	text  bool              // a body that is not JSON
	keys  map[string]*shape // the members, when kinds has kObject
	elem  *shape            // the union of the elements, when kinds has kArray; nil when every array seen was empty
}

// shapeOptions change how a body's shape is read.
type shapeOptions struct {
	// errorBody reads an error body as FOLIO does: member names in any
	// case (they are lower-cased) and a numeric string as a number.
	errorBody bool
}

// bodyShape returns the shape of a response body: nothing when it is
// empty, text when it is not JSON.
func bodyShape(body []byte, opt shapeOptions) *shape {
	b := bytes.TrimSpace(body)
	if len(b) == 0 {
		return &shape{}
	}
	var v any
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err := d.Decode(&v); err != nil || d.More() {
		return &shape{text: true}
	}
	return valueShape(v, opt)
}

// valueShape returns the shape of a decoded JSON value (json.Number or
// float64 for numbers).
func valueShape(v any, opt shapeOptions) *shape {
	switch v := v.(type) {
	case nil:
		return &shape{kinds: kNull}
	case bool:
		return &shape{kinds: kBool}
	case json.Number, float64, int, int64:
		return &shape{kinds: kNumber}
	case string:
		if opt.errorBody {
			if _, err := strconv.ParseFloat(v, 64); err == nil {
				return &shape{kinds: kNumber}
			}
		}
		return &shape{kinds: kString}
	case map[string]any:
		s := &shape{kinds: kObject, keys: map[string]*shape{}}
		for k, x := range v {
			if opt.errorBody {
				k = strings.ToLower(k)
			}
			s.keys[k] = mergeShapes(s.keys[k], valueShape(x, opt))
		}
		return s
	case []any:
		s := &shape{kinds: kArray}
		for _, x := range v {
			s.elem = mergeShapes(s.elem, valueShape(x, opt))
		}
		return s
	}
	panic(fmt.Sprintf("valueShape: unexpected %T", v))
}

// mergeShapes returns the union of two value shapes; nil is no shape.
func mergeShapes(a, b *shape) *shape {
	switch {
	case a == nil:
		return b
	case b == nil:
		return a
	}
	m := &shape{kinds: a.kinds | b.kinds, elem: mergeShapes(a.elem, b.elem)}
	if a.keys != nil || b.keys != nil {
		m.keys = map[string]*shape{}
		for k, s := range a.keys {
			m.keys[k] = s
		}
		for k, s := range b.keys {
			m.keys[k] = mergeShapes(m.keys[k], s)
		}
	}
	return m
}

// describe names a body shape in a difference.
func (s *shape) describe() string {
	switch {
	case s.text:
		return "text"
	case s.kinds == 0:
		return "no body"
	}
	return s.kinds.String()
}

// shapeDiff is one difference between two shapes: where, and what.
type shapeDiff struct {
	path string // e.g. "vendors[].vendorToken"; "" for the body itself
	what string // e.g. "object, want string", "missing", "extra"
}

// String returns the difference as "path: what".
func (d shapeDiff) String() string {
	p := d.path
	if p == "" {
		p = "(body)"
	}
	return p + ": " + d.what
}

// compareShapes returns every difference of got from want, sorted by
// path. Objects must have the same keys (a key only in want is
// "missing", one only in got "extra") and their values the same shapes;
// arrays compare the union of their elements (an empty array matches any
// array); null on either side matches any type; otherwise got's types must
// be among want's.
func compareShapes(got, want *shape) []shapeDiff {
	var diffs []shapeDiff
	compareAt("", got, want, &diffs)
	slices.SortFunc(diffs, func(a, b shapeDiff) int { return strings.Compare(a.path+"\x00"+a.what, b.path+"\x00"+b.what) })
	return diffs
}

// compareAt adds the differences of got from want at path to diffs.
func compareAt(path string, got, want *shape, diffs *[]shapeDiff) {
	if got.kinds == 0 || want.kinds == 0 { // no body, or text
		if got.text != want.text || got.kinds != want.kinds {
			*diffs = append(*diffs, shapeDiff{path, got.describe() + ", want " + want.describe()})
		}
		return
	}
	g, w := got.kinds&^kNull, want.kinds&^kNull
	if g == 0 || w == 0 {
		return // null matches any type
	}
	if g&^w != 0 {
		*diffs = append(*diffs, shapeDiff{path, g.String() + ", want " + w.String()})
	}
	if g&w&kObject != 0 {
		for k, ws := range want.keys {
			gs, ok := got.keys[k]
			if !ok {
				*diffs = append(*diffs, shapeDiff{join(path, k), "missing"})
				continue
			}
			compareAt(join(path, k), gs, ws, diffs)
		}
		for k := range got.keys {
			if _, ok := want.keys[k]; !ok {
				*diffs = append(*diffs, shapeDiff{join(path, k), "extra"})
			}
		}
	}
	if g&w&kArray != 0 && got.elem != nil && want.elem != nil {
		compareAt(path+"[]", got.elem, want.elem, diffs)
	}
}

// uncompared lists the paths of arrays that want's elements give a shape
// to but got's are empty at (so compareShapes could not check them), for
// the replay to tell a fixture too thin to exercise a shape.
func uncompared(path string, got, want *shape) []string {
	if got == nil || want == nil {
		return nil
	}
	var out []string
	if got.kinds&kArray != 0 && want.elem != nil {
		if got.elem == nil {
			out = append(out, path+"[]")
		} else {
			out = append(out, uncompared(path+"[]", got.elem, want.elem)...)
		}
	}
	for k, ws := range want.keys {
		out = append(out, uncompared(join(path, k), got.keys[k], ws)...)
	}
	slices.Sort(out)
	return out
}

// join appends a member name to a path.
func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// renameKeys renames members everywhere in s (old name → new name), for
// the brand words the recording writes and our server writes in the
// spec's words.
func renameKeys(s *shape, names map[string]string) *shape {
	if s == nil {
		return nil
	}
	c := *s
	c.elem = renameKeys(s.elem, names)
	if s.keys != nil {
		c.keys = map[string]*shape{}
		for k, v := range s.keys {
			if n, ok := names[k]; ok {
				k = n
			}
			c.keys[k] = renameKeys(v, names)
		}
	}
	return &c
}

func TestCompareShapes(t *testing.T) {
	tests := []struct {
		name      string
		got, want string
		errorBody bool
		diffs     []string
	}{
		{"same keys and types", `{"a":1,"b":"x","c":{"d":true}}`, `{"c":{"d":false},"b":"y","a":2}`, false, nil},
		{"key missing", `{"a":1}`, `{"a":1,"b":"x"}`, false, []string{"b: missing"}},
		{"key extra", `{"a":1,"b":"x"}`, `{"a":1}`, false, []string{"b: extra"}},
		{"nested key missing and extra", `{"v":[{"x":1,"y":2}]}`, `{"v":[{"x":1,"z":2}]}`, false, []string{"v[].y: extra", "v[].z: missing"}},
		{"type mismatch", `{"vendors":[{"vendorToken":{"value":"x"}}]}`, `{"vendors":[{"vendorToken":"x"}]}`, false,
			[]string{"vendors[].vendorToken: object, want string"}},
		{"number for string", `{"totalCount":3}`, `{"totalCount":"3"}`, false, []string{"totalCount: number, want string"}},
		{"null in got matches any type", `{"a":null}`, `{"a":{"b":1}}`, false, nil},
		{"null in want matches any type", `{"a":{"b":1}}`, `{"a":null}`, false, nil},
		{"null does not excuse a missing key", `{}`, `{"a":null}`, false, []string{"a: missing"}},
		{"array union: keys of every element", `[{"a":1},{"b":2}]`, `[{"a":1,"b":2}]`, false, nil},
		{"array union: a key no element has", `[{"a":1},{"a":2}]`, `[{"a":1},{"b":2}]`, false, []string{"[].b: missing"}},
		{"array union: an element of another type", `[1,"x"]`, `[1,2]`, false, []string{"[]: number|string, want number"}},
		{"array union: got types among want's", `[1]`, `[1,"x"]`, false, nil},
		{"empty array matches any array", `{"a":[]}`, `{"a":[{"b":1}]}`, false, nil},
		{"any array matches an empty one", `{"a":[{"b":1}]}`, `{"a":[]}`, false, nil},
		{"array for object", `[]`, `{}`, false, []string{"(body): array, want object"}},
		{"no body matches no body", ``, ``, false, nil},
		{"body for no body", `{}`, ``, false, []string{"(body): object, want no body"}},
		{"no body for a body", ``, `{"a":1}`, false, []string{"(body): no body, want object"}},
		{"text matches text", `3f6c5e0e-delta`, `some id`, false, nil},
		{"JSON for text", `{"id":"x"}`, `some id`, false, []string{"(body): object, want text"}},
		{"error body: keys in any case", `{"errors":[{"code":1,"subCode":0,"message":"m"}]}`, `{"Errors":[{"Code":1,"Message":"m","SubCode":0}]}`, true, nil},
		{"error body: numeric string is a number", `{"errors":[{"code":1,"subCode":0,"message":"m"}]}`, `{"errors":[{"code":"1006","message":"m","subCode":"0"}]}`, true, nil},
		{"error body: a word is still a string", `{"errors":[{"code":1,"subCode":0,"message":"m"}]}`, `{"errors":[{"code":"bad","subCode":0,"message":"m"}]}`, true,
			[]string{"errors[].code: number, want string"}},
		{"elsewhere keys are case-sensitive", `{"errors":[{"code":1}]}`, `{"Errors":[{"Code":1}]}`, false, []string{"Errors: missing", "errors: extra"}},
		{"elsewhere a numeric string is a string", `{"code":"1"}`, `{"code":1}`, false, []string{"code: string, want number"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := shapeOptions{errorBody: tt.errorBody}
			var got []string
			for _, d := range compareShapes(bodyShape([]byte(tt.got), opt), bodyShape([]byte(tt.want), opt)) {
				got = append(got, d.String())
			}
			if !slices.Equal(got, tt.diffs) {
				t.Errorf("compare %s with %s:\n got %q\nwant %q", tt.got, tt.want, got, tt.diffs)
			}
		})
	}
}

func TestRenameKeys(t *testing.T) {
	s := bodyShape([]byte(`{"allowEbscoToAddTitles":true,"list":[{"allowEbscoToAddTitles":false}]}`), shapeOptions{})
	got := compareShapes(renameKeys(s, map[string]string{"allowEbscoToAddTitles": "allowOperatorToAddTitles"}),
		bodyShape([]byte(`{"allowOperatorToAddTitles":true,"list":[{"allowOperatorToAddTitles":true}]}`), shapeOptions{}))
	if len(got) != 0 {
		t.Errorf("renamed shape differs: %v", got)
	}
}

func TestUncompared(t *testing.T) {
	got := bodyShape([]byte(`{"titles":[{"subjectsList":[],"identifiersList":[{"id":"x"}]}],"facets":[]}`), shapeOptions{})
	want := bodyShape([]byte(`{"titles":[{"subjectsList":[{"subject":"s"}],"identifiersList":[{"id":"y"}]}],"facets":[]}`), shapeOptions{})
	if got, want := uncompared("", got, want), []string{"titles[].subjectsList[]"}; !slices.Equal(got, want) {
		t.Errorf("uncompared = %q, want %q", got, want)
	}
}
