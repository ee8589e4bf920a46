// Package testcert gives tests a throwaway certificate authority and a
// server certificate it signed, as PEM files in the test's temporary
// directory, for HTTPS tests of kbserver serve --tls-cert/--tls-key and of
// a TLS-terminating proxy in front of it. Clients trust the authority
// through Certs.Pool, Certs.ClientConfig or Certs.Client; nothing is
// added to the system's trust store.
//
// The keys are ECDSA P-256, made with crypto/x509 alone. The certificates
// are valid from an hour ago (clock skew) for a day.
package testcert

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// DefaultHosts are the names the server certificate is for when New is
// given none: the loopback addresses and localhost.
var DefaultHosts = []string{"127.0.0.1", "::1", "localhost"}

// Certs are a test's certificate authority and server certificate.
type Certs struct {
	// CertFile is the PEM file of the server certificate (the leaf only:
	// clients know the authority that signed it).
	CertFile string
	// KeyFile is the PEM file of the server's private key (PKCS #8,
	// readable by the owner only).
	KeyFile string
	// CAFile is the PEM file of the authority's certificate.
	CAFile string
	// Pool holds the authority's certificate alone: a client with it as
	// RootCAs trusts the server certificate and nothing else.
	Pool *x509.CertPool
	// Certificate is the server certificate and key, for a tls.Config of
	// a server in the test process.
	Certificate tls.Certificate
	// Leaf is the parsed server certificate.
	Leaf *x509.Certificate
}

// New makes a certificate authority and a server certificate it signed
// for hosts (IP addresses or DNS names; DefaultHosts when none), writes
// them into a new directory of t.TempDir(), and returns them. It fails the
// test on any error.
func New(t testing.TB, hosts ...string) *Certs {
	t.Helper()
	c, err := generate(t.TempDir(), hosts)
	if err != nil {
		t.Fatalf("testcert: %v", err)
	}
	return c
}

// ClientConfig returns a TLS client configuration that trusts the test
// authority only, with TLS 1.2 as its lowest version (what kbserver and
// the nginx example accept). Each call returns a new configuration, which
// the caller may change.
func (c *Certs) ClientConfig() *tls.Config {
	return &tls.Config{RootCAs: c.Pool, MinVersion: tls.VersionTLS12}
}

// ServerConfig returns a TLS server configuration that presents the
// server certificate, for a server in the test process.
func (c *Certs) ServerConfig() *tls.Config {
	return &tls.Config{Certificates: []tls.Certificate{c.Certificate}, MinVersion: tls.VersionTLS12}
}

// Client returns an HTTP client that trusts the test authority only and
// negotiates HTTP/2 when the server offers it (resp.Proto tells which
// protocol a response came over). It does not follow redirects, so that
// tests see them.
func (c *Certs) Client() *http.Client {
	return &http.Client{
		Transport: &http.Transport{
			TLSClientConfig:   c.ClientConfig(),
			ForceAttemptHTTP2: true, // a custom TLSClientConfig turns HTTP/2 off otherwise
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Timeout:       time.Minute,
	}
}

// generate makes the authority and the server certificate and writes
// their files into dir.
func generate(dir string, hosts []string) (*Certs, error) {
	if len(hosts) == 0 {
		hosts = DefaultHosts
	}
	notBefore := time.Now().Add(-time.Hour)
	notAfter := notBefore.Add(25 * time.Hour)

	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("authority key: %w", err)
	}
	caTemplate := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{Organization: []string{"kbserver tests"}, CommonName: "kbserver test CA"},
		NotBefore:             notBefore,
		NotAfter:              notAfter,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageCRLSign,
		BasicConstraintsValid: true,
		IsCA:                  true,
		MaxPathLenZero:        true,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, caTemplate, caTemplate, &caKey.PublicKey, caKey)
	if err != nil {
		return nil, fmt.Errorf("authority certificate: %w", err)
	}
	ca, err := x509.ParseCertificate(caDER)
	if err != nil {
		return nil, fmt.Errorf("parse authority certificate: %w", err)
	}

	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("server key: %w", err)
	}
	template := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{Organization: []string{"kbserver tests"}, CommonName: hosts[0]},
		NotBefore:    notBefore,
		NotAfter:     notAfter,
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			template.IPAddresses = append(template.IPAddresses, ip)
		} else {
			template.DNSNames = append(template.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, template, ca, &key.PublicKey, caKey)
	if err != nil {
		return nil, fmt.Errorf("server certificate: %w", err)
	}
	leaf, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, fmt.Errorf("parse server certificate: %w", err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("encode server key: %w", err)
	}

	c := &Certs{
		CertFile: filepath.Join(dir, "server.pem"),
		KeyFile:  filepath.Join(dir, "server.key"),
		CAFile:   filepath.Join(dir, "ca.pem"),
		Pool:     x509.NewCertPool(),
		Leaf:     leaf,
	}
	c.Pool.AddCert(ca)
	certPEM := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	keyPEM := pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})
	for _, f := range []struct {
		path string
		data []byte
		perm os.FileMode
	}{
		{c.CertFile, certPEM, 0o644},
		{c.KeyFile, keyPEM, 0o600},
		{c.CAFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: caDER}), 0o644},
	} {
		if err := os.WriteFile(f.path, f.data, f.perm); err != nil {
			return nil, fmt.Errorf("write %s: %w", f.path, err)
		}
	}
	if c.Certificate, err = tls.X509KeyPair(certPEM, keyPEM); err != nil {
		return nil, fmt.Errorf("load the written key pair: %w", err)
	}
	return c, nil
}

// serial returns a random 128-bit certificate serial number.
func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		panic(err) // crypto/rand does not fail (Go 1.24 and later)
	}
	return n
}
