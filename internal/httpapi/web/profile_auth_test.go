package web

import (
	"testing"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// TestVerifiedCache: a successful check is remembered, a failed one is
// not; an entry is keyed by the stored hash too (a new password does not
// reuse it), expires, and a full cache starts over.
func TestVerifiedCache(t *testing.T) {
	hash, err := kb.HashPassword("pw")
	if err != nil {
		t.Fatal(err)
	}
	c := newVerifiedCache(time.Hour, 2)
	if c.check("a.b.c", hash, "wrong") || len(c.m) != 0 {
		t.Fatalf("a wrong password passed or was remembered: %d entries", len(c.m))
	}
	if !c.check("a.b.c", hash, "pw") || len(c.m) != 1 {
		t.Fatalf("the right password failed or was not remembered: %d entries", len(c.m))
	}
	// Remembered: it passes without the slow check, even against a hash
	// that is not a hash, as long as the key matches.
	c.m[keyOf("a.b.c", "not-a-hash", "pw")] = time.Now().Add(time.Hour)
	if !c.check("a.b.c", "not-a-hash", "pw") {
		t.Error("a remembered entry was checked again")
	}
	if c.check("a.b.c", "other-hash", "pw") {
		t.Error("an entry of another stored hash was used")
	}
	// Expired: checked again (and "not-a-hash" matches nothing).
	c.m[keyOf("a.b.c", "not-a-hash", "pw")] = time.Now().Add(-time.Second)
	if c.check("a.b.c", "not-a-hash", "pw") {
		t.Error("an expired entry was used")
	}
	// Full (2 entries): the next success starts a new cache.
	if !c.check("x.y.z", hash, "pw") || len(c.m) != 1 {
		t.Errorf("after filling the cache: %d entries, want 1", len(c.m))
	}
}
