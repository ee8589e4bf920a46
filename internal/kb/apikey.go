package kb

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
)

// KeyHash is the SHA-256 hash of an API key; only hashes are stored. API keys
// are long random strings, so a fast hash suffices; the store compares
// hashes in constant time.
type KeyHash [sha256.Size]byte

// HashAPIKey hashes an API key.
func HashAPIKey(key string) KeyHash { return sha256.Sum256([]byte(key)) }

// APIKeyPrefix starts every generated API key: it makes keys easy to
// recognise (and to scan for in leaked text), and a key never starts with
// '-', which a command line would read as a flag.
const APIKeyPrefix = "kb_"

// NewAPIKey returns a new random API key: APIKeyPrefix and 32 bytes from
// crypto/rand in unpadded base64url.
func NewAPIKey() string {
	b := make([]byte, 32)
	rand.Read(b) // never fails (crypto/rand documents that it panics instead)
	return APIKeyPrefix + base64.RawURLEncoding.EncodeToString(b)
}
