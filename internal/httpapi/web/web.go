// Package web holds the pieces every HTTP API family of kbserver shares: the
// error-returning handler type and the adapter that renders its errors, the
// JSON writer and reader, the customer API-key check, path and query
// parameter helpers, the request middleware (logging, panic recovery, body
// limit) and the JSON answers for unknown routes and wrong methods.
//
// The API families (holdingsapi, pfapi and ermapi) import this package;
// it imports none of them.
package web

import (
	"log/slog"
	"net/http"
)

// HandlerFunc is an HTTP handler that reports failure by returning an error.
// A handler that returns an error must not have written anything: the
// adapter renders the error as the API's JSON error body.
type HandlerFunc func(w http.ResponseWriter, r *http.Request) error

// Middleware wraps a HandlerFunc, for example to check credentials.
type Middleware func(HandlerFunc) HandlerFunc

// Route is one route of an API family: a ServeMux pattern with method and
// path, its handler, and the error statuses for which the route answers a
// single error object instead of the default array of error objects.
type Route struct {
	// Pattern is a Go 1.22 ServeMux pattern, e.g. "GET /rm/rmaccounts/{custid}/vendors".
	Pattern string
	// Handler serves the route.
	Handler HandlerFunc
	// ObjectErrors lists the HTTP statuses whose error body is a single
	// error object ({"code":..,"subcode":..,"message":..}); every other
	// error body is an array of such objects.
	ObjectErrors []int
	// HostedErrors names the statuses whose errors the hosted service
	// answers this route in another envelope than EnvelopeErrors; only
	// the hosted wire reads it (WireHosted).
	HostedErrors map[int]HostedEnvelope
	// HeaderErrors makes the route answer errors with no body and the
	// message in the X-Error-Message header, as the publication search
	// service does. ObjectErrors is then ignored.
	HeaderErrors bool
	// ErrorPage renders the route's errors instead, for the pages people
	// read: it gets the status and the message a client may see (internal
	// errors are logged here and shown as a generic message).
	// HeaderErrors and ObjectErrors are then ignored.
	ErrorPage func(w http.ResponseWriter, r *http.Request, status int, message string)
	// JSONErrors, with ErrorPage, tells the requests that asked for JSON:
	// their errors are JSON error bodies (with their codes), the others'
	// pages. nil: every error is a page.
	JSONErrors func(r *http.Request) bool
	// Service names the service the route belongs to ("holdings",
	// "publication-search", …), for logs and metrics.
	Service string
	// Quiet logs the route's successful requests at debug level, not
	// info: health probes and metrics scrapes every few seconds would
	// bury the requests of clients.
	Quiet bool
}

// Mount registers routes on mux, each through an adapter that logs internal
// errors to logger. It panics, as ServeMux.Handle does, on an invalid or
// conflicting pattern.
func Mount(mux *http.ServeMux, logger *slog.Logger, routes []Route) {
	if logger == nil {
		logger = slog.Default()
	}
	for _, rt := range routes {
		mux.Handle(rt.Pattern, adapter{route: rt, logger: logger})
	}
}

// adapter serves one Route: it runs the handler and renders its error.
type adapter struct {
	route  Route
	logger *slog.Logger
}

// ServeHTTP implements http.Handler.
func (a adapter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if info := infoFrom(r.Context()); info != nil {
		info.Route = r.Pattern
		info.Service = a.route.Service
		info.Quiet = a.route.Quiet
		info.CustID = r.PathValue("custid")
	}
	tw := &trackingWriter{ResponseWriter: w}
	err := checkRequestText(r)
	if err == nil {
		err = a.route.Handler(tw, r)
	}
	if err == nil {
		return
	}
	if r.Context().Err() != nil {
		// The client went away while the handler worked (the store's
		// error is then mostly "context canceled"): there is nobody to
		// answer, and it is no fault of the server's. Serve logs and
		// counts the request as a client abort.
		if info := infoFrom(r.Context()); info != nil {
			info.ClientGone = true
		}
		a.logger.LogAttrs(r.Context(), slog.LevelDebug, "client gone before the answer",
			slog.String("route", r.Pattern), slog.String("error", logText(err.Error())))
		return
	}
	if tw.started {
		// The answer has begun; there is no way to report the error to
		// the client any more.
		a.logger.LogAttrs(r.Context(), slog.LevelError, "handler failed after the response started",
			slog.String("route", r.Pattern), slog.String("error", logText(err.Error())))
		return
	}
	if a.route.ErrorPage != nil && (a.route.JSONErrors == nil || !a.route.JSONErrors(r)) {
		status, model := classify(err)
		if status == http.StatusInternalServerError {
			logInternal(r, a.logger, err)
		}
		retryAfter(tw, err, status)
		a.route.ErrorPage(tw, r, status, model.Message)
		return
	}
	if a.route.HeaderErrors {
		writeHeaderError(tw, r, a.logger, err)
		return
	}
	writeError(tw, r, a.logger, err, a.route)
}

// trackingWriter records whether the response has started.
type trackingWriter struct {
	http.ResponseWriter
	started bool
}

// WriteHeader implements http.ResponseWriter.
func (t *trackingWriter) WriteHeader(status int) {
	t.started = true
	t.ResponseWriter.WriteHeader(status)
}

// Write implements http.ResponseWriter.
func (t *trackingWriter) Write(b []byte) (int, error) {
	t.started = true
	return t.ResponseWriter.Write(b)
}

// Unwrap returns the wrapped writer, for http.ResponseController.
func (t *trackingWriter) Unwrap() http.ResponseWriter { return t.ResponseWriter }
