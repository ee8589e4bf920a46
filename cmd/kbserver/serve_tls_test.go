package main

import (
	"bytes"
	"crypto/tls"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/testcert"
)

// TestCertReload: rewritten certificate files are served from the next
// check on; a pair that does not load keeps the previous certificate.
func TestCertReload(t *testing.T) {
	first, second := testcert.New(t), testcert.New(t)
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	stamp := time.Now().Add(-time.Hour)
	install := func(cert, key string) {
		t.Helper()
		stamp = stamp.Add(time.Minute) // a new modification time, whatever the file system's resolution
		for _, f := range [][2]string{{cert, certFile}, {key, keyFile}} {
			b, err := os.ReadFile(f[0])
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(f[1], b, 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(f[1], stamp, stamp); err != nil {
				t.Fatal(err)
			}
		}
	}
	var logs bytes.Buffer
	install(first.CertFile, first.KeyFile)
	r, err := newCertReloader(certFile, keyFile, slog.New(slog.NewTextHandler(&logs, nil)))
	if err != nil {
		t.Fatal(err)
	}
	r.checkEvery = 0
	served := func() []byte {
		t.Helper()
		c, err := r.get(&tls.ClientHelloInfo{})
		if err != nil {
			t.Fatal(err)
		}
		return c.Certificate[0]
	}
	if !bytes.Equal(served(), first.Leaf.Raw) {
		t.Fatal("not the first certificate")
	}
	install(second.CertFile, second.KeyFile)
	if !bytes.Equal(served(), second.Leaf.Raw) {
		t.Error("the renewed certificate was not picked up")
	}
	if !strings.Contains(logs.String(), "TLS certificate reloaded") {
		t.Errorf("no reload in the log: %s", logs.String())
	}
	install(first.CertFile, second.KeyFile) // a certificate with another's key
	if !bytes.Equal(served(), second.Leaf.Raw) {
		t.Error("a pair that does not match replaced the certificate")
	}
	if !strings.Contains(logs.String(), "does not load") {
		t.Errorf("the failed reload was not logged: %s", logs.String())
	}
	// With the default interval, a change is not looked for at once.
	r.checkEvery = certCheckEvery
	install(first.CertFile, first.KeyFile)
	if !bytes.Equal(served(), second.Leaf.Raw) {
		t.Error("the files were checked before the interval passed")
	}
}
