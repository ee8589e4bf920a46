package web

import (
	"context"
	"crypto/sha256"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// PasswordHeader is the request header that carries a profile's password.
const PasswordHeader = "password"

// ProfileLookup finds a publication search profile; kb.ProfileStore
// implements it.
type ProfileLookup interface {
	LookupProfile(ctx context.Context, id kb.ProfileID) (kb.Profile, error)
}

type profileKey struct{}

// ProfileFrom returns the profile RequireProfile admitted the request for.
func ProfileFrom(ctx context.Context) (kb.ProfileID, bool) {
	p, ok := ctx.Value(profileKey{}).(kb.ProfileID)
	return p, ok
}

// RequireProfile returns a middleware that admits a request for the
// profile named by the path parameter profile (custid.groupid.profileid)
// through a ProfileGate, with the password in the password header.
func RequireProfile(profiles ProfileLookup, throttle Throttle) Middleware {
	gate := NewProfileGate(profiles, throttle)
	return func(next HandlerFunc) HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) error {
			id, err := kb.ParseProfileID(r.PathValue("profile"))
			if err != nil {
				return err
			}
			if _, err := gate.Admit(w, r, id, r.Header.Get(PasswordHeader)); err != nil {
				return err
			}
			return next(w, r.WithContext(WithProfile(r.Context(), id)))
		}
	}
}

// WithProfile returns ctx marked as admitted for the profile (ProfileFrom).
func WithProfile(ctx context.Context, id kb.ProfileID) context.Context {
	return context.WithValue(ctx, profileKey{}, id)
}

// A ProfileGate admits requests for publication search profiles: with the
// profile's password, or without one when the profile allows guest
// access. Both the publication search service (password header) and the
// patron A–Z page (a sign-in form, then a session) admit through one.
//
// A malformed profile is CodeInvalid (400); an unknown profile, a wrong
// password, or no password on a profile without guest access is
// CodeUnauthenticated (401), the same for all so as not to tell which
// profiles exist. An admitted request takes a token of the profile's
// rate limit (throttle): over it, CodeTooManyRequests (429, with
// Retry-After). Passwords are checked against their slow hash once, then
// remembered as verified for a while (a hash of profile, stored hash and
// password, never the password) so that a search box does not pay the
// slow hash on every request. With the throttle's limit on, the slow
// checks themselves are limited per profile (PasswordCheckLimit; over it,
// 429 before any check), so that guessing passwords is slow and cannot
// keep the processor busy.
type ProfileGate struct {
	profiles ProfileLookup
	throttle Throttle
	checks   Throttle
	verified *verifiedCache
}

// NewProfileGate returns a gate over profiles with the rate limit of
// throttle.
func NewProfileGate(profiles ProfileLookup, throttle Throttle) *ProfileGate {
	checks := throttle
	checks.Limit = PasswordCheckLimit
	return &ProfileGate{profiles: profiles, throttle: throttle, checks: checks, verified: newVerifiedCache(verifiedFor, 10_000)}
}

// Admit admits a request (r; w receives Retry-After when it is refused
// for a limit) for profile id with password ("" for none) and returns the
// profile; an error says why not.
func (g *ProfileGate) Admit(w http.ResponseWriter, r *http.Request, id kb.ProfileID, password string) (kb.Profile, error) {
	p, err := g.Lookup(r.Context(), id)
	if err != nil {
		return kb.Profile{}, err
	}
	known := p.ID == id
	given := password != "" // an empty header is no password
	switch {
	case !given && known && p.Guest:
	case !given:
		return kb.Profile{}, kb.Errorf(kb.CodeUnauthenticated, "A password is required for this profile (header password).")
	case !known || p.PasswordHash == "":
		return kb.Profile{}, errProfileAuth
	case !g.verified.cached(id.String(), p.PasswordHash, password):
		if g.throttle.Limit.On() {
			if err := g.checks.take(r.Context(), w, "password:"+id.String()); err != nil {
				return kb.Profile{}, err
			}
		}
		if !kb.CheckPassword(p.PasswordHash, password) {
			return kb.Profile{}, errProfileAuth
		}
		g.verified.remember(id.String(), p.PasswordHash, password)
	}
	if err := g.Take(w, r, id); err != nil {
		return kb.Profile{}, err
	}
	return p, nil
}

// Lookup returns the profile id, or the zero Profile when there is none.
func (g *ProfileGate) Lookup(ctx context.Context, id kb.ProfileID) (kb.Profile, error) {
	p, err := g.profiles.LookupProfile(ctx, id)
	switch {
	case kb.ErrorCode(err) == kb.CodeNotFound:
		return kb.Profile{}, nil
	case err != nil:
		return kb.Profile{}, fmt.Errorf("look up profile %s: %w", id, err)
	}
	return p, nil
}

// Take takes a token of the profile's rate limit for a request admitted
// otherwise (by a session the caller checked).
func (g *ProfileGate) Take(w http.ResponseWriter, r *http.Request, id kb.ProfileID) error {
	return g.throttle.take(r.Context(), w, "profile:"+id.String())
}

// PasswordCheckLimit bounds the slow password checks of one profile when
// its rate limit is on: a correct password is checked once and then
// remembered, so only new passwords and wrong guesses use it.
var PasswordCheckLimit = Limit{Rate: 1, Burst: 10}

// errProfileAuth is the one answer to an unknown profile and a wrong
// password alike.
var errProfileAuth = kb.Errorf(kb.CodeUnauthenticated, "Profile authentication failed: unknown profile or wrong password.")

// verifiedCache remembers (profile, stored hash, password) triples whose
// check succeeded, by a SHA-256 of the three, until they expire. A changed
// password hash makes the old entries useless.
type verifiedCache struct {
	ttl time.Duration
	max int
	mu  sync.Mutex
	m   map[[sha256.Size]byte]time.Time
}

func newVerifiedCache(ttl time.Duration, max int) *verifiedCache {
	return &verifiedCache{ttl: ttl, max: max, m: map[[sha256.Size]byte]time.Time{}}
}

// keyOf is the cache key of a (profile, stored hash, password) triple.
func keyOf(profile, hash, password string) [sha256.Size]byte {
	return sha256.Sum256([]byte(profile + "\x00" + hash + "\x00" + password))
}

// verifiedFor is how long a verified password is remembered after its
// last use. Each use extends it, so that a profile in use keeps its
// password remembered while someone guessing at it keeps the profile's
// password checks used up (PasswordCheckLimit).
const verifiedFor = time.Hour

// cached reports whether the triple was verified and has not expired, and
// extends a found one's time.
func (c *verifiedCache) cached(profile, hash, password string) bool {
	key := keyOf(profile, hash, password)
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	exp, ok := c.m[key]
	if !ok || !now.Before(exp) {
		return false
	}
	c.m[key] = now.Add(c.ttl)
	return true
}

// remember records a verified triple until the cache's time to live
// passes; a full cache is emptied first.
func (c *verifiedCache) remember(profile, hash, password string) {
	key := keyOf(profile, hash, password)
	c.mu.Lock()
	if len(c.m) >= c.max {
		clear(c.m)
	}
	c.m[key] = time.Now().Add(c.ttl)
	c.mu.Unlock()
}
