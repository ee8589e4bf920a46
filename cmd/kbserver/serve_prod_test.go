package main

import (
	"crypto/tls"
	"encoding/json"
	"errors"
	"flag"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi/apitest"
	"github.com/kbserver/kbserver/internal/testcert"
	"github.com/kbserver/kbserver/internal/testdb"
)

// waitListening waits for serve's "listening" log line and returns the
// address it names.
func (s *server) waitListening(t *testing.T) string {
	t.Helper()
	re := regexp.MustCompile(`msg=listening addr=(\S+)|"msg":"listening","addr":"([^"]+)"`)
	for deadline := time.Now().Add(startWait); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if m := re.FindStringSubmatch(s.stderr.String()); m != nil {
			return m[1] + m[2]
		}
		select {
		case err := <-s.done:
			s.done <- err
			t.Fatalf("serve ended: %v\nstderr:\n%s", err, s.stderr.String())
		default:
		}
	}
	t.Fatalf("no listening line within %s:\n%s", startWait, s.stderr.String())
	return ""
}

// waitReady waits until serve at base answers GET /readyz with 200: its
// store answers and its first search index is installed (/readyz answers
// 503 until then). It fails the test if serve ends, or is not ready
// within startWait.
func (s *server) waitReady(t *testing.T, base string) {
	t.Helper()
	var status int
	var body []byte
	for deadline := time.Now().Add(startWait); time.Now().Before(deadline); {
		var res *http.Response
		res, body = apitest.Do(t, http.DefaultClient, "GET", base+"/readyz", nil)
		if status = res.StatusCode; status == http.StatusOK {
			return
		}
		select {
		case err := <-s.done:
			s.done <- err
			t.Fatalf("serve ended: %v\nstderr:\n%s", err, s.stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("GET /readyz: still %d %s after %s\nstderr:\n%s", status, body, startWait, s.stderr.String())
}

// TestServeHTTPS serves HTTPS with a generated certificate, given through
// environment variables: TLS 1.2 or newer, HTTP/2, and no plain HTTP on
// the port.
func TestServeHTTPS(t *testing.T) {
	certs := testcert.New(t)
	s := startServeEnv(t, map[string]string{"KBSERVER_TLS_CERT": certs.CertFile, "KBSERVER_TLS_KEY": certs.KeyFile},
		"--db", tempDB(t), "serve", "--addr", "127.0.0.1:0")
	addr := s.waitListening(t)
	if !strings.Contains(s.stderr.String(), "scheme=https") {
		t.Errorf("listening line does not say https:\n%s", s.stderr.String())
	}
	resp, err := certs.Client().Get("https://" + addr + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Proto != "HTTP/2.0" || resp.TLS == nil || resp.TLS.Version < tls.VersionTLS12 {
		t.Errorf("GET /healthz over HTTPS: %d %s, TLS %+v", resp.StatusCode, resp.Proto, resp.TLS)
	}
	// An API request over HTTPS answers as over HTTP.
	resp, err = certs.Client().Get("https://" + addr + "/rm/rmaccounts/lib/vendors")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("API request without a key over HTTPS: %d", resp.StatusCode)
	}

	// TLS 1.1 and older are refused at the handshake.
	old := certs.ClientConfig()
	old.MinVersion, old.MaxVersion = tls.VersionTLS10, tls.VersionTLS11
	if conn, err := tls.Dial("tcp", addr, old); err == nil {
		conn.Close()
		t.Error("a TLS 1.1 client completed the handshake")
	}
	// A client that does not trust the certificate's authority fails.
	if resp, err := http.Get("https://" + addr + "/healthz"); err == nil {
		resp.Body.Close()
		t.Error("a client without the test authority trusted the server")
	}
	// Plain HTTP on the HTTPS port is answered 400 by Go's server, never served.
	if resp, err := http.Get("http://" + addr + "/healthz"); err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("plain HTTP on the HTTPS port: %d", resp.StatusCode)
		}
	}
	if err := s.stop(t); err != nil {
		t.Fatal(err)
	}
}

// TestServeHTTPSAnyAddress: with a certificate, kbserver may listen on
// every address.
func TestServeHTTPSAnyAddress(t *testing.T) {
	certs := testcert.New(t)
	s := startServe(t, "--db", tempDB(t), "serve", "--addr", "0.0.0.0:0", "--tls-cert", certs.CertFile, "--tls-key", certs.KeyFile)
	_, port, _ := net.SplitHostPort(s.waitListening(t))
	resp, err := certs.Client().Get("https://127.0.0.1:" + port + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("GET /healthz: %d", resp.StatusCode)
	}
}

// TestServeLoopbackOnly: plain HTTP only on a loopback address, unless
// --insecure-http.
func TestServeLoopbackOnly(t *testing.T) {
	db := tempDB(t)
	for _, addr := range []string{"0.0.0.0:0", ":0"} {
		r := kbs(t, "--db", db, "serve", "--addr", addr)
		if r.code != 1 || !strings.Contains(r.stderr, "refusing to serve plain HTTP on") ||
			!strings.Contains(r.stderr, "--tls-cert") || !strings.Contains(r.stderr, "--insecure-http") {
			t.Errorf("serve --addr %s: exit %d, stderr %q", addr, r.code, r.stderr)
		}
	}
	// Refused before a demo is generated, not after.
	if r := kbs(t, "--db", db, "serve", "--demo", "--addr", "0.0.0.0:0"); r.code != 1 || strings.Contains(r.stderr, "generating") {
		t.Errorf("serve --demo --addr 0.0.0.0:0: exit %d, stderr %q; want 1 before generating", r.code, r.stderr)
	}
	for _, args := range [][]string{
		{"--addr", "localhost:0"},
		{"--addr", "127.0.0.1:0"},
		{"--addr", "0.0.0.0:0", "--insecure-http"},
	} {
		s := startServe(t, append([]string{"--db", db, "serve"}, args...)...)
		addr := s.waitListening(t)
		_, port, _ := net.SplitHostPort(addr)
		if res, _ := apitest.Do(t, http.DefaultClient, "GET", "http://127.0.0.1:"+port+"/healthz", nil); res.StatusCode != 200 {
			t.Errorf("serve %v: GET /healthz %d", args, res.StatusCode)
		}
		if err := s.stop(t); err != nil {
			t.Errorf("serve %v: %v", args, err)
		}
	}
}

// TestServeFlagsFromEnvironment: every serve flag has a KBSERVER_
// variable; the command line wins; a bad value names the variable.
func TestServeFlagsFromEnvironment(t *testing.T) {
	db := tempDB(t)
	logWriter, slogDefault := log.Writer(), slog.Default()
	s := startServeEnv(t, map[string]string{
		"KBSERVER_ADDR":        "127.0.0.1:1", // the command line's --addr wins
		"KBSERVER_ENVIRONMENT": "sandbox",
		"KBSERVER_LOG_FORMAT":  "json",
		"KBSERVER_LOG_LEVEL":   "debug", // /healthz logs at debug level
		"KBSERVER_RATE_LIMIT":  "7.5",
		"KBSERVER_RATE_BURST":  "9",
	}, "--db", db, "serve", "--addr", "127.0.0.1:0")
	addr := s.waitListening(t)
	apitest.Do(t, http.DefaultClient, "GET", "http://"+addr+"/healthz", nil)
	if err := s.stop(t); err != nil {
		t.Fatal(err)
	}
	// Serve made its logger the default while it ran, and put back both
	// slog's default and the log package's output.
	if log.Writer() != logWriter || slog.Default() != slogDefault {
		t.Error("serve left its logger as the process's default")
	}
	var listening, request map[string]any
	for line := range strings.SplitSeq(strings.TrimSpace(s.stderr.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatalf("log line is not JSON: %q", line)
		}
		switch m["msg"] {
		case "listening":
			listening = m
		case "request":
			request = m
		}
	}
	if listening["environment"] != "sandbox" || listening["rate_limit"] != "7.5/s burst 9" || listening["addr"] == "127.0.0.1:1" {
		t.Errorf("listening line %v: want environment sandbox, rate_limit 7.5/s burst 9, the command line's address", listening)
	}
	if request["route"] != "GET /healthz" || request["status"] != float64(200) {
		t.Errorf("request line %v", request)
	}

	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"KBSERVER_RATE_LIMIT": "fast"}, `environment variable KBSERVER_RATE_LIMIT="fast"`},
		{map[string]string{"KBSERVER_ENVIRONMENT": "staging"}, `--environment "staging": use sandbox or production`},
		{map[string]string{"KBSERVER_INSECURE_HTTP": "maybe"}, `KBSERVER_INSECURE_HTTP="maybe"`},
	} {
		r := runCLI(t, invocation{args: []string{"--db", db, "serve"}, env: c.env})
		if r.code != 2 || !strings.Contains(r.stderr, c.want) {
			t.Errorf("env %v: exit %d, stderr %q; want 2 and %q", c.env, r.code, r.stderr, c.want)
		}
		// Help is shown whatever the environment says.
		if r := runCLI(t, invocation{args: []string{"serve", "--help"}, env: c.env}); r.code != 0 || !strings.Contains(r.stdout, "KBSERVER_ADDR") {
			t.Errorf("env %v: serve --help: exit %d, stderr %q", c.env, r.code, r.stderr)
		}
	}
}

func TestServeUsageErrors(t *testing.T) {
	db := tempDB(t)
	certs := testcert.New(t)
	for _, c := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--tls-cert", certs.CertFile}, 2, "--tls-cert and --tls-key go together"},
		{[]string{"--tls-key", certs.KeyFile}, 2, "--tls-cert and --tls-key go together"},
		{[]string{"--tls-cert", certs.CertFile, "--tls-key", certs.KeyFile, "--insecure-http"}, 2, "--insecure-http is for plain HTTP"},
		{[]string{"--tls-cert", "/nonexistent/cert.pem", "--tls-key", certs.KeyFile}, 1, "--tls-cert: stat /nonexistent/cert.pem"},
		{[]string{"--tls-cert", certs.CAFile, "--tls-key", certs.KeyFile}, 1, "private key does not match public key"},
		{[]string{"--environment", "staging"}, 2, `--environment "staging": use sandbox or production`},
		{[]string{"--wire", "folio"}, 2, `--wire "folio": use spec (the specification's shapes) or hosted (the hosted service's, for FOLIO)`},
		{[]string{"--log-format", "xml"}, 2, `--log-format "xml": use text or json`},
		{[]string{"--log-level", "loud"}, 2, `--log-level "loud": use debug, info, warn or error`},
		{[]string{"--rate-limit", "-1"}, 2, "--rate-limit must be a number of requests a second, 0 (no limit) or at least 0.001"},
		{[]string{"--pf-rate-limit", "1e-12"}, 2, "--pf-rate-limit must be a number of requests a second, 0 (no limit) or at least 0.001"},
		{[]string{"--pf-rate-burst", "0"}, 2, "--pf-rate-burst must be from 1 to 1000000"},
		{[]string{"--rate-burst", "1000001"}, 2, "--rate-burst must be from 1 to 1000000"},
	} {
		r := kbs(t, append([]string{"--db", db, "serve", "--addr", "127.0.0.1:0"}, c.args...)...)
		if r.code != c.code || !strings.Contains(r.stderr, c.want) {
			t.Errorf("serve %v: exit %d, stderr %q; want %d and %q", c.args, r.code, r.stderr, c.code, c.want)
		}
	}
}

// TestServeHelpListsEnvironment: serve --help names each flag's variable,
// and the README's configuration table lists every serve flag with it.
func TestServeHelpListsEnvironment(t *testing.T) {
	r := kbs(t, "serve", "--help")
	fs, _ := (&cli{getenv: func(string) string { return "" }, stderr: new(strings.Builder)}).newFlagSet(serveCommand())
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	fs.VisitAll(func(f *flag.Flag) {
		n++
		env := envName(f.Name)
		if f.Name == "db" {
			env = "KBSERVER_DB"
		}
		if !strings.Contains(r.stdout, env) {
			t.Errorf("serve --help does not name %s", env)
		}
		row := "| `--" + f.Name + "` | `" + env + "` |"
		if !strings.Contains(string(readme), row) {
			t.Errorf("README's configuration table lacks the row starting %s", row)
		}
	})
	if n < 15 {
		t.Errorf("only %d serve flags seen", n)
	}
}

// TestServeReadyzWhenDatabaseGone: a running server whose SQLite file is
// deleted stops being ready (it would otherwise go on serving a file no
// one else can see), while it stays alive.
func TestServeReadyzWhenDatabaseGone(t *testing.T) {
	if testdb.Kind() != "sqlite" {
		t.Skip("a database file is SQLite's; on PostgreSQL, internal/postgres tests Ready after the schema is dropped")
	}
	db := tempDB(t)
	s := startServe(t, "--db", db, "serve", "--addr", "127.0.0.1:0")
	base := "http://" + s.waitListening(t)
	// Ready once the first search index is installed, which a loaded
	// machine may take a while to build.
	s.waitReady(t, base)
	logged := len(s.stderr.String())
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(db + suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			t.Fatal(err)
		}
	}
	res, body := apitest.Do(t, http.DefaultClient, "GET", base+"/readyz", nil)
	if res.StatusCode != http.StatusServiceUnavailable || strings.Contains(string(body), db) {
		t.Errorf("GET /readyz after the file was deleted: %d %s; want 503 without the file's name", res.StatusCode, body)
	}
	if log := s.stderr.String()[logged:]; !strings.Contains(log, "msg=\"not ready\"") || !strings.Contains(log, db+" is gone") {
		t.Errorf("the log does not say why /readyz failed:\n%s", log)
	}
	if res, _ := apitest.Do(t, http.DefaultClient, "GET", base+"/healthz", nil); res.StatusCode != 200 {
		t.Errorf("GET /healthz: %d", res.StatusCode)
	}
}

// TestServeMetricsAddr: --metrics-addr moves /metrics to a listener of its
// own (loopback only, as plain HTTP is).
func TestServeMetricsAddr(t *testing.T) {
	db := tempDB(t)
	s := startServe(t, "--db", db, "serve", "--addr", "127.0.0.1:0", "--metrics-addr", "127.0.0.1:0", "--debug-pprof")
	base := "http://" + s.waitListening(t)
	m := regexp.MustCompile(`msg="serving metrics" addr=(\S+)`).FindStringSubmatch(s.stderr.String())
	if m == nil {
		t.Fatalf("no metrics address in the log:\n%s", s.stderr.String())
	}
	if res, _ := apitest.Do(t, http.DefaultClient, "GET", base+"/rm/rmaccounts/lib/vendors", nil); res.StatusCode != http.StatusUnauthorized {
		t.Fatalf("API request: %d", res.StatusCode)
	}
	if res, _ := apitest.Do(t, http.DefaultClient, "GET", base+"/metrics", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("GET /metrics on the main address: %d, want 404", res.StatusCode)
	}
	res, body := apitest.Do(t, http.DefaultClient, "GET", "http://"+m[1]+"/metrics", nil)
	want := `kbserver_http_requests_total{code="401",route="GET /rm/rmaccounts/{custid}/vendors",service="holdings"} 1`
	if res.StatusCode != 200 || !strings.Contains(string(body), want) {
		t.Errorf("GET /metrics on --metrics-addr: %d, want 200 with %s", res.StatusCode, want)
	}
	if res, body := apitest.Do(t, http.DefaultClient, "GET", "http://"+m[1]+"/debug/pprof/heap?debug=1", nil); res.StatusCode != 200 || !strings.Contains(string(body), "heap profile") {
		t.Errorf("GET /debug/pprof/heap on --metrics-addr: %d, %.100s", res.StatusCode, body)
	}
	if res, _ := apitest.Do(t, http.DefaultClient, "GET", base+"/debug/pprof/heap", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("GET /debug/pprof/heap on the main address: %d, want 404", res.StatusCode)
	}
	if res, _ := apitest.Do(t, http.DefaultClient, "GET", "http://"+m[1]+"/debug/pprof/cmdline", nil); res.StatusCode != http.StatusNotFound {
		t.Errorf("GET /debug/pprof/cmdline on --metrics-addr: %d, want 404 (the command line may hold a password)", res.StatusCode)
	}
	if err := s.stop(t); err != nil {
		t.Fatal(err)
	}
	r := kbs(t, "--db", db, "serve", "--addr", "127.0.0.1:0", "--metrics-addr", "0.0.0.0:0")
	if r.code != 1 || !strings.Contains(r.stderr, "--metrics-addr: refusing to serve plain HTTP") {
		t.Errorf("--metrics-addr 0.0.0.0:0: exit %d, stderr %q", r.code, r.stderr)
	}
	r = kbs(t, "--db", db, "serve", "--addr", "127.0.0.1:0", "--debug-pprof")
	if r.code != 1 || !strings.Contains(r.stderr, "--debug-pprof needs --metrics-addr") {
		t.Errorf("--debug-pprof without --metrics-addr: exit %d, stderr %q", r.code, r.stderr)
	}
}
