// Package opsapi serves what operators and their tools ask a running
// server, outside the three APIs: GET /healthz (the process answers),
// GET /readyz (the store answers, its schema is current, its disk is
// not full and the search index has been built: send traffic here) and
// GET /metrics (Prometheus). None needs a key; a proxy in front of
// kbserver should keep /metrics to the monitoring network (see
// docs/nginx).
package opsapi

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// Service is the service name of these routes in logs and metrics.
const Service = "ops"

// readyTimeout bounds the store check of /readyz: a load balancer's
// probe must not hang on a store that does not answer.
const readyTimeout = 5 * time.Second

// Routes returns the routes of /healthz, /readyz and, when metrics is not
// nil, /metrics. Why the store is not ready goes to logger, not to the
// client: it names database hosts and files.
func Routes(store kb.OpsStore, search Readiness, metrics http.Handler, logger *slog.Logger) []web.Route {
	routes := []web.Route{
		{Pattern: "GET /healthz", Handler: healthz},
		{Pattern: "GET /readyz", Handler: readyz(store, search, logger)},
	}
	if metrics != nil {
		routes = append(routes, web.Route{Pattern: "GET /metrics", Handler: func(w http.ResponseWriter, r *http.Request) error {
			metrics.ServeHTTP(w, r)
			return nil
		}})
	}
	for i := range routes {
		routes[i].Service = Service
		routes[i].Quiet = true // probed every few seconds: logged at debug level unless they fail
	}
	return routes
}

// status is the body of /healthz and /readyz.
type status struct {
	Status string `json:"status"`          // "ok" or "unavailable"
	Error  string `json:"error,omitempty"` // where to look when unavailable
}

// errNoStore is why a server without a store is not ready.
var errNoStore = errors.New("no store")

// notReady is the error of /readyz's 503; the details are in the log.
const notReady = "The store is not ready; the server log says why."

// healthz answers 200 while the process serves HTTP at all.
func healthz(w http.ResponseWriter, r *http.Request) error {
	return web.WriteJSON(w, http.StatusOK, status{Status: "ok"})
}

// Readiness is the search service's part of /readyz: an error while its
// index has not been built once since the server started.
type Readiness interface {
	Ready() error
}

// readyz answers 200 when the store answers, its schema is current and
// the search index has been built, and 503 otherwise, logging the reason
// at warning level. The answer says the reason only when it is a kb
// error, whose message is written for clients (a full disk); the others
// name database hosts and files.
func readyz(store kb.OpsStore, search Readiness, logger *slog.Logger) web.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		err := errNoStore
		if store != nil {
			ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
			defer cancel()
			err = store.Ready(ctx)
		}
		if err == nil && search != nil {
			err = search.Ready()
		}
		if err != nil {
			logger.LogAttrs(r.Context(), slog.LevelWarn, "not ready", slog.String("error", err.Error()))
			msg := notReady
			if kb.ErrorCode(err) != kb.CodeInternal {
				msg = kb.ErrorMessage(err)
			}
			return web.WriteJSON(w, http.StatusServiceUnavailable, status{Status: "unavailable", Error: msg})
		}
		return web.WriteJSON(w, http.StatusOK, status{Status: "ok"})
	}
}
