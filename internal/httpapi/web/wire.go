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
	// against it (FOLIO): errors in the hosted service's envelope of the
	// operation and status (mostly {"errors":[{code, subCode, message}]};
	// Route.HostedErrors), proxies as a bare array.
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

// HostedEnvelope is one of the error bodies of the hosted service. Its
// recorded answers show three, by operation and status; clients written
// against it read each (FOLIO reads member names in any case and codes as
// numbers or numeric strings), but a client may read only the one its
// operation answers, so kbserver answers each operation in its own: a
// route names the statuses it answers in another envelope than
// EnvelopeErrors (Route.HostedErrors).
type HostedEnvelope int

// The hosted service's error envelopes.
const (
	// EnvelopeErrors is the hosted service's usual envelope, of most of
	// its operations: {"errors":[{"code":1001,"subCode":0,"message":"…"}]}.
	EnvelopeErrors HostedEnvelope = iota
	// EnvelopeCapitalised has capitalised member names, in the order
	// Code, Message, SubCode:
	// {"Errors":[{"Code":1001,"Message":"…","SubCode":0}]}.
	EnvelopeCapitalised
	// EnvelopeStringCodes has the code and subcode as decimal strings, in
	// the order code, message, subCode:
	// {"errors":[{"code":"1006","message":"…","subCode":"0"}]}.
	EnvelopeStringCodes
)

// body returns the body of one error in the envelope.
func (e HostedEnvelope) body(model ErrorModel) any {
	switch e {
	case EnvelopeCapitalised:
		return capitalisedErrors{Errors: []capitalisedError{{Code: model.Code, Message: model.Message, SubCode: model.Subcode}}}
	case EnvelopeStringCodes:
		return stringCodeErrors{Errors: []stringCodeError{{Code: model.Code, Message: model.Message, SubCode: model.Subcode}}}
	}
	return hostedErrors{Errors: []hostedError{{Code: model.Code, SubCode: model.Subcode, Message: model.Message}}}
}

// hostedError is one error of EnvelopeErrors: the same code and message as
// ErrorModel, with the subcode spelled subCode.
type hostedError struct {
	Code    kb.Code `json:"code"`
	SubCode int     `json:"subCode"`
	Message string  `json:"message"`
}

// hostedErrors is EnvelopeErrors.
type hostedErrors struct {
	Errors []hostedError `json:"errors"`
}

// capitalisedError is one error of EnvelopeCapitalised.
type capitalisedError struct {
	Code    kb.Code `json:"Code"`
	Message string  `json:"Message"`
	SubCode int     `json:"SubCode"`
}

// capitalisedErrors is EnvelopeCapitalised.
type capitalisedErrors struct {
	Errors []capitalisedError `json:"Errors"`
}

// stringCodeError is one error of EnvelopeStringCodes: the numbers are
// written as JSON strings.
type stringCodeError struct {
	Code    kb.Code `json:"code,string"`
	Message string  `json:"message"`
	SubCode int     `json:"subCode,string"`
}

// stringCodeErrors is EnvelopeStringCodes.
type stringCodeErrors struct {
	Errors []stringCodeError `json:"errors"`
}

// errorBody returns the body of one error: on the spec's wire a bare
// array of one ErrorModel, or the ErrorModel alone when object is true
// (the routes whose spec says so); on the hosted wire in hosted, the
// envelope the hosted service answers the route and status in.
func (w Wire) errorBody(model ErrorModel, object bool, hosted HostedEnvelope) any {
	switch {
	case w == WireHosted:
		return hosted.body(model)
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
