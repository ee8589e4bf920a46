package web

import (
	"context"
	"fmt"
	"net/http"

	"github.com/kbserver/kbserver/internal/kb"
)

// Wire names the shapes a server answers in where the holdings service's
// spec and the hosted service it describes disagree: the error envelope
// (of every JSON error body of the server; the holdings service's are
// most of them), the proxies list, and the hosted service's names of the
// operator flags in its v2 package lists. Everything else is the same in
// both.
type Wire string

// The wires a server can speak.
const (
	// WireSpec answers in the spec's shapes: errors as a bare array of
	// {code, subcode, message}, proxies as {"proxies":[…]}. The default.
	WireSpec Wire = "spec"
	// WireHosted answers as the hosted service does, for clients written
	// against it (FOLIO): errors as {"errors":[{code, subCode,
	// message}]}, proxies as a bare array.
	WireHosted Wire = "hosted"
)

// ParseWire reads a wire name; "" is WireSpec.
func ParseWire(s string) (Wire, error) {
	switch Wire(s) {
	case "", WireSpec:
		return WireSpec, nil
	case WireHosted:
		return WireHosted, nil
	}
	return "", fmt.Errorf("unknown wire %q: use %q (the spec's shapes) or %q (the hosted service's shapes)", s, WireSpec, WireHosted)
}

type wireKey struct{}

// SpeakWire makes every answer of next that depends on the wire (error
// bodies, lists the spec wraps) use wire. NewServer wraps the whole server
// in it, outside Serve, so that Serve's own error answers see it too.
func SpeakWire(wire Wire, next http.Handler) http.Handler {
	if wire == "" || wire == WireSpec {
		return next
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), wireKey{}, wire)))
	})
}

// WireOf returns the wire a request is answered in: WireSpec unless the
// server speaks another (SpeakWire).
func WireOf(r *http.Request) Wire {
	if w, ok := r.Context().Value(wireKey{}).(Wire); ok {
		return w
	}
	return WireSpec
}

// hostedError is one error in the hosted service's envelope: the same
// code and message as ErrorModel, with the subcode spelled subCode.
type hostedError struct {
	Code    kb.Code `json:"code"`
	SubCode int     `json:"subCode"`
	Message string  `json:"message"`
}

// hostedErrors is the hosted service's error envelope.
type hostedErrors struct {
	Errors []hostedError `json:"errors"`
}

// errorBody returns the body of one error: on the spec's wire a bare array
// of one ErrorModel, or the ErrorModel alone when object is true (the
// routes whose spec says so); on the hosted wire always the envelope
// {"errors":[…]}.
func (w Wire) errorBody(model ErrorModel, object bool) any {
	switch {
	case w == WireHosted:
		return hostedErrors{Errors: []hostedError{{Code: model.Code, SubCode: model.Subcode, Message: model.Message}}}
	case object:
		return model
	}
	return []ErrorModel{model}
}

// HostedNames reports whether answers repeat flags under the hosted
// service's branded names beside the spec's words (allowEbscoToAddTitles
// beside allowOperatorToAddTitles): on the hosted wire, where the
// operations that carry them (the v2 package lists) are the hosted
// service's own, for clients that read only its names.
func (w Wire) HostedNames() bool { return w == WireHosted }

// List returns a list that the spec wraps in an object under key (GET
// proxies: {"proxies":[…]}): wrapped on the spec's wire, the bare array on
// the hosted wire, as the hosted service answers.
func (w Wire) List(key string, items any) any {
	if w == WireHosted {
		return items
	}
	return map[string]any{key: items}
}
