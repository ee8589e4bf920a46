package web

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/httpapi/apitest"
	"github.com/kbserver/kbserver/internal/kb"
)

// TestVerifiedCache: a remembered triple is found, keyed by the stored
// hash too (a new password does not reuse it), until it expires; a full
// cache starts over.
func TestVerifiedCache(t *testing.T) {
	c := newVerifiedCache(time.Hour, 2)
	if c.cached("a.b.c", "hash", "pw") {
		t.Fatal("an empty cache found a triple")
	}
	c.remember("a.b.c", "hash", "pw")
	if !c.cached("a.b.c", "hash", "pw") || len(c.m) != 1 {
		t.Fatalf("a remembered triple was not found: %d entries", len(c.m))
	}
	for _, other := range [][3]string{{"a.b.c", "other-hash", "pw"}, {"a.b.c", "hash", "wrong"}, {"x.y.z", "hash", "pw"}} {
		if c.cached(other[0], other[1], other[2]) {
			t.Errorf("%v was found", other)
		}
	}
	// A use extends the entry's time.
	c.m[keyOf("a.b.c", "hash", "pw")] = time.Now().Add(time.Minute)
	if !c.cached("a.b.c", "hash", "pw") || time.Until(c.m[keyOf("a.b.c", "hash", "pw")]) < 59*time.Minute {
		t.Error("a use did not extend the entry to the cache's time to live")
	}
	c.m[keyOf("a.b.c", "hash", "pw")] = time.Now().Add(-time.Second)
	if c.cached("a.b.c", "hash", "pw") {
		t.Error("an expired entry was used")
	}
	c.remember("x.y.z", "hash", "pw") // the second entry fills the cache
	c.remember("p.q.r", "hash", "pw") // the next starts a new one
	if len(c.m) != 1 || !c.cached("p.q.r", "hash", "pw") {
		t.Errorf("after filling the cache: %d entries, want the newest alone", len(c.m))
	}
}

// profileMap is a ProfileLookup of one profile.
type profileMap map[kb.ProfileID]kb.Profile

func (m profileMap) LookupProfile(_ context.Context, id kb.ProfileID) (kb.Profile, error) {
	if p, ok := m[id]; ok {
		return p, nil
	}
	return kb.Profile{}, kb.NotFound("Profile")
}

// TestPasswordChecksLimited: with the profile's limit on, slow password
// checks take tokens of their own bucket: wrong guesses run out of them
// and are answered 429 without a check, while the correct password, once
// verified, is remembered and needs none.
func TestPasswordChecksLimited(t *testing.T) {
	hash, err := kb.HashPassword("right")
	if err != nil {
		t.Fatal(err)
	}
	id := kb.ProfileID{CustomerID: "c", GroupID: "g", ProfileID: "p"}
	limiter := &stepLimiter{n: 3, taken: map[string]int{}}
	auth := RequireProfile(profileMap{id: {ID: id, PasswordHash: hash}}, Throttle{Limiter: limiter, Limit: Limit{Rate: 100, Burst: 100}})
	ok := func(w http.ResponseWriter, r *http.Request) error { return WriteJSON(w, 200, "ok") }
	h, _ := testServer(t, 1<<20, Route{Pattern: "GET /pf/{profile}", Handler: auth(ok), HeaderErrors: true})
	send := func(password string) int {
		res, _ := apitest.Do(t, apitest.Local(h), "GET", "/pf/c.g.p", nil, PasswordHeader, password)
		return res.StatusCode
	}

	if code := send("right"); code != 200 { // check 1
		t.Fatalf("right password: %d", code)
	}
	for i, want := range []int{401, 401, 429, 429} { // checks 2 and 3, then none left
		if code := send("wrong"); code != want {
			t.Errorf("wrong guess %d: %d, want %d", i+1, code, want)
		}
	}
	if code := send("right"); code != 200 { // remembered: no check, no token
		t.Errorf("right password after the guesses: %d", code)
	}
	if got, want := limiter.taken["password:c.g.p"], 5; got != want {
		t.Errorf("%d password tokens asked for, want %d", got, want)
	}
	if got, want := limiter.taken["profile:c.g.p"], 2; got != want {
		t.Errorf("%d profile tokens taken, want %d (the admitted requests)", got, want)
	}
}
