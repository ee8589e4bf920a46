package kb

import (
	"regexp"
	"testing"
)

var uuidV4 = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestNewUUID(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := NewUUID()
		if !uuidV4.MatchString(id) {
			t.Fatalf("NewUUID() = %q, not a lower-case version 4 UUID", id)
		}
		if seen[id] {
			t.Fatalf("NewUUID() gave %q twice", id)
		}
		seen[id] = true
	}
}
