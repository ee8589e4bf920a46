package web

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"

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

// DecodeJSON reads the request body as one JSON value into v. A missing body
// is CodeMissing, malformed JSON or trailing data CodeInvalid, and a body
// over the server's limit CodeTooLarge.
func DecodeJSON(r *http.Request, v any) error {
	if r.Body == nil || r.Body == http.NoBody {
		return kb.Errorf(kb.CodeMissing, "Request body is missing.")
	}
	dec := json.NewDecoder(r.Body)
	if err := dec.Decode(v); err != nil {
		return decodeError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		if err != nil {
			return decodeError(err)
		}
		return kb.Errorf(kb.CodeInvalid, "Request body must hold exactly one JSON value.")
	}
	return nil
}

// decodeError turns a JSON decoding error into a *kb.Error.
func decodeError(err error) error {
	var tooLarge *http.MaxBytesError
	var syntax *json.SyntaxError
	var typeErr *json.UnmarshalTypeError
	switch {
	case errors.As(err, &tooLarge):
		return &kb.Error{Code: kb.CodeTooLarge, Message: fmt.Sprintf("Request body is larger than %d bytes.", tooLarge.Limit), Err: err}
	case errors.Is(err, io.EOF):
		return &kb.Error{Code: kb.CodeMissing, Message: "Request body is missing.", Err: err}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return &kb.Error{Code: kb.CodeInvalid, Message: "Request body is not valid JSON: it ends too early.", Err: err}
	case errors.As(err, &syntax):
		return &kb.Error{Code: kb.CodeInvalid, Message: fmt.Sprintf("Request body is not valid JSON (at byte %d).", syntax.Offset), Err: err}
	case errors.As(err, &typeErr):
		field := typeErr.Field
		if field == "" {
			field = "body"
		}
		return &kb.Error{Code: kb.CodeInvalid, Message: fmt.Sprintf("Attribute %s must be a JSON %s.", field, jsonKind(typeErr.Type.Kind().String())), Err: err}
	}
	return fmt.Errorf("read request body: %w", err)
}

// jsonKind names a Go kind the way a JSON user knows it.
func jsonKind(kind string) string {
	switch kind {
	case "bool":
		return "boolean"
	case "string":
		return "string"
	case "slice", "array":
		return "array"
	case "struct", "map":
		return "object"
	}
	return "number"
}
