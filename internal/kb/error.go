package kb

import (
	"errors"
	"fmt"
)

// Code is a stable numeric error code. Codes are part of the wire format:
// never renumber one. The README lists them.
type Code int

// Error codes. The HTTP layer maps each code to a status.
const (
	CodeInternal         Code = 1000 // an unexpected server-side failure (500)
	CodeNotFound         Code = 1001 // the addressed object does not exist (404)
	CodeUnauthenticated  Code = 1003 // missing or unknown API key (401)
	CodeForbidden        Code = 1004 // the key does not belong to this customer (403)
	CodeMissing          Code = 1005 // a required parameter or attribute is missing (400)
	CodeInvalid          Code = 1006 // a parameter or attribute has an invalid value (400)
	CodeMethodNotAllowed Code = 1007 // the route exists but not for this method (405)
	CodeTooLarge         Code = 1008 // the request body is too large (413)
	CodeDuplicate        Code = 1009 // an object with that name already exists (400)
	CodeNotAllowed       Code = 1010 // the operation is not allowed on this object (400)
	CodeConflict         Code = 1011 // the operation conflicts with work in progress (409)
	CodeTooManyRequests  Code = 1013 // the caller's rate limit is used up (429)
	CodeUnavailable      Code = 1014 // the store is busy (an import being applied) or its disk is full: retry later (503)
)

// Error is the error type of the domain: a code and a message a person can
// act on. Wrapped errors keep their code through errors.As.
type Error struct {
	Code    Code
	Message string
	Err     error // optional cause, never shown to clients
}

// Errorf returns an *Error with the given code and formatted message.
func Errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Error implements the error interface.
func (e *Error) Error() string {
	if e.Err != nil {
		return fmt.Sprintf("%s: %v", e.Message, e.Err)
	}
	return e.Message
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// ErrorCode returns the code of the first *Error in err's chain, or
// CodeInternal when there is none. A nil error has no code (0).
func ErrorCode(err error) Code {
	if err == nil {
		return 0
	}
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return CodeInternal
}

// ErrorMessage returns the client-facing message of err: the message of the
// first *Error in its chain, or a generic text for internal errors, so that
// no internal detail leaks to clients.
func ErrorMessage(err error) string {
	var e *Error
	if errors.As(err, &e) {
		return e.Message
	}
	return "Internal server error."
}

// NotFound returns a CodeNotFound error for an object kind ("Vendor",
// "Package", "Title", "Customer").
func NotFound(kind string) *Error {
	return Errorf(CodeNotFound, "%s not found", kind)
}

// ErrDiskFull is in the chain of every error of a write the database
// refused because its disk is full (SQLite's SQLITE_FULL, PostgreSQL's
// SQLSTATE 53100): the error is DiskFull's, CodeUnavailable.
var ErrDiskFull = errors.New("the database's disk is full")

// DiskFullMessage is the client-facing message of a write refused for a
// full disk, and of /readyz while the store's disk is full.
const DiskFullMessage = "The database's disk is full; nothing was written. Writes resume when space is freed: retry later."

// DiskFull returns the CodeUnavailable error of a write the database
// refused for a full disk; cause is the engine's error, kept for the log.
func DiskFull(cause error) *Error {
	return &Error{Code: CodeUnavailable, Message: DiskFullMessage, Err: fmt.Errorf("%w: %w", ErrDiskFull, cause)}
}
