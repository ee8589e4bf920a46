package web

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"reflect"

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
//   - a string that is not valid UTF-8 (which encoding/json would turn
//     into U+FFFD): CodeInvalid, "Attribute name is not valid UTF-8 text.";
//   - a member given twice in one object (encoding/json would keep the
//     last): CodeInvalid, "Attribute isSelected is given twice: send each
//     member once.";
//   - a string longer than its field's limit (the field's limit tag, a
//     class of kb.TextLimit, else kb.LimitText): CodeInvalid,
//     "Attribute packageName is 1,204 characters long: at most 1,000 are
//     allowed.";
//   - objects and arrays nested more than 32 deep: CodeInvalid;
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
	return DecodeJSONBytes(body, v)
}

// DecodeJSONBytes decodes and checks a JSON body already read, as
// DecodeJSON does (the staff console's forms carry bodies of the API in a
// field).
func DecodeJSONBytes(body []byte, v any) error {
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
	if err := checkStream(body); err != nil {
		return err
	}
	if err := checkMembers(tree, reflect.TypeOf(v), "", kb.LimitText); err != nil {
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
