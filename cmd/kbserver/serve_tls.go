package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"net"
	"os"
	"sync"
	"time"
)

// certCheckEvery is how often, at most, the certificate files are checked
// for a change (at a handshake, never in the background).
const certCheckEvery = time.Minute

// certReloader serves the certificate of --tls-cert and --tls-key, and
// loads them again when their modification times change, so that a
// renewed certificate is used without a restart. A renewal that cannot be
// loaded (say, the key written after the certificate) is logged and the
// previous certificate kept until the next check.
type certReloader struct {
	certFile, keyFile string
	logger            *slog.Logger
	checkEvery        time.Duration // certCheckEvery; tests set 0

	mu      sync.Mutex
	cert    *tls.Certificate
	stamp   [2]time.Time // modification times of the loaded files
	checked time.Time
}

// newCertReloader loads the certificate and key, failing with a message
// that names the file when either cannot be read or they do not match.
func newCertReloader(certFile, keyFile string, logger *slog.Logger) (*certReloader, error) {
	r := &certReloader{certFile: certFile, keyFile: keyFile, logger: logger, checkEvery: certCheckEvery}
	stamp, err := r.stamps()
	if err != nil {
		return nil, err
	}
	cert, err := tls.LoadX509KeyPair(certFile, keyFile)
	if err != nil {
		return nil, fmt.Errorf("--tls-cert %s and --tls-key %s: %w", certFile, keyFile, err)
	}
	r.cert, r.stamp, r.checked = &cert, stamp, time.Now()
	return r, nil
}

// stamps returns the modification times of the two files.
func (r *certReloader) stamps() ([2]time.Time, error) {
	var t [2]time.Time
	for i, f := range []struct{ flag, name string }{{"--tls-cert", r.certFile}, {"--tls-key", r.keyFile}} {
		fi, err := os.Stat(f.name)
		if err != nil {
			return t, fmt.Errorf("%s: %w", f.flag, err)
		}
		t[i] = fi.ModTime()
	}
	return t, nil
}

// get implements tls.Config.GetCertificate.
func (r *certReloader) get(*tls.ClientHelloInfo) (*tls.Certificate, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := time.Now()
	if now.Sub(r.checked) < r.checkEvery {
		return r.cert, nil
	}
	r.checked = now
	stamp, err := r.stamps()
	if err != nil || stamp == r.stamp {
		if err != nil {
			r.logger.Warn("TLS certificate check failed: keeping the loaded certificate", "error", err)
		}
		return r.cert, nil
	}
	cert, err := tls.LoadX509KeyPair(r.certFile, r.keyFile)
	if err != nil {
		r.logger.Warn("TLS certificate changed but does not load: keeping the previous one", "error", err)
		return r.cert, nil
	}
	r.cert, r.stamp = &cert, stamp
	r.logger.Info("TLS certificate reloaded", "cert", r.certFile)
	return r.cert, nil
}

// isLoopback reports whether a listener's address is a loopback address
// (127.0.0.0/8 or ::1), which only this machine can reach.
func isLoopback(addr net.Addr) bool {
	tcp, ok := addr.(*net.TCPAddr)
	return ok && tcp.IP.IsLoopback()
}

// checkLoopback returns notLoopbackError unless every address the host of
// addr (host:port) names is a loopback address. An empty host is every
// address. A host that does not resolve is left to the listen that
// follows, which reports it.
func checkLoopback(ctx context.Context, addr string) error {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil // listen reports the malformed address
	}
	if host == "" {
		return notLoopbackError(addr)
	}
	if ip := net.ParseIP(host); ip != nil {
		if !ip.IsLoopback() {
			return notLoopbackError(addr)
		}
		return nil
	}
	ips, err := net.DefaultResolver.LookupIPAddr(ctx, host)
	if err != nil {
		return nil
	}
	for _, ip := range ips {
		if !ip.IP.IsLoopback() {
			return notLoopbackError(addr)
		}
	}
	return nil
}

// notLoopbackError refuses plain HTTP on addr and says what to do instead.
func notLoopbackError(addr string) error {
	return fmt.Errorf("refusing to serve plain HTTP on %s, which is not a loopback address: "+
		"give --tls-cert and --tls-key to serve HTTPS, or --insecure-http when a TLS-terminating proxy "+
		"in front of kbserver is the only way in", addr)
}
