package kb

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"
)

func TestTargetURL(t *testing.T) {
	const ez = "http://ezproxy.myinstitute.edu/login?url={targetURL}"
	tests := []struct {
		name string
		link ResourceLink
		want string
	}{
		{"plain", ResourceLink{URL: "https://a.example/j"}, "https://a.example/j"},
		{"empty URL", ResourceLink{ProxyMask: ez}, ""},
		{"empty URL with tokens", ResourceLink{VendorToken: &Token{FactName: "[[x]]", Value: "v"}}, ""},
		{"proxied", ResourceLink{URL: "https://a.example/j?a=1&b=2", ProxyMask: ez},
			"http://ezproxy.myinstitute.edu/login?url=https://a.example/j?a=1&b=2"},
		{"placeholder in another case", ResourceLink{URL: "https://a.example/j", ProxyMask: "https://p.example/?u={TARGETurl}"},
			"https://p.example/?u=https://a.example/j"},
		{"placeholder twice", ResourceLink{URL: "u", ProxyMask: "{targetURL}|{targeturl}"}, "u|u"},
		{"mask without placeholder", ResourceLink{URL: "https://a.example/j", ProxyMask: "https://p.example/login"},
			"https://a.example/j"},
		{"mask with a Kelvin sign is no placeholder", ResourceLink{URL: "u", ProxyMask: "{targetURL\u212a"}, "u"},
		{"vendor token, every occurrence", ResourceLink{
			URL:         "https://gale.example/[[galesiteid]]/x?site=[[galesiteid]]",
			VendorToken: &Token{FactName: "[[galesiteid]]", Value: "mylib"}},
			"https://gale.example/mylib/x?site=mylib"},
		{"both tokens and a proxy", ResourceLink{
			URL:          "https://v.example/[[site]]/[[pkg]]",
			VendorToken:  &Token{FactName: "[[site]]", Value: "S1"},
			PackageToken: &Token{FactName: "[[pkg]]", Value: "P1"},
			ProxyMask:    ez},
			"http://ezproxy.myinstitute.edu/login?url=https://v.example/S1/P1"},
		{"token without value stays", ResourceLink{
			URL:         "https://v.example/[[site]]",
			VendorToken: &Token{FactName: "[[site]]"}},
			"https://v.example/[[site]]"},
		{"token without fact name", ResourceLink{
			URL:         "https://v.example/x",
			VendorToken: &Token{Value: "S1"}},
			"https://v.example/x"},
		{"value is not rescanned", ResourceLink{
			URL:          "https://v.example/[[site]]/[[pkg]]",
			VendorToken:  &Token{FactName: "[[site]]", Value: "[[pkg]]"},
			PackageToken: &Token{FactName: "[[pkg]]", Value: "P1"}},
			"https://v.example/[[pkg]]/P1"},
		{"same fact name: package wins", ResourceLink{
			URL:          "https://v.example/[[id]]",
			VendorToken:  &Token{FactName: "[[id]]", Value: "vendor"},
			PackageToken: &Token{FactName: "[[id]]", Value: "package"}},
			"https://v.example/package"},
		{"value not escaped", ResourceLink{
			URL:         "https://v.example/?q=[[q]]",
			VendorToken: &Token{FactName: "[[q]]", Value: "a b&c"}},
			"https://v.example/?q=a b&c"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := TargetURL(tt.link); got != tt.want {
				t.Errorf("TargetURL = %q, want %q", got, tt.want)
			}
		})
	}
}

var (
	secretA = bytes.Repeat([]byte{0xA5}, 32)
	secretB = bytes.Repeat([]byte{0x5A}, 32)
)

func TestLinkSignerRoundTrip(t *testing.T) {
	s := NewLinkSigner(secretA)
	for _, tc := range []struct {
		cust string
		key  ResourceKey
	}{
		{"lib", ResourceKey{PackageID: 1, TitleID: 2}},
		{"a|b|c", ResourceKey{PackageID: 9223372036854775807, TitleID: 42}},
		{"bibliothèque-ü", ResourceKey{PackageID: 17, TitleID: 1}},
	} {
		tok := s.Sign(tc.cust, tc.key)
		if strings.ContainsAny(tok, "+/=?#&% ") {
			t.Errorf("token %q is not URL-safe", tok)
		}
		if again := s.Sign(tc.cust, tc.key); again != tok {
			t.Errorf("Sign is not deterministic: %q, %q", tok, again)
		}
		cust, key, err := s.Verify(tok)
		if err != nil || cust != tc.cust || key != tc.key {
			t.Errorf("Verify(Sign(%q, %+v)) = %q, %+v, %v", tc.cust, tc.key, cust, key, err)
		}
	}
}

func TestLinkSignerCopiesSecret(t *testing.T) {
	secret := bytes.Clone(secretA)
	s := NewLinkSigner(secret)
	tok := s.Sign("lib", ResourceKey{PackageID: 1, TitleID: 2})
	secret[0] ^= 1
	if _, _, err := s.Verify(tok); err != nil {
		t.Errorf("changing the caller's slice changed the signer: %v", err)
	}
}

// wantLinkNotFound fails unless err is the CodeNotFound of a bad token.
func wantLinkNotFound(t *testing.T, what string, cust string, key ResourceKey, err error) {
	t.Helper()
	if ErrorCode(err) != CodeNotFound || ErrorMessage(err) != "Link not found" {
		t.Errorf("%s: Verify = %q, %+v, %v; want CodeNotFound \"Link not found\"", what, cust, key, err)
	}
}

func TestLinkSignerRejectsTampering(t *testing.T) {
	s := NewLinkSigner(secretA)
	tok := s.Sign("lib", ResourceKey{PackageID: 12, TitleID: 345})
	p64, m64, _ := strings.Cut(tok, ".")
	payload, _ := base64.RawURLEncoding.DecodeString(p64)
	mac, _ := base64.RawURLEncoding.DecodeString(m64)

	// Every single flipped bit of either decoded part fails.
	for i := range payload {
		for bit := range 8 {
			p := bytes.Clone(payload)
			p[i] ^= 1 << bit
			cust, key, err := s.Verify(base64.RawURLEncoding.EncodeToString(p) + "." + m64)
			wantLinkNotFound(t, "flipped payload", cust, key, err)
		}
	}
	for i := range mac {
		for bit := range 8 {
			m := bytes.Clone(mac)
			m[i] ^= 1 << bit
			cust, key, err := s.Verify(p64 + "." + base64.RawURLEncoding.EncodeToString(m))
			wantLinkNotFound(t, "flipped MAC", cust, key, err)
		}
	}
	// Every changed character of the token itself fails (including the
	// last character of a part, whose low bits a lax decoder ignores).
	for i := range len(tok) {
		for _, c := range []byte("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.") {
			if tok[i] == c {
				continue
			}
			b := []byte(tok)
			b[i] = c
			cust, key, err := s.Verify(string(b))
			wantLinkNotFound(t, "changed character "+string(b), cust, key, err)
		}
	}

	tests := []struct{ name, token string }{
		{"empty", ""},
		{"no dot", p64 + m64},
		{"empty payload", "." + m64},
		{"empty MAC", p64 + "."},
		{"two dots", tok + "." + m64},
		{"padded", p64 + "==." + m64},
		{"standard base64", strings.NewReplacer("-", "+", "_", "/").Replace(tok) + "+/"},
		{"garbage", "not a token at all"},
		{"dots", "...."},
		{"huge", strings.Repeat("A", 1<<20) + "." + m64},
		{"other secret", NewLinkSigner(secretB).Sign("lib", ResourceKey{PackageID: 12, TitleID: 345})},
		{"truncated MAC", p64 + "." + base64.RawURLEncoding.EncodeToString(mac[:8])},
		{"long MAC", p64 + "." + base64.RawURLEncoding.EncodeToString(append(bytes.Clone(mac), 0))},
		{"re-pointed at another title", reMAC("12|346|lib", m64)},
		{"re-pointed at another customer", reMAC("12|345|other", m64)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cust, key, err := s.Verify(tt.token)
			wantLinkNotFound(t, tt.name, cust, key, err)
		})
	}
	cust, key, err := LinkSigner{}.Verify(tok)
	wantLinkNotFound(t, "zero signer", cust, key, err)
}

// reMAC returns a token with payload p and the MAC of the original token:
// what a patron who edits the payload can make.
func reMAC(p, m64 string) string {
	return base64.RawURLEncoding.EncodeToString([]byte(p)) + "." + m64
}

func TestLinkSignerRejectsBadPayloads(t *testing.T) {
	// Payloads a correct MAC covers but that Sign never makes.
	s := NewLinkSigner(secretA)
	for _, p := range []string{"", "1|2", "1|2|", "0|2|lib", "1|-2|lib", "01|2|lib", "+1|2|lib", "x|2|lib", "1|99999999999999999999|lib"} {
		tok := base64.RawURLEncoding.EncodeToString([]byte(p)) + "." + base64.RawURLEncoding.EncodeToString(s.mac([]byte(p)))
		cust, key, err := s.Verify(tok)
		wantLinkNotFound(t, "payload "+p, cust, key, err)
	}
}

func TestNewLinkSignerShortSecret(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("NewLinkSigner accepted a 15-byte secret")
		}
	}()
	NewLinkSigner(make([]byte, MinLinkSecretLen-1))
}
