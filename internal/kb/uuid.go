package kb

import (
	"crypto/rand"
	"encoding/hex"
)

// NewUUID returns a random (version 4, RFC 9562) UUID in its lower-case
// text form, 8-4-4-4-12 hexadecimal digits. It reads crypto/rand, which
// does not fail on the systems Go supports.
func NewUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40 // version 4
	b[8] = b[8]&0x3f | 0x80 // variant 10xx
	var s [36]byte
	hex.Encode(s[0:8], b[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], b[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], b[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], b[8:10])
	s[23] = '-'
	hex.Encode(s[24:36], b[10:16])
	return string(s[:])
}
