package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// ContentTypeJSON is the Content-Type of every JSON answer.
const ContentTypeJSON = "application/json; charset=utf-8"

// WriteJSON writes v as JSON with the given status, encoding it straight to
// w. HTML characters are not escaped: the answers are JSON, never HTML, and
// URLs and URL masks stay readable.
func WriteJSON(w http.ResponseWriter, status int, v any) error {
	h := w.Header()
	h.Set("Content-Type", ContentTypeJSON)
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(status)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return fmt.Errorf("write JSON response: %w", err)
	}
	return nil
}

// DecodeJSON reads the request body, one JSON object, strictly into v, a
// pointer to a struct whose fields carry json tags. Every error is a
// *kb.Error whose message names what is wrong:
//
//   - no body, or only white space: CodeMissing;
//   - malformed JSON, trailing data, or a body that is not an object:
//     CodeInvalid;
//   - a member that v has no field for, matched by its exact name (the
//     decoder of encoding/json would take "IsSelected" for "isSelected"):
//     CodeInvalid, "Attribute proxy.foo is not allowed.";
//   - a value of the wrong JSON type: CodeInvalid, "Attribute isSelected
//     must be a boolean.";
//   - a string holding a NUL character (\u0000), which no store keeps:
//     CodeInvalid, "Attribute name must not contain NUL characters (\u0000).";
//   - a body over the server's limit: CodeTooLarge.
//
// A null member is left as the decoder leaves it (a nil pointer or slice),
// so that handlers can treat null as absent. An UnmarshalJSON method of a
// field type may return a *kb.Error; it is passed on unchanged.
func DecodeJSON(r *http.Request, v any) error {
	if r.Body == nil || r.Body == http.NoBody {
		return bodyMissing(nil)
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		return decodeError(err)
	}
	if len(bytes.TrimSpace(body)) == 0 {
		return bodyMissing(nil)
	}
	var tree any
	if err := decodeOne(body, &tree); err != nil {
		return err
	}
	if _, ok := tree.(map[string]any); !ok {
		return kb.Errorf(kb.CodeInvalid, "The request body must be a JSON object.")
	}
	if err := checkMembers(tree, reflect.TypeOf(v), ""); err != nil {
		return err
	}
	if err := checkJSONText(tree, ""); err != nil {
		return err
	}
	if err := json.Unmarshal(body, v); err != nil {
		return decodeError(err)
	}
	return nil
}

// decodeOne decodes body, which must hold exactly one JSON value, into v.
func decodeOne(body []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return decodeError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		if err != nil {
			return decodeError(err)
		}
		return kb.Errorf(kb.CodeInvalid, "The request body must hold exactly one JSON value.")
	}
	return nil
}

// checkMembers walks a decoded JSON value along the Go type t that it will
// be decoded into and reports the first member, in name order, that t has
// no field for. Values whose type does not match t are left for
// json.Unmarshal to report.
func checkMembers(v any, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch v := v.(type) {
	case map[string]any:
		if t.Kind() != reflect.Struct {
			return nil
		}
		fields := jsonFields(t)
		names := make([]string, 0, len(v))
		for name := range v {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			ft, ok := fields[name]
			if !ok {
				return unknownMember(path, name, fields)
			}
			if err := checkMembers(v[name], ft, joinPath(path, name)); err != nil {
				return err
			}
		}
	case []any:
		if t.Kind() != reflect.Slice && t.Kind() != reflect.Array {
			return nil
		}
		for i, e := range v {
			if err := checkMembers(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// jsonFields maps the JSON member names of struct type t to the types of
// their fields, with the fields of embedded structs promoted, as
// encoding/json decodes them.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	fields := map[string]reflect.Type{}
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
		fields[name] = f.Type
	}
	return fields
}

// unknownMember is the error for a member the body may not have; it
// suggests the allowed name that differs only in case.
func unknownMember(path, name string, fields map[string]reflect.Type) error {
	for known := range fields {
		if strings.EqualFold(known, name) {
			return kb.Errorf(kb.CodeInvalid, "Attribute %s is not allowed; did you mean %s?", joinPath(path, name), joinPath(path, known))
		}
	}
	return kb.Errorf(kb.CodeInvalid, "Attribute %s is not allowed.", joinPath(path, name))
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func bodyMissing(err error) error {
	return &kb.Error{Code: kb.CodeMissing, Message: "The request body is missing.", Err: err}
}

// decodeError turns a JSON decoding error into a *kb.Error.
func decodeError(err error) error {
	var tooLarge *http.MaxBytesError
	var syntax *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	var kbErr *kb.Error
	switch {
	case errors.As(err, &kbErr):
		return err
	case errors.As(err, &tooLarge):
		return &kb.Error{Code: kb.CodeTooLarge, Message: fmt.Sprintf("Request body is larger than %d bytes.", tooLarge.Limit), Err: err}
	case errors.Is(err, io.EOF):
		return bodyMissing(err)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &kb.Error{Code: kb.CodeInvalid, Message: "The request body is not valid JSON: it ends too early.", Err: err}
	case errors.As(err, &syntax):
		return &kb.Error{Code: kb.CodeInvalid, Message: fmt.Sprintf("The request body is not valid JSON: %s (at byte %d).", syntax.Error(), syntax.Offset), Err: err}
	case errors.As(err, &typeErr):
		if typeErr.Field == "" {
			return &kb.Error{Code: kb.CodeInvalid, Message: "The request body must be a JSON object.", Err: err}
		}
		return &kb.Error{Code: kb.CodeInvalid, Message: fmt.Sprintf("Attribute %s must be %s.", typeErr.Field, jsonKind(typeErr.Type)), Err: err}
	}
	return fmt.Errorf("read request body: %w", err)
}

// jsonKind names the JSON value a Go type takes, with its article.
func jsonKind(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool:
		return "a boolean"
	case reflect.String:
		return "a string"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "an object"
}
