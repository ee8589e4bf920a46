package kb

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"
)

func TestSignLinkRoundTrip(t *testing.T) {
	s := NewLinkSigner(secretA)
	key := ResourceKey{PackageID: 12, TitleID: 345}
	for _, tc := range []struct {
		name   string
		cust   string
		key    ResourceKey
		target LinkTarget
	}{
		{"resolver, a DOI", "lib", key, LinkTarget{Via: ViaResolver, DOI: "10.1000/182"}},
		{"resolver, title level", "lib", key, LinkTarget{Via: ViaResolver}},
		{"A–Z page with a DOI", "lib", key, LinkTarget{Via: ViaAZ, DOI: "10.1000/182"}},
		{"a DOI with '|'", "lib", key, LinkTarget{Via: ViaResolver, DOI: "10.1093/a|b||c|"}},
		{"a customer id and a DOI with '|'", "a|b", key, LinkTarget{Via: ViaResolver, DOI: "10.1/x|12|345|lib"}},
		{"a DOI of every kind of character", "lib", ResourceKey{PackageID: 9223372036854775807, TitleID: 1},
			LinkTarget{Via: ViaResolver, DOI: "10.1002/(SICI)1097-4636(199707)36:1<1::AID-JBM1>3.0.CO;2-P?#%é中"}},
		{"the longest DOI a citation carries", "lib", key, LinkTarget{Via: ViaResolver, DOI: "10.1000/" + strings.Repeat("x", maxDOI-len("10.1000/"))}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tok := s.SignLink(tc.cust, tc.key, tc.target)
			if strings.ContainsAny(tok, "+/=?#&% |") {
				t.Errorf("token %q is not URL-safe", tok)
			}
			if again := s.SignLink(tc.cust, tc.key, tc.target); again != tok {
				t.Errorf("SignLink is not deterministic")
			}
			cust, key, target, err := s.VerifyLink(tok)
			if err != nil || cust != tc.cust || key != tc.key || target != tc.target {
				t.Errorf("VerifyLink(SignLink(%q, %+v, a DOI of %d bytes)) = %q, %+v, %.40q, %v", tc.cust, tc.key, len(tc.target.DOI), cust, key, target.DOI, err)
			}
			// A v2 token is no first-version token.
			if _, _, err := s.Verify(tok); err == nil && tc.target.DOI != "" {
				t.Errorf("Verify took a token with a DOI")
			}
		})
	}
}

// TestSignLinkWithoutVia checks that a target that does not say where it
// was made is the A–Z page's, with or without a DOI.
func TestSignLinkWithoutVia(t *testing.T) {
	s := NewLinkSigner(secretA)
	key := ResourceKey{PackageID: 1, TitleID: 2}
	if got, want := s.SignLink("lib", key, LinkTarget{}), s.Sign("lib", key); got != want {
		t.Errorf("SignLink without a target = %q, want Sign's %q", got, want)
	}
	tok := s.SignLink("lib", key, LinkTarget{DOI: "10.1/x"})
	cust, k, target, err := s.VerifyLink(tok)
	if err != nil || cust != "lib" || k != key || target != (LinkTarget{Via: ViaAZ, DOI: "10.1/x"}) {
		t.Errorf("VerifyLink = %q, %+v, %+v, %v; want the A–Z page's link with its DOI", cust, k, target, err)
	}
}

// TestVerifyLinkFirstVersion checks that the tokens handed out before
// link-outs carried a target still verify, as the A–Z page's.
func TestVerifyLinkFirstVersion(t *testing.T) {
	s := NewLinkSigner(secretA)
	for _, tc := range []struct {
		cust string
		key  ResourceKey
	}{
		{"lib", ResourceKey{PackageID: 1, TitleID: 2}},
		{"a|b|c", ResourceKey{PackageID: 9223372036854775807, TitleID: 42}},
		{"v2|resolver", ResourceKey{PackageID: 3, TitleID: 4}},
	} {
		tok := s.Sign(tc.cust, tc.key)
		if az := s.SignLink(tc.cust, tc.key, LinkTarget{Via: ViaAZ}); az != tok {
			t.Errorf("SignLink for the A–Z page = %q, want the first-version token %q", az, tok)
		}
		cust, key, target, err := s.VerifyLink(tok)
		if err != nil || cust != tc.cust || key != tc.key || target != (LinkTarget{Via: ViaAZ}) {
			t.Errorf("VerifyLink(Sign(%q, %+v)) = %q, %+v, %+v, %v", tc.cust, tc.key, cust, key, target, err)
		}
	}
}

func TestVerifyLinkRejectsTampering(t *testing.T) {
	s := NewLinkSigner(secretA)
	key := ResourceKey{PackageID: 12, TitleID: 345}
	tok := s.SignLink("lib", key, LinkTarget{Via: ViaResolver, DOI: "10.1000/182"})
	p64, m64, _ := strings.Cut(tok, ".")
	payload, _ := base64.RawURLEncoding.DecodeString(p64)
	notFound := func(what, token string) {
		t.Helper()
		cust, k, target, err := s.VerifyLink(token)
		if ErrorCode(err) != CodeNotFound || ErrorMessage(err) != "Link not found" {
			t.Errorf("%s: VerifyLink = %q, %+v, %+v, %v; want CodeNotFound \"Link not found\"", what, cust, k, target, err)
		}
	}
	for i := range payload {
		for bit := range 8 {
			p := bytes.Clone(payload)
			p[i] ^= 1 << bit
			notFound("flipped payload bit", base64.RawURLEncoding.EncodeToString(p)+"."+m64)
		}
	}
	for i := range len(tok) {
		b := []byte(tok)
		b[i] ^= 1
		notFound("changed character", string(b))
	}
	doi := base64.RawURLEncoding.EncodeToString([]byte("10.1000/183"))
	for _, tt := range []struct{ name, token string }{
		{"another DOI", reMAC("v2|resolver|12|345|"+doi+"|lib", m64)},
		{"another page", reMAC("v2|az|12|345|"+base64.RawURLEncoding.EncodeToString([]byte("10.1000/182"))+"|lib", m64)},
		{"the first version of the same resource", reMAC("12|345|lib", m64)},
		{"other secret", NewLinkSigner(secretB).SignLink("lib", key, LinkTarget{Via: ViaResolver, DOI: "10.1000/182"})},
		{"empty", ""},
		{"garbage", "not.a token"},
		{"huge", strings.Repeat("A", 1<<20) + "." + m64},
	} {
		notFound(tt.name, tt.token)
	}
	// Payloads a correct MAC covers but that SignLink never makes.
	for _, p := range []string{"v2|", "v2|resolver", "v2|resolver|12|345", "v2|resolver|12|345|" + doi, "v2|resolver|12|345|" + doi + "|",
		"v2|elsewhere|12|345|" + doi + "|lib", "v2|resolver|12|345|not base64!|lib", "v2|resolver|012|345|" + doi + "|lib", "v2|resolver|0|345|" + doi + "|lib"} {
		notFound("payload "+p, base64.RawURLEncoding.EncodeToString([]byte(p))+"."+base64.RawURLEncoding.EncodeToString(s.mac([]byte(p))))
	}
	if _, _, _, err := (LinkSigner{}).VerifyLink(tok); ErrorCode(err) != CodeNotFound {
		t.Errorf("zero signer: %v", err)
	}
}
