package pages

import (
	"testing"
	"time"
)

func TestSessions(t *testing.T) {
	now := time.Unix(1_700_000_000, 0)
	s := newSessions([]byte("secret of at least some bytes"), "patron", time.Hour)
	s.now = func() time.Time { return now }
	v := s.value("lib.main.az", "tag1")
	if !s.check(v, "lib.main.az", "tag1") {
		t.Fatal("a fresh cookie does not check")
	}
	other := newSessions([]byte("secret of at least some bytes"), "console", time.Hour)
	other.now = s.now
	tampered := []byte(v)
	tampered[3] ^= 1
	for name, ok := range map[string]bool{
		"another subject":     s.check(v, "lib.main.other", "tag1"),
		"another tag":         s.check(v, "lib.main.az", "tag2"),
		"another purpose":     other.check(v, "lib.main.az", "tag1"),
		"tampered":            s.check(string(tampered), "lib.main.az", "tag1"),
		"no signature":        s.check(v[:len(v)/2], "lib.main.az", "tag1"),
		"empty":               s.check("", "lib.main.az", "tag1"),
		"subject with a pipe": s.check(s.value("a|b", "t"), "a", "b|t"),
	} {
		if ok {
			t.Errorf("%s: cookie accepted", name)
		}
	}
	now = now.Add(time.Hour)
	if s.check(v, "lib.main.az", "tag1") {
		t.Error("an expired cookie checks")
	}
}
