package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/kbserver/kbserver/internal/metrics"
)

// metricsServer serves GET /metrics on an address of its own
// (--metrics-addr), for a kbserver whose main address faces the clients,
// and with --debug-pprof Go's profiles under /debug/pprof/ (never on the
// main address; not the command line, which may hold a database URL's
// password).
type metricsServer struct {
	srv    *http.Server
	served chan error
	logger *slog.Logger
}

// startMetrics listens on addr and serves m there, and Go's profiles when
// profiles is true. With loopbackOnly, an address that is not a loopback
// one is refused.
func startMetrics(ctx context.Context, addr string, loopbackOnly, profiles bool, m *metrics.Metrics, logger *slog.Logger) (*metricsServer, error) {
	ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("--metrics-addr: listen: %w", err)
	}
	if loopbackOnly && !isLoopback(ln.Addr()) {
		ln.Close()
		return nil, fmt.Errorf("--metrics-addr: %w", notLoopbackError(ln.Addr().String()))
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", m.Handler())
	if profiles {
		mux.HandleFunc("GET /debug/pprof/", pprof.Index)
		mux.HandleFunc("GET /debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("GET /debug/pprof/symbol", pprof.Symbol)
		mux.HandleFunc("GET /debug/pprof/trace", pprof.Trace)
	}
	s := &metricsServer{
		srv: &http.Server{
			Handler:           mux,
			ReadHeaderTimeout: 10 * time.Second,
			WriteTimeout:      2 * time.Minute, // a CPU profile takes its seconds
			IdleTimeout:       2 * time.Minute,
			ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
		},
		served: make(chan error, 1),
		logger: logger,
	}
	logger.Info("serving metrics", "addr", ln.Addr().String())
	go func() { s.served <- s.srv.Serve(ln) }()
	return s, nil
}

// close stops the metrics server at once: scrapes are short, and one
// lost at shutdown costs nothing.
func (s *metricsServer) close() {
	s.srv.Close()
	if err := <-s.served; err != nil && !errors.Is(err, http.ErrServerClosed) {
		s.logger.Warn("metrics server", "error", err)
	}
}
