package kb

import (
	"strings"
	"testing"
)

func TestNewAPIKey(t *testing.T) {
	seen := map[string]bool{}
	for i := 0; i < 1000; i++ {
		k := NewAPIKey()
		if !strings.HasPrefix(k, APIKeyPrefix) || len(k) != len(APIKeyPrefix)+43 {
			t.Fatalf("NewAPIKey() = %q: want %q and 43 base64url characters", k, APIKeyPrefix)
		}
		if seen[k] {
			t.Fatalf("NewAPIKey() repeated %q", k)
		}
		seen[k] = true
		if HashAPIKey(k) == HashAPIKey(k+"x") {
			t.Fatal("HashAPIKey ignores a character")
		}
	}
}
