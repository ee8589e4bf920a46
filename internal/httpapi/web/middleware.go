package web

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"runtime/debug"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// requestInfo collects what the request log line reports that only the
// routed handler knows.
type requestInfo struct {
	Route   string // the matched ServeMux pattern
	Service string // the service of the matched route (Route.Service)
	Quiet   bool   // log success at debug level (Route.Quiet)
	CustID  string // the custid path parameter, when the route has one
	// ClientGone is set when the client went away before the handler
	// answered: the request is a client abort, whatever it returned.
	ClientGone bool
}

// Observer is told about every request Serve serves, for metrics.
type Observer interface {
	// Started is called as a request arrives.
	Started()
	// Finished is called when its answer is written: the service and
	// route pattern ("" when no route matched), the status and the time
	// it took.
	Finished(service, route string, status int, d time.Duration)
}

// requestIDHeader carries an id a proxy gave the request (nginx's
// $request_id); the request log line repeats it, so that the proxy's log
// and kbserver's can be joined.
const requestIDHeader = "X-Request-Id"

// statusAborted is the status logged and counted for a request whose
// handler aborted (http.ErrAbortHandler) before answering anything, or
// whose client went away before the answer: the client got no answer (or
// not all of it). It is nginx's code for a request that ended without one.
const statusAborted = 499

// maxLogText bounds a value a log line carries from a request (its path,
// an error that may quote what it sent): a long one is cut, saying how
// much was left out.
const maxLogText = 300

// logText cuts s to maxLogText bytes, saying how many it left out.
func logText(s string) string {
	if len(s) <= maxLogText {
		return s
	}
	cut := kb.Truncate(s, maxLogText)
	return cut + fmt.Sprintf("… (%d more bytes)", len(s)-len(cut))
}

// maxRequestID bounds the request id logged.
const maxRequestID = 64

type infoKey struct{}

// infoFrom returns the request's log information, or nil outside Serve.
func infoFrom(ctx context.Context) *requestInfo {
	info, _ := ctx.Value(infoKey{}).(*requestInfo)
	return info
}

// Serve wraps the handler of a whole server: it limits request bodies to
// maxBody bytes (a larger declared Content-Length is refused at once, a
// larger chunked body fails when read), answers 500 JSON for a panic,
// logs one line per request (method, path, route pattern, service,
// status, duration, custid and the proxy's request id; never the query,
// the API key or a password) and tells observers about it. next is
// normally the result of Fallback.
func Serve(next http.Handler, logger *slog.Logger, maxBody int64, observers ...Observer) http.Handler {
	if logger == nil {
		logger = slog.Default()
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		info := &requestInfo{}
		r = r.WithContext(context.WithValue(r.Context(), infoKey{}, info))
		if r.Body != nil && r.Body != http.NoBody {
			r.Body = http.MaxBytesReader(w, r.Body, maxBody)
		}
		rec := &statusRecorder{ResponseWriter: w}
		for _, o := range observers {
			o.Started()
		}
		defer func() {
			p := recover()
			aborted := p == http.ErrAbortHandler
			if aborted {
				// The handler aborted the answer on purpose: count and
				// log the request, then let net/http drop the connection.
				defer panic(p)
			} else if p != nil {
				logger.LogAttrs(r.Context(), slog.LevelError, "panic serving request",
					slog.String("method", r.Method),
					slog.String("route", info.Route),
					slog.String("panic", logText(fmt.Sprint(p))),
					slog.String("stack", string(debug.Stack())))
				if !rec.started() {
					WriteErrorModel(rec, r, http.StatusInternalServerError,
						ErrorModel{Code: kb.CodeInternal, Message: internalMessage}, false)
				}
			}
			elapsed := time.Since(start)
			status := rec.statusCode()
			if (aborted && !rec.started()) || info.ClientGone {
				status = statusAborted
			}
			for _, o := range observers {
				o.Finished(info.Service, info.Route, status, elapsed)
			}
			attrs := []slog.Attr{
				slog.String("method", r.Method),
				slog.String("path", logText(r.URL.Path)),
				slog.String("route", info.Route),
				slog.String("service", info.Service),
				slog.Int("status", status),
				slog.Duration("duration", elapsed),
			}
			if info.CustID != "" {
				attrs = append(attrs, slog.String("custid", logText(info.CustID)))
			}
			if aborted || info.ClientGone {
				attrs = append(attrs, slog.Bool("aborted", true))
			}
			if id := r.Header.Get(requestIDHeader); id != "" {
				attrs = append(attrs, slog.String("request_id", kb.Truncate(id, maxRequestID)))
			}
			level := slog.LevelInfo
			if info.Quiet && status < 400 {
				level = slog.LevelDebug
			}
			logger.LogAttrs(r.Context(), level, "request", attrs...)
		}()
		if r.ContentLength > maxBody {
			// Refuse a body known to be too large before any handler
			// runs, whether or not the route reads bodies.
			WriteErrorModel(rec, r, http.StatusRequestEntityTooLarge,
				ErrorModel{Code: kb.CodeTooLarge, Message: fmt.Sprintf("Request body is larger than %d bytes.", maxBody)}, false)
			return
		}
		next.ServeHTTP(rec, r)
	})
}

// statusRecorder remembers the status a handler wrote.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

// WriteHeader implements http.ResponseWriter.
func (s *statusRecorder) WriteHeader(status int) {
	if s.status == 0 {
		s.status = status
	}
	s.ResponseWriter.WriteHeader(status)
}

// Write implements http.ResponseWriter.
func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

// Unwrap returns the wrapped writer, for http.ResponseController.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

func (s *statusRecorder) started() bool { return s.status != 0 }

// statusCode returns the status sent, 200 when the handler wrote nothing.
func (s *statusRecorder) statusCode() int {
	if s.status == 0 {
		return http.StatusOK
	}
	return s.status
}
