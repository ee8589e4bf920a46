package main

import (
	"crypto/tls"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi/apitest"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/testcert"
)

// nginxSiteFile is the nginx example of the documentation, relative to
// this package's directory.
const nginxSiteFile = "../../docs/nginx/kbserver.conf"

// TestNginxExample runs docs/nginx/kbserver.conf with the nginx on this
// machine (Debian's, as .ci/run installs it) in front of a kbserver serve
// on the loopback interface, and checks what the example promises: HTTPS
// with HTTP/2 and TLS 1.2 or later only, plain HTTP redirected, kbserver's
// own answers passed through, the 1 MiB body limit, and /metrics for local
// clients only. Without nginx it skips, except under CI=true, where it
// fails.
func TestNginxExample(t *testing.T) {
	nginx := findNginx(t)
	site, err := os.ReadFile(nginxSiteFile)
	if err != nil {
		t.Fatal(err)
	}

	db := tempDB(t)
	kbs(t, "--db", db, "customer", "add", "nginxlib").mustSucceed(t, "customer add")
	key := strings.TrimSpace(kbs(t, "--db", db, "apikey", "add", "nginxlib").mustSucceed(t, "apikey add").stdout)
	s := startServe(t, "--db", db, "serve", "--addr", "127.0.0.1:0", "--log-level", "debug") // health probes and scrapes log at debug
	upstream := s.listeningAddr(t)

	certs := testcert.New(t)
	ipv6 := loopbackIPv6()
	proxy := startNginx(t, nginx, string(site), certs, upstream, ipv6, nil)
	client := certs.Client()
	vendors := "/rm/rmaccounts/nginxlib/vendors?count=10&offset=1"

	t.Run("API over HTTP/2", func(t *testing.T) {
		resp, body := apitest.Do(t, client, http.MethodGet, proxy.https+vendors, nil, "x-api-key", key, "X-Request-Id", "nginx-test-1")
		if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
			t.Fatalf("GET %s: %d %s %.300s", vendors, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
		if resp.Proto != "HTTP/2.0" {
			t.Errorf("protocol %s, want HTTP/2.0", resp.Proto)
		}
		var v struct {
			TotalResults *int              `json:"totalResults"`
			Vendors      []json.RawMessage `json:"vendors"`
		}
		if err := json.Unmarshal(body, &v); err != nil || v.TotalResults == nil || *v.TotalResults < 1 {
			t.Errorf("vendors (the customer's own at least): %v %.300s", err, body)
		}
		if got := resp.Header.Get("X-Request-Id"); got != "nginx-test-1" {
			t.Errorf("X-Request-Id %q, want the client's nginx-test-1", got)
		}
		// The request reached kbserver, which logged it.
		s.waitLog(t, `msg=request method=GET path=/rm/rmaccounts/nginxlib/vendors .*status=200 .*request_id=nginx-test-1`)
	})

	t.Run("request id made by nginx", func(t *testing.T) {
		resp, _ := apitest.Do(t, client, http.MethodGet, proxy.https+vendors, nil, "x-api-key", key)
		if resp.StatusCode != http.StatusOK || resp.Header.Get("X-Request-Id") == "" {
			t.Errorf("%d, X-Request-Id %q: want 200 and nginx's own id", resp.StatusCode, resp.Header.Get("X-Request-Id"))
		}
	})

	t.Run("kbserver's 401", func(t *testing.T) {
		resp, body := apitest.Do(t, client, http.MethodGet, proxy.https+vendors, nil)
		var errs []struct {
			Code    kb.Code `json:"code"`
			Message string  `json:"message"`
		}
		if err := json.Unmarshal(body, &errs); resp.StatusCode != http.StatusUnauthorized || err != nil ||
			len(errs) != 1 || errs[0].Code != kb.CodeUnauthenticated || errs[0].Message == "" {
			t.Errorf("without a key: %d %v %.300s, want kbserver's 401 JSON error", resp.StatusCode, err, body)
		}
	})

	t.Run("plain HTTP redirects", func(t *testing.T) {
		resp, body := apitest.Do(t, client, http.MethodGet, proxy.http+vendors, nil)
		// $server_name is the example's host name, which the test keeps.
		want := "https://kb.example.org" + vendors
		if resp.StatusCode != http.StatusMovedPermanently || resp.Header.Get("Location") != want {
			t.Errorf("%d Location %q %.200s, want 301 to %s", resp.StatusCode, resp.Header.Get("Location"), body, want)
		}
	})

	// TLS 1.1 is kept off three times over: by the example's
	// ssl_protocols, by its AEAD-only ciphers (which TLS 1.1 cannot use),
	// and by Debian's OpenSSL 3 at its default security level. The first
	// case checks what a client sees, not which of them refused it.
	for _, tc := range []struct {
		name     string
		min, max uint16
		ok       bool
	}{
		{"TLS 1.1 refused", tls.VersionTLS10, tls.VersionTLS11, false},
		{"TLS 1.2 accepted", tls.VersionTLS12, tls.VersionTLS12, true},
		{"TLS 1.3 accepted", tls.VersionTLS13, tls.VersionTLS13, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := certs.ClientConfig()
			cfg.MinVersion, cfg.MaxVersion = tc.min, tc.max
			cfg.NextProtos = []string{"h2", "http/1.1"}
			conn, err := tls.DialWithDialer(&net.Dialer{Timeout: 10 * time.Second}, "tcp", strings.TrimPrefix(proxy.https, "https://"), cfg)
			if err == nil {
				defer conn.Close()
				if p := conn.ConnectionState().NegotiatedProtocol; p != "h2" {
					t.Errorf("ALPN %q, want h2", p)
				}
			}
			if ok := err == nil; ok != tc.ok {
				t.Errorf("handshake: %v, want success %v", err, tc.ok)
			}
		})
	}

	t.Run("body over 1 MiB refused by nginx", func(t *testing.T) {
		body := strings.Repeat("x", 1<<20+1)
		resp, got := apitest.Do(t, client, http.MethodPost, proxy.https+"/rm/rmaccounts/nginxlib/vendors", strings.NewReader(body), "x-api-key", key, "Content-Type", "application/json")
		// kbserver's own 413 would be JSON.
		if resp.StatusCode != http.StatusRequestEntityTooLarge || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Errorf("%d %s %.200s, want nginx's 413", resp.StatusCode, resp.Header.Get("Content-Type"), got)
		}
	})

	for _, path := range []string{"/healthz", "/readyz"} {
		t.Run(path+" passed through", func(t *testing.T) {
			resp, body := apitest.Do(t, client, http.MethodGet, proxy.https+path, nil)
			if resp.StatusCode == http.StatusBadGateway || resp.StatusCode == http.StatusForbidden {
				t.Errorf("%d %.200s: nginx answered", resp.StatusCode, body)
			}
			s.waitLog(t, `msg=request method=GET path=`+regexp.QuoteMeta(path)+` `)
		})
	}

	// /metrics is for loopback clients: the example allows 127.0.0.1 and
	// ::1 and denies every other address. A test's requests come from the
	// loopback interface only, so the deny is checked on a second nginx
	// running the same file with other addresses allowed (documentation
	// addresses that never occur here): there, 127.0.0.1 is an other
	// client, and must get nginx's 403.
	t.Run("metrics for loopback clients", func(t *testing.T) {
		urls := []string{proxy.https + "/metrics"}
		if proxy.https6 != "" {
			urls = append(urls, proxy.https6+"/metrics")
		}
		for _, u := range urls {
			resp, body := apitest.Do(t, client, http.MethodGet, u, nil)
			if resp.StatusCode == http.StatusForbidden || resp.StatusCode == http.StatusBadGateway {
				t.Errorf("GET %s: %d %.200s, want it passed to kbserver", u, resp.StatusCode, body)
			}
		}
		s.waitLog(t, `msg=request method=GET path=/metrics `)
	})
	t.Run("metrics denied to others", func(t *testing.T) {
		restricted := startNginx(t, nginx, string(site), certs, upstream, ipv6, []replacement{
			{"allow 127.0.0.1;", "allow 192.0.2.1;"},
			{"allow ::1;", "allow 2001:db8::1;"},
		})
		resp, body := apitest.Do(t, client, http.MethodGet, restricted.https+"/metrics", nil)
		if resp.StatusCode != http.StatusForbidden || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") {
			t.Errorf("GET /metrics: %d %s %.200s, want nginx's 403", resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
		// Only /metrics is restricted.
		if resp, body := apitest.Do(t, client, http.MethodGet, restricted.https+vendors, nil, "x-api-key", key); resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s: %d %.200s", vendors, resp.StatusCode, body)
		}
	})
}

// findNginx returns the nginx program: the one on PATH, else Debian's
// /usr/sbin/nginx (not on a normal user's PATH). Without it the test
// skips, or fails under CI=true.
func findNginx(t *testing.T) string {
	t.Helper()
	path, err := exec.LookPath("nginx")
	if err != nil {
		if _, serr := os.Stat("/usr/sbin/nginx"); serr == nil {
			return "/usr/sbin/nginx"
		}
		if os.Getenv("CI") == "true" {
			t.Fatal("nginx is not installed (.ci/run installs Debian's nginx): the nginx example cannot be tested")
		}
		t.Skip("nginx is not on PATH: install it (apt-get install nginx) to test docs/nginx/kbserver.conf")
	}
	return path
}

// listeningAddr waits for serve's listening line and returns its address.
func (s *server) listeningAddr(t *testing.T) string {
	t.Helper()
	re := regexp.MustCompile(`msg=listening addr=(127\.0\.0\.1:\d+)`)
	for deadline := time.Now().Add(startWait); time.Now().Before(deadline); {
		if m := re.FindStringSubmatch(s.stderr.String()); m != nil {
			return m[1]
		}
		select {
		case err := <-s.done:
			t.Fatalf("serve ended: %v\nstderr:\n%s", err, s.stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("no listening line within %s:\n%s", startWait, s.stderr.String())
	return ""
}

// waitLog waits until serve's log has a line matching pattern: a request
// is logged after its answer is written, so the client may see the answer
// first.
func (s *server) waitLog(t *testing.T, pattern string) {
	t.Helper()
	re := regexp.MustCompile(`(?m)^.*` + pattern + `.*$`)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if re.MatchString(s.stderr.String()) {
			return
		}
	}
	t.Errorf("serve's log has no line matching %q:\n%s", pattern, s.stderr.String())
}

// replacement is one change the test makes to the example: old must occur
// exactly once in the file.
type replacement struct{ old, new string }

// runningNginx is an nginx started by startNginx: the base URLs of its
// HTTPS and plain HTTP servers (https6 is the HTTPS server on ::1, ""
// without IPv6).
type runningNginx struct {
	https, https6, http string
}

// startNginx runs the example site with nginx until the test ends: its
// placeholders replaced by free loopback ports, the test's certificate and
// upstream (kbserver's address), then the extra replacements; the result
// included by a minimal main configuration whose files all lie in a
// temporary directory. It retries with other ports when one was taken
// meanwhile.
func startNginx(t *testing.T, nginx, site string, certs *testcert.Certs, upstream string, ipv6 bool, extra []replacement) runningNginx {
	t.Helper()
	for attempt := 1; ; attempt++ {
		n, errLog, err := tryNginx(t, nginx, site, certs, upstream, ipv6, extra)
		if err == nil {
			return n
		}
		if attempt < 3 && strings.Contains(errLog, "Address already in use") {
			t.Logf("nginx: a port was taken meanwhile, trying others: %v", err)
			continue
		}
		t.Fatalf("nginx: %v\nerror log:\n%s", err, errLog)
	}
}

// tryNginx is one attempt of startNginx; it returns the error log's text
// with any error.
func tryNginx(t *testing.T, nginx, site string, certs *testcert.Certs, upstream string, ipv6 bool, extra []replacement) (runningNginx, string, error) {
	t.Helper()
	// The ports stay held (listened on) until just before nginx starts:
	// two distinct ports no one else can take meanwhile.
	ports := holdPorts(t, 2, ipv6)
	defer ports.release()
	httpPort, httpsPort := ports.ports[0], ports.ports[1]
	// The listen lines keep what follows the port (ssl http2), so that
	// the test checks the example's own parameters; without IPv6 the
	// [::] lines become comments.
	listen6 := func(port int) string {
		if !ipv6 {
			return "# no IPv6 loopback on this machine: listen [::]:"
		}
		return fmt.Sprintf("listen [::1]:%d", port)
	}
	repl := []replacement{
		{"listen 80;", fmt.Sprintf("listen 127.0.0.1:%d;", httpPort)},
		{"listen [::]:80;", listen6(httpPort) + ";"},
		{"listen 443 ", fmt.Sprintf("listen 127.0.0.1:%d ", httpsPort)},
		{"listen [::]:443 ", listen6(httpsPort) + " "},
		{"/etc/ssl/certs/kb.example.org.pem", strconv.Quote(certs.CertFile)},
		{"/etc/ssl/private/kb.example.org.key", strconv.Quote(certs.KeyFile)},
		{"server 127.0.0.1:8080;", "server " + upstream + ";"},
	}
	for _, r := range append(repl, extra...) {
		if n := strings.Count(site, r.old); n != 1 {
			t.Fatalf("%s has %q %d times, want once: the example and TestNginxExample have drifted apart", nginxSiteFile, r.old, n)
		}
		site = strings.Replace(site, r.old, r.new, 1)
	}

	dir := t.TempDir()
	in := func(name string) string { return strconv.Quote(filepath.Join(dir, name)) }
	sitePath := filepath.Join(dir, "kbserver.conf")
	// One process, no privileges to drop (master_process off), in the
	// foreground; the http block sets what Debian's nginx.conf sets that
	// the site depends on, TLS 1.0 and 1.1 included, which the site must
	// turn off itself.
	main := fmt.Sprintf(`daemon off;
master_process off;
pid %s;
error_log %s info;
events { worker_connections 64; }
http {
    ssl_protocols TLSv1 TLSv1.1 TLSv1.2 TLSv1.3;
    access_log %s;
    client_body_temp_path %s;
    proxy_temp_path %s;
    fastcgi_temp_path %s;
    uwsgi_temp_path %s;
    scgi_temp_path %s;
    include %s;
}
`, in("nginx.pid"), in("error.log"), in("access.log"), in("client_body"), in("proxy"), in("fastcgi"), in("uwsgi"), in("scgi"), strconv.Quote(sitePath))
	mainPath := filepath.Join(dir, "nginx.conf")
	for path, text := range map[string]string{sitePath: site, mainPath: main} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	errLogPath := filepath.Join(dir, "error.log")
	errLog := func() string { b, _ := os.ReadFile(errLogPath); return string(b) }
	args := []string{"-p", dir + "/", "-e", errLogPath, "-c", mainPath}

	if out, err := exec.Command(nginx, append([]string{"-t"}, args...)...).CombinedOutput(); err != nil {
		t.Fatalf("nginx -t: %v\n%s%s\nsite configuration:\n%s", err, out, errLog(), site)
	}
	cmd := exec.Command(nginx, args...)
	var output apitest.Buffer
	cmd.Stdout, cmd.Stderr = &output, &output
	ports.release() // nginx -t binds nothing; nginx does
	if err := cmd.Start(); err != nil {
		return runningNginx{}, "", fmt.Errorf("start %s: %w", nginx, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop := func() {
		cmd.Process.Kill()
		<-exited
	}

	n := runningNginx{
		https: fmt.Sprintf("https://127.0.0.1:%d", httpsPort),
		http:  fmt.Sprintf("http://127.0.0.1:%d", httpPort),
	}
	if ipv6 {
		n.https6 = fmt.Sprintf("https://[::1]:%d", httpsPort)
	}
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		select {
		case err := <-exited:
			exited <- err
			return runningNginx{}, errLog() + output.String(), fmt.Errorf("nginx ended: %v", err)
		default:
		}
		if accepts(fmt.Sprintf("127.0.0.1:%d", httpsPort)) && accepts(fmt.Sprintf("127.0.0.1:%d", httpPort)) {
			t.Cleanup(stop)
			return n, "", nil
		}
		if time.Now().After(deadline) {
			stop()
			return runningNginx{}, errLog() + output.String(), errors.New("nginx did not accept connections within 30 s")
		}
	}
}

// accepts reports whether a TCP connection to addr succeeds.
func accepts(addr string) bool {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return false
	}
	conn.Close()
	return true
}

// heldPorts are TCP ports listened on by the test until release, so that
// nothing else takes them while a configuration naming them is written.
type heldPorts struct {
	ports []int
	lns   []net.Listener
}

// holdPorts returns n distinct TCP ports, each listened on on 127.0.0.1
// (and on ::1 with ipv6) until release: a port is never handed out twice,
// as one closed at once may be.
func holdPorts(t *testing.T, n int, ipv6 bool) *heldPorts {
	t.Helper()
	h := &heldPorts{}
	for tries := 0; len(h.ports) < n; tries++ {
		if tries == 10*n {
			h.release()
			t.Fatal("no port free on both loopback addresses")
		}
		ln, err := net.Listen("tcp4", "127.0.0.1:0")
		if err != nil {
			h.release()
			t.Fatal(err)
		}
		port := ln.Addr().(*net.TCPAddr).Port
		if slices.Contains(h.ports, port) { // cannot happen while it is held
			ln.Close()
			h.release()
			t.Fatalf("port %d handed out twice", port)
		}
		h.lns = append(h.lns, ln)
		if ipv6 {
			ln6, err := net.Listen("tcp6", fmt.Sprintf("[::1]:%d", port))
			if err != nil {
				continue // taken on ::1: this one stays held, unused, until release
			}
			h.lns = append(h.lns, ln6)
		}
		h.ports = append(h.ports, port)
	}
	return h
}

// release stops listening on the ports, just before their user listens
// on them; it may be called again.
func (h *heldPorts) release() {
	for _, ln := range h.lns {
		ln.Close()
	}
	h.lns = nil
}

// loopbackIPv6 reports whether this machine can listen on ::1.
func loopbackIPv6() bool {
	ln, err := net.Listen("tcp6", "[::1]:0")
	if err != nil {
		return false
	}
	ln.Close()
	return true
}

// TestHoldPorts: the ports startNginx writes into its configuration are
// distinct and taken until released (a helper that closed each listener
// at once once gave the HTTP and HTTPS servers the same port).
func TestHoldPorts(t *testing.T) {
	ipv6 := loopbackIPv6()
	h := holdPorts(t, 20, ipv6)
	seen := map[int]bool{}
	for _, port := range h.ports {
		if seen[port] {
			t.Fatalf("port %d handed out twice: %v", port, h.ports)
		}
		seen[port] = true
		if ln, err := net.Listen("tcp4", fmt.Sprintf("127.0.0.1:%d", port)); err == nil {
			ln.Close()
			t.Errorf("port %d is not held on 127.0.0.1", port)
		}
		if ln, err := net.Listen("tcp6", fmt.Sprintf("[::1]:%d", port)); ipv6 && err == nil {
			ln.Close()
			t.Errorf("port %d is not held on ::1", port)
		}
	}
	h.release()
	if len(h.lns) != 0 {
		t.Errorf("%d listeners left after release", len(h.lns))
	}
}
