package pages

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi/web"
	"github.com/kbserver/kbserver/internal/kb"
)

// The staff console's sessions: signing in with an API key records a
// session in the store (kb.SessionStore), named by the SHA-256 of a random
// token that only the browser's cookie holds. The cookie is HttpOnly,
// SameSite=Strict, scoped to /console/, Secure over TLS. Every form
// carries a CSRF token derived from the session's token with a key of
// the store's secret, checked on every post with the post's origin.
// Signing out deletes the session; revoking the key ends it too.

const (
	consoleCookie     = "kb_console"
	consolePath       = "/console/"
	consoleSessionTTL = 8 * time.Hour
)

// staffHandler serves a console page for a signed-in session.
type staffHandler func(w http.ResponseWriter, r *http.Request, s *staff) error

// staff is a signed-in request: its session, its customer, the CSRF
// token its forms carry, and whether the server keeps holdings feeds and
// analyses collections (for the console's menu).
type staff struct {
	kb.Session
	CSRF     string
	Customer kb.Customer
	Feeds    bool
	Analysis bool
}

// tokenHash returns the hex SHA-256 of a session token.
func tokenHash(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

// csrfKey returns the key of the console's CSRF tokens, derived from the
// store's secret (which the store keeps in memory).
func (p *pages) csrfKey(ctx context.Context) ([]byte, error) {
	secret, err := p.store.LinkSecret(ctx)
	if err != nil {
		return nil, fmt.Errorf("the store's secret: %w", err)
	}
	return deriveKey(secret, "console CSRF"), nil
}

// csrfToken returns the CSRF token of the session token.
func csrfToken(key []byte, token string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(token))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// session returns the request's signed-in session, nil when there is
// none (no cookie, an unknown, expired or signed-out session, a revoked
// key, a key of another environment).
func (p *pages) session(r *http.Request) (*staff, error) {
	c, err := r.Cookie(consoleCookie)
	if err != nil || c.Value == "" {
		return nil, nil
	}
	sess, err := p.store.LookupSession(r.Context(), tokenHash(c.Value), time.Now())
	if kb.ErrorCode(err) == kb.CodeNotFound {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if sess.Environment != p.keys.Env() {
		return nil, nil
	}
	key, err := p.csrfKey(r.Context())
	if err != nil {
		return nil, err
	}
	cust, err := p.store.Customer(r.Context(), sess.CustomerID)
	if err != nil {
		return nil, err
	}
	return &staff{Session: sess, CSRF: csrfToken(key, c.Value), Customer: cust, Feeds: p.lib != nil, Analysis: p.analyses != nil}, nil
}

// signedIn wraps a console handler: without a session it answers the
// sign-in form (401); a post must come from this site and carry the
// session's CSRF token (403 otherwise). The key's rate limit applies, and
// the changes the handler makes are the key's (kb.WithActor).
func (p *pages) signedIn(h staffHandler) web.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) error {
		s, err := p.session(r)
		if err != nil {
			return err
		}
		if s == nil {
			if r.Method == http.MethodPost {
				return kb.Errorf(kb.CodeUnauthenticated, "You are not signed in (or your session ended): sign in again.")
			}
			return consoleSignIn(w, http.StatusUnauthorized, "")
		}
		if r.Method == http.MethodPost {
			if !sameOrigin(r) {
				return kb.Errorf(kb.CodeForbidden, "This form was sent from another site; open the console and send it from there.")
			}
			got := r.PostFormValue("csrf")
			if got == "" || !hmac.Equal([]byte(got), []byte(s.CSRF)) {
				return kb.Errorf(kb.CodeForbidden, "This form has no valid CSRF token (it may be from an earlier session): reload the page and send it again.")
			}
		}
		if err := p.keys.Take(w, r, s.KeyID); err != nil {
			return err
		}
		return h(w, r.WithContext(kb.WithActor(r.Context(), s.KeyID)), s)
	}
}

// consoleSignIn renders the console's sign-in form.
func consoleSignIn(w http.ResponseWriter, status int, message string) error {
	data := struct {
		frame
		Error string
	}{frame{Title: "Sign in", Brand: "kbserver staff console", Home: consolePath}, message}
	return render(w, status, "console_signin", data)
}

// consoleSignInPost signs in with an API key: the key of the server's
// environment starts a session.
func (p *pages) consoleSignInPost(w http.ResponseWriter, r *http.Request) error {
	if !sameOrigin(r) {
		return kb.Errorf(kb.CodeForbidden, "This form was sent from another site; open the console and sign in there.")
	}
	key := strings.TrimSpace(r.PostFormValue("apikey"))
	if key == "" {
		return consoleSignIn(w, http.StatusBadRequest, "Enter the customer's API key.")
	}
	owner, err := p.keys.Check(r.Context(), key)
	if kb.ErrorCode(err) == kb.CodeUnauthenticated {
		msg := "That API key is not known here."
		if owner.CustomerID != "" {
			msg = kb.ErrorMessage(err)
		}
		return consoleSignIn(w, http.StatusUnauthorized, msg)
	}
	if err != nil {
		return err
	}
	if err := p.keys.Take(w, r, owner.ID); err != nil {
		return err
	}
	// A session already in this browser ends: one browser, one session.
	if c, err := r.Cookie(consoleCookie); err == nil && c.Value != "" {
		if err := p.store.DeleteSession(r.Context(), tokenHash(c.Value)); err != nil {
			return err
		}
	}
	raw := make([]byte, 32)
	if _, err := rand.Read(raw); err != nil {
		return err
	}
	token := base64.RawURLEncoding.EncodeToString(raw)
	sess := kb.Session{TokenHash: tokenHash(token), KeyID: owner.ID, CustomerID: owner.CustomerID, Expires: time.Now().Add(consoleSessionTTL)}
	if err := p.store.CreateSession(r.Context(), sess); err != nil {
		return err
	}
	http.SetCookie(w, &http.Cookie{Name: consoleCookie, Value: token, Path: consolePath, MaxAge: int(consoleSessionTTL / time.Second),
		HttpOnly: true, Secure: web.HTTPS(r), SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, consolePath, http.StatusSeeOther)
	return nil
}

// consoleSignInGet sends a browser that asks for the sign-in address
// (back from a failed sign-in) to the console, which shows the form.
func consoleSignInGet(w http.ResponseWriter, r *http.Request) error {
	http.Redirect(w, r, consolePath, http.StatusSeeOther)
	return nil
}

// consoleSignOut ends the session and clears its cookie.
func (p *pages) consoleSignOut(w http.ResponseWriter, r *http.Request, s *staff) error {
	if err := p.store.DeleteSession(r.Context(), s.TokenHash); err != nil {
		return err
	}
	http.SetCookie(w, &http.Cookie{Name: consoleCookie, Value: "", Path: consolePath, MaxAge: -1,
		HttpOnly: true, Secure: web.HTTPS(r), SameSite: http.SameSiteStrictMode})
	http.Redirect(w, r, consolePath, http.StatusSeeOther)
	return nil
}
