package pages

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi/web"
)

// sessions issues and reads signed session cookies. A cookie holds its
// subject (such as a profile), a tag that ties it to the credential it
// was issued for (a short hash of the profile's stored password hash, so
// that changing the password ends its sessions) and its expiry, signed
// with HMAC-SHA256 under a key derived from the store's secret: every
// instance over the same store reads the others' cookies, and nothing is
// kept on the server.
type sessions struct {
	key []byte
	ttl time.Duration
	now func() time.Time
}

// newSessions returns sessions signed with a key derived from secret for
// purpose, which keeps cookies of one kind from being read as another.
func newSessions(secret []byte, purpose string, ttl time.Duration) *sessions {
	return &sessions{key: deriveKey(secret, purpose), ttl: ttl, now: time.Now}
}

// deriveKey returns the key of one purpose (patron sessions, console CSRF
// tokens) derived from the store's secret, so that no two purposes share
// a key.
func deriveKey(secret []byte, purpose string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("kbserver session key: " + purpose))
	return m.Sum(nil)
}

// credentialTag returns the tag of a credential (a stored password hash).
func credentialTag(credential string) string {
	sum := sha256.Sum256([]byte(credential))
	return base64.RawURLEncoding.EncodeToString(sum[:9])
}

// value returns the signed cookie value for subject and tag.
func (s *sessions) value(subject, tag string) string {
	payload := strings.Join([]string{subject, tag, strconv.FormatInt(s.now().Add(s.ttl).Unix(), 10)}, "|")
	enc := base64.RawURLEncoding.EncodeToString([]byte(payload))
	return enc + "." + base64.RawURLEncoding.EncodeToString(s.mac(enc))
}

func (s *sessions) mac(enc string) []byte {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(enc))
	return m.Sum(nil)
}

// check reports whether value is a cookie this issuer signed for subject
// and tag that has not expired.
func (s *sessions) check(value, subject, tag string) bool {
	enc, sig, ok := strings.Cut(value, ".")
	if !ok {
		return false
	}
	got, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !hmac.Equal(got, s.mac(enc)) {
		return false
	}
	raw, err := base64.RawURLEncoding.DecodeString(enc)
	if err != nil {
		return false
	}
	parts := strings.Split(string(raw), "|")
	if len(parts) != 3 || parts[0] != subject || parts[1] != tag {
		return false
	}
	exp, err := strconv.ParseInt(parts[2], 10, 64)
	return err == nil && s.now().Unix() < exp
}

// cookie returns a session cookie for path: HttpOnly, SameSite=Lax (sent
// when a patron follows a link to the page, not with another site's
// form posts or fetches), Secure over TLS.
func (s *sessions) cookie(r *http.Request, name, path, value string) *http.Cookie {
	return &http.Cookie{Name: name, Value: value, Path: path, MaxAge: int(s.ttl / time.Second),
		HttpOnly: true, Secure: web.HTTPS(r), SameSite: http.SameSiteLaxMode}
}
