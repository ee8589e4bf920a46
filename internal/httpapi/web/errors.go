package web

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"slices"

	"github.com/kbserver/kbserver/internal/kb"
)

// internalMessage is the only message a client sees for an unexpected error.
const internalMessage = "Internal server error."

// ErrorModel is the wire form of one error: a kb.Code, a subcode (always 0
// for now) and a message a person can act on.
type ErrorModel struct {
	Code    kb.Code `json:"code"`
	Subcode int     `json:"subcode"`
	Message string  `json:"message"`
}

// StatusFor returns the HTTP status for an error code; unknown codes and
// CodeInternal give 500.
func StatusFor(code kb.Code) int {
	switch code {
	case kb.CodeNotFound:
		return http.StatusNotFound
	case kb.CodeUnauthenticated:
		return http.StatusUnauthorized
	case kb.CodeForbidden:
		return http.StatusForbidden
	case kb.CodeMissing, kb.CodeInvalid, kb.CodeDuplicate, kb.CodeNotAllowed:
		return http.StatusBadRequest
	case kb.CodeMethodNotAllowed:
		return http.StatusMethodNotAllowed
	case kb.CodeTooLarge:
		return http.StatusRequestEntityTooLarge
	case kb.CodeConflict:
		return http.StatusConflict
	case kb.CodeTooManyRequests:
		return http.StatusTooManyRequests
	case kb.CodeUnavailable:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}

// classify returns the status and the client-facing error of err. A request
// body over the limit is CodeTooLarge even when the handler did not wrap
// it; everything without a known code is an internal error whose details
// are not shown.
func classify(err error) (int, ErrorModel) {
	var tooLarge *http.MaxBytesError
	if errors.As(err, &tooLarge) && kb.ErrorCode(err) == kb.CodeInternal {
		return http.StatusRequestEntityTooLarge, ErrorModel{
			Code:    kb.CodeTooLarge,
			Message: fmt.Sprintf("Request body is larger than %d bytes.", tooLarge.Limit),
		}
	}
	code := kb.ErrorCode(err)
	status := StatusFor(code)
	if status == http.StatusInternalServerError {
		return status, ErrorModel{Code: kb.CodeInternal, Message: internalMessage}
	}
	return status, ErrorModel{Code: code, Message: kb.ErrorMessage(err)}
}

// ErrorMessageHeader is the response header that carries the error message
// of the routes that answer errors with no body (Route.HeaderErrors).
const ErrorMessageHeader = "X-Error-Message"

// writeHeaderError renders err with no body: the status, and the message
// in the X-Error-Message header. Internal errors are logged as writeError
// logs them.
func writeHeaderError(w http.ResponseWriter, r *http.Request, logger *slog.Logger, err error) {
	status, model := classify(err)
	if status == http.StatusInternalServerError {
		logInternal(r, logger, err)
	}
	w.Header().Set(ErrorMessageHeader, model.Message)
	retryAfter(w, err, status)
	w.WriteHeader(status)
}

// busyRetry is the Retry-After, in seconds, of a 503: the store was busy
// for the busy timeout already, and an import's apply rarely takes longer.
const busyRetry = "2"

// diskFullRetry is the Retry-After, in seconds, of a 503 for a full disk:
// someone has to free space first, which takes longer than a busy
// store's wait, and a client retrying every 2 seconds meanwhile only
// adds load.
const diskFullRetry = "30"

// retryAfter sets Retry-After on a 503 (err's).
func retryAfter(w http.ResponseWriter, err error, status int) {
	if status != http.StatusServiceUnavailable {
		return
	}
	if errors.Is(err, kb.ErrDiskFull) {
		w.Header().Set("Retry-After", diskFullRetry)
		return
	}
	w.Header().Set("Retry-After", busyRetry)
}

// InPlace returns the status and the client-facing message of err, a
// kb error, for a page that shows the message in place (a console form
// shown again with what was typed), and sets Retry-After on w when the
// status asks for one, as the adapter does for the errors it renders.
func InPlace(w http.ResponseWriter, err error) (status int, message string) {
	status = StatusFor(kb.ErrorCode(err))
	retryAfter(w, err, status)
	return status, kb.ErrorMessage(err)
}

// writeError renders err as a JSON error body. object reports whether a
// status is answered with a single error object rather than an array.
// Internal errors are logged with the route pattern; the client only sees a
// generic message.
func writeError(w http.ResponseWriter, r *http.Request, logger *slog.Logger, err error, route Route) {
	status, model := classify(err)
	if status == http.StatusInternalServerError {
		logInternal(r, logger, err)
	}
	retryAfter(w, err, status)
	writeErrorBody(w, r, status, model, slices.Contains(route.ObjectErrors, status), route.HostedErrors[status])
}

// WriteErrorModel writes one error with the given status in the request's
// wire (Wire.errorBody): on the spec's wire as a single object when object
// is true, else as an array of one object; on the hosted wire in its usual
// envelope (answers outside a route's handler: unknown routes, panics,
// bodies over the limit).
func WriteErrorModel(w http.ResponseWriter, r *http.Request, status int, model ErrorModel, object bool) {
	writeErrorBody(w, r, status, model, object, EnvelopeErrors)
}

// writeErrorBody writes one error with the given status in the request's
// wire, in hosted on the hosted wire.
func writeErrorBody(w http.ResponseWriter, r *http.Request, status int, model ErrorModel, object bool, hosted HostedEnvelope) {
	body := WireOf(r).errorBody(model, object, hosted)
	// An error body that cannot be written means the client went away;
	// there is nobody left to tell.
	_ = WriteJSON(w, status, body)
}

// logInternal logs an internal error with its route pattern.
func logInternal(r *http.Request, logger *slog.Logger, err error) {
	logger.LogAttrs(r.Context(), slog.LevelError, "internal error",
		slog.String("method", r.Method),
		slog.String("route", r.Pattern),
		slog.String("error", logText(err.Error())))
}
