package web

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/kbserver/kbserver/internal/kb"
)

// The checks DecodeJSON makes of a body beyond what encoding/json does.

// limitClasses are the values of a payload field's limit tag
// (`limit:"name"`): the kb.TextLimit its strings must keep to.
var limitClasses = map[string]kb.TextLimit{
	"name":  kb.LimitName,
	"url":   kb.LimitURL,
	"id":    kb.LimitID,
	"label": kb.LimitLabel,
	"short": kb.LimitShort,
	"text":  kb.LimitText,
}

// jsonField is a member of a payload struct: the Go type it decodes into
// and the limit of its strings.
type jsonField struct {
	typ   reflect.Type
	limit kb.TextLimit
}

// checkMembers walks a decoded JSON value along the Go type t that it will
// be decoded into (nil: any) and reports the first member, in name order,
// that t has no field for, and the first string that holds a NUL character
// or breaks its limit (lim for a string here; a struct field's limit tag
// for the strings under it). Values whose type does not match t are left
// for json.Unmarshal to report.
func checkMembers(v any, t reflect.Type, path string, lim kb.TextLimit) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch v := v.(type) {
	case string:
		if strings.ContainsRune(v, 0) {
			return kb.Errorf(kb.CodeInvalid, "Attribute %s must not contain NUL characters (\\u0000).", path)
		}
		if e := lim.Exceeded(v); e != "" {
			return kb.Errorf(kb.CodeInvalid, "Attribute %s %s.", path, e)
		}
	case map[string]any:
		names := make([]string, 0, len(v))
		for name := range v {
			names = append(names, name)
		}
		slices.Sort(names)
		if t != nil && t.Kind() == reflect.Struct {
			fields := jsonFields(t)
			for _, name := range names {
				f, ok := fields[name]
				if !ok {
					return unknownMember(path, name, fields)
				}
				if err := checkMembers(v[name], f.typ, joinPath(path, name), f.limit); err != nil {
					return err
				}
			}
			return nil
		}
		var elem reflect.Type // a map's values, or anything
		if t != nil && t.Kind() == reflect.Map {
			elem = t.Elem()
		}
		for _, name := range names {
			if e := kb.LimitShort.Exceeded(name); e != "" {
				return kb.Errorf(kb.CodeInvalid, "A member name of %s %s.", orBody(path), e)
			}
			if err := checkMembers(v[name], elem, joinPath(path, name), lim); err != nil {
				return err
			}
		}
	case []any:
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		for i, e := range v {
			if err := checkMembers(e, elem, path+"["+strconv.Itoa(i)+"]", lim); err != nil {
				return err
			}
		}
	}
	return nil
}

// orBody names a member path, or the body for the top level.
func orBody(path string) string {
	if path == "" {
		return "the body"
	}
	return path
}

// jsonFields maps the JSON member names of struct type t to their fields,
// with the fields of embedded structs promoted, as encoding/json decodes
// them. A field's strings keep to the limit its limit tag names,
// kb.LimitText without one; an unknown class is a bug of the payload
// type, and panics.
func jsonFields(t reflect.Type) map[string]jsonField {
	fields := map[string]jsonField{}
	for f := range t.Fields() {
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && f.Type.Kind() == reflect.Struct {
			for n, ft := range jsonFields(f.Type) {
				fields[n] = ft
			}
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		lim := kb.LimitText
		if class, ok := f.Tag.Lookup("limit"); ok {
			if lim, ok = limitClasses[class]; !ok {
				panic(fmt.Sprintf("field %s of %s: unknown limit class %q", f.Name, t, class))
			}
		}
		fields[name] = jsonField{typ: f.Type, limit: lim}
	}
	return fields
}

// unknownMember is the error for a member the body may not have; it
// suggests the allowed name that differs only in case.
func unknownMember(path, name string, fields map[string]jsonField) error {
	for known := range fields {
		if strings.EqualFold(known, name) {
			return kb.Errorf(kb.CodeInvalid, "Attribute %s is not allowed; did you mean %s?", joinPath(path, name), joinPath(path, known))
		}
	}
	return kb.Errorf(kb.CodeInvalid, "Attribute %s is not allowed.", joinPath(path, name))
}

// maxJSONDepth is the deepest that objects and arrays may nest in a request
// body; the payloads of the services nest four deep at most.
const maxJSONDepth = 32

// checkStream reads the tokens of body, one valid JSON value, and refuses
// a member given twice in one object, objects and arrays nested more than
// maxJSONDepth deep, and a string (a member name or a
// value) that is not valid UTF-8 or holds a lone surrogate escape
// (kb.BadEscape), naming the member: encoding/json would keep the last of
// the members, and turn the rest into U+FFFD.
func checkStream(body []byte) error {
	bad := invalidUTF8(body)
	esc, escText := kb.BadEscape(body)
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	var stack []*streamFrame
	for {
		start := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return nil // the end: the value was decoded before
		}
		var top *streamFrame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		// The path of this token's value, or of the member it names.
		path := ""
		isName := false
		if top != nil {
			switch {
			case top.names == nil:
				path = top.path + "[" + strconv.Itoa(top.index) + "]"
			case top.key:
				isName = true
				path = top.path
			default:
				path = joinPath(top.path, top.name)
			}
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			if len(stack) > 0 {
				stack[len(stack)-1].advance()
			}
			continue
		}
		if bad >= 0 && start <= int64(bad) && int64(bad) < dec.InputOffset() {
			if isName {
				return kb.Errorf(kb.CodeInvalid, "A member name of %s is not valid UTF-8 text.", orBody(path))
			}
			return kb.Errorf(kb.CodeInvalid, "Attribute %s is not valid UTF-8 text.", path)
		}
		if esc >= 0 && escText != `\u0000` && start <= int64(esc) && int64(esc) < dec.InputOffset() {
			// (\u0000 is refused as a NUL character, naming the member.)
			if isName {
				return kb.Errorf(kb.CodeInvalid, "A member name of %s holds the escape %s, half of a surrogate pair: no character.", orBody(path), escText)
			}
			return kb.Errorf(kb.CodeInvalid, "Attribute %s holds the escape %s, half of a surrogate pair: no character.", path, escText)
		}
		switch tok := tok.(type) {
		case json.Delim: // { or [
			if len(stack) == maxJSONDepth {
				return kb.Errorf(kb.CodeInvalid, "The request body nests objects and arrays more than %d deep: at most %d levels are allowed.", maxJSONDepth, maxJSONDepth)
			}
			f := &streamFrame{path: path}
			if tok == '{' {
				f.names, f.key = map[string]bool{}, true
			}
			stack = append(stack, f)
			continue
		case string:
			if isName {
				if top.names[tok] {
					return kb.Errorf(kb.CodeInvalid, "Attribute %s is given twice: send each member once.", joinPath(top.path, tok))
				}
				top.names[tok], top.name, top.key = true, tok, false
				continue
			}
		}
		if top != nil {
			top.advance()
		}
	}
}

// streamFrame is an open object or array of checkStream: the path to it,
// and for an object the member names seen and whether a name comes next.
type streamFrame struct {
	path  string
	names map[string]bool // nil for an array
	key   bool
	name  string // the member whose value comes next
	index int    // an array's next element
}

// advance moves a frame past a value: an object expects a member name
// next, an array its next element.
func (f *streamFrame) advance() {
	if f.names != nil {
		f.key = true
	} else {
		f.index++
	}
}

// invalidUTF8 returns the offset of the first byte of b that is not part
// of valid UTF-8, or -1.
func invalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		if b[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return -1
}
