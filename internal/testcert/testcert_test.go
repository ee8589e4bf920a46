package testcert_test

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"

	"github.com/kbserver/kbserver/internal/testcert"
)

// TestCertHandshake checks, over real TLS connections, which names a client
// trusting the test authority accepts the server certificate for.
func TestCertHandshake(t *testing.T) {
	defaults := testcert.New(t)
	named := testcert.New(t, "kb.test", "192.0.2.7")
	for _, tc := range []struct {
		name       string
		certs      *testcert.Certs
		serverName string // the name the client expects
		systemCAs  bool   // the client trusts the system's authorities instead
		ok         bool
	}{
		{"IPv4 loopback", defaults, "127.0.0.1", false, true},
		{"IPv6 loopback", defaults, "::1", false, true},
		{"localhost", defaults, "localhost", false, true},
		{"another name", defaults, "kb.example.org", false, false},
		{"given name", named, "kb.test", false, true},
		{"given address", named, "192.0.2.7", false, true},
		{"default not given", named, "127.0.0.1", false, false},
		{"untrusted authority", defaults, "127.0.0.1", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ln, err := tls.Listen("tcp", "127.0.0.1:0", tc.certs.ServerConfig())
			if err != nil {
				t.Fatal(err)
			}
			defer ln.Close()
			go func() {
				conn, err := ln.Accept()
				if err != nil {
					return
				}
				defer conn.Close()
				conn.(*tls.Conn).Handshake() // the client reports the outcome
			}()
			cfg := tc.certs.ClientConfig()
			cfg.ServerName = tc.serverName
			if tc.systemCAs {
				cfg.RootCAs = nil
			}
			conn, err := tls.Dial("tcp", ln.Addr().String(), cfg)
			if err == nil {
				conn.Close()
			}
			if ok := err == nil; ok != tc.ok {
				t.Errorf("handshake for %q: error %v, want success %v", tc.serverName, err, tc.ok)
			}
		})
	}
}

// TestCertFiles checks that the written files are what a server such as
// nginx or kbserver serve --tls-cert/--tls-key loads, and that the
// authority's file verifies the server certificate.
func TestCertFiles(t *testing.T) {
	c := testcert.New(t)
	pair, err := tls.LoadX509KeyPair(c.CertFile, c.KeyFile)
	if err != nil {
		t.Fatalf("load key pair: %v", err)
	}
	if len(pair.Certificate) != 1 {
		t.Errorf("certificate file holds %d certificates, want the leaf only", len(pair.Certificate))
	}
	info, err := os.Stat(c.KeyFile)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm&0o077 != 0 {
		t.Errorf("key file mode %v: readable by others", perm)
	}
	caPEM, err := os.ReadFile(c.CAFile)
	if err != nil {
		t.Fatal(err)
	}
	block, _ := pem.Decode(caPEM)
	if block == nil || block.Type != "CERTIFICATE" {
		t.Fatalf("authority file: no certificate block in %q", caPEM)
	}
	ca, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(ca)
	leaf, err := x509.ParseCertificate(pair.Certificate[0])
	if err != nil {
		t.Fatal(err)
	}
	if _, err := leaf.Verify(x509.VerifyOptions{Roots: roots, DNSName: "localhost"}); err != nil {
		t.Errorf("the authority file does not verify the server certificate: %v", err)
	}
	if !ca.IsCA || leaf.IsCA {
		t.Errorf("IsCA: authority %v, server %v", ca.IsCA, leaf.IsCA)
	}
}

// TestCertClient checks that Client trusts the authority, negotiates HTTP/2
// and leaves redirects to the caller.
func TestCertClient(t *testing.T) {
	c := testcert.New(t)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/moved" {
			http.Redirect(w, r, "/", http.StatusMovedPermanently)
			return
		}
		io.WriteString(w, r.Proto)
	}))
	srv.TLS = c.ServerConfig()
	srv.EnableHTTP2 = true
	srv.StartTLS()
	defer srv.Close()
	_, port, _ := net.SplitHostPort(srv.Listener.Addr().String())
	client := c.Client()
	for _, tc := range []struct {
		path       string
		wantStatus int
	}{
		{"/", http.StatusOK},
		{"/moved", http.StatusMovedPermanently},
	} {
		resp, err := client.Get("https://localhost:" + port + tc.path)
		if err != nil {
			t.Fatalf("GET %s: %v", tc.path, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.wantStatus || resp.Proto != "HTTP/2.0" {
			t.Errorf("GET %s: %d over %s (%q), want %d over HTTP/2.0", tc.path, resp.StatusCode, resp.Proto, body, tc.wantStatus)
		}
	}
}
