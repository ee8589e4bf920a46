package feedfetch

import (
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
)

// Kind classifies a failed fetch.
type Kind string

// The kinds of failure.
const (
	KindClient    Kind = "client error"      // a 4xx status
	KindServer    Kind = "server error"      // a 5xx status
	KindStatus    Kind = "unexpected answer" // another status than 200 or 304, or an unknown encoding
	KindTimeout   Kind = "timeout"           // the time limit passed
	KindTLS       Kind = "TLS error"         // the certificate or the TLS handshake failed
	KindHTML      Kind = "HTML page"         // an HTML page answered in place of the file
	KindTooLarge  Kind = "too large"         // more than the size limit
	KindTruncated Kind = "truncated"         // the body ended before its announced length
	KindRedirects Kind = "too many redirects"
	KindCorrupt   Kind = "corrupt"  // a gzip stream that does not decompress
	KindNetwork   Kind = "network"  // the connection failed
	KindAddress   Kind = "address"  // the address is not one the fetch reads
	KindCanceled  Kind = "canceled" // the caller's context ended (the server stops)
	KindFile      Kind = "file"     // a local file could not be read
)

// Error is a failed fetch. Its message names the kind, the HTTP status
// when there was one, and the address redacted (kb.RedactURL).
type Error struct {
	Kind   Kind
	Status int    // 0 when there was no answer
	URL    string // redacted
	Err    error  // the cause; its text never holds the address
}

// Error implements the error interface.
func (e *Error) Error() string {
	s := "fetch " + e.URL + ": " + string(e.Kind)
	if e.Status != 0 {
		s += fmt.Sprintf(" (HTTP %d %s)", e.Status, http.StatusText(e.Status))
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// errTooManyRedirects is CheckRedirect's refusal.
var errTooManyRedirects = errors.New("too many redirects")

// classify turns an error of the client or of reading a body into an
// *Error. The client's *url.Error, whose text holds the address, is
// unwrapped so that the address shows only redacted.
func classify(ctx context.Context, shown string, status int, err error) *Error {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	e := &Error{Status: status, URL: shown, Err: err}
	var netErr net.Error
	var certErr *tls.CertificateVerificationError
	var recErr tls.RecordHeaderError
	var unknownAuth x509.UnknownAuthorityError
	var hostErr x509.HostnameError
	var invalid x509.CertificateInvalidError
	switch {
	case errors.Is(err, errTooManyRedirects):
		e.Kind = KindRedirects
	case errors.Is(err, errNotPublic):
		e.Kind = KindAddress
	case errors.Is(err, context.Canceled) && !errors.Is(ctx.Err(), context.DeadlineExceeded):
		e.Kind, e.Err = KindCanceled, errors.New("the fetch was stopped")
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) ||
		errors.As(err, &netErr) && netErr.Timeout():
		e.Kind, e.Err = KindTimeout, errors.New("the time limit passed")
	case errors.As(err, &certErr), errors.As(err, &recErr), errors.As(err, &unknownAuth),
		errors.As(err, &hostErr), errors.As(err, &invalid):
		e.Kind = KindTLS
	case errors.Is(err, gzip.ErrChecksum), errors.Is(err, gzip.ErrHeader):
		e.Kind = KindCorrupt
	case errors.Is(err, io.ErrUnexpectedEOF):
		e.Kind, e.Err = KindTruncated, errors.New("the body ended before its announced length")
	case errors.Is(err, os.ErrNotExist), errors.Is(err, os.ErrPermission):
		e.Kind = KindFile
	default:
		e.Kind = KindNetwork
	}
	return e
}
