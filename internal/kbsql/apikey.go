package kbsql

import (
	"crypto/subtle"
	"encoding/binary"

	"github.com/kbserver/kbserver/internal/kb"
)

// KeyPrefix is the indexed prefix of an API key hash: its first eight
// bytes as a signed integer. A key is found by its prefix, then its full
// hash is compared in constant time.
func KeyPrefix(h kb.KeyHash) int64 { return int64(binary.BigEndian.Uint64(h[:8])) }

// KeyCandidate is a stored API key whose hash has the prefix of the hash
// looked for.
type KeyCandidate struct {
	ID          int64
	CustomerID  string
	Environment string
	Hash        []byte
	// At is the key's customer's root proxy and versions, read with the
	// key.
	At kb.CustomerAt
}

// PickKey returns the candidate whose full hash is h, comparing every
// candidate's in constant time; CodeUnauthenticated when none is.
func PickKey(cands []KeyCandidate, h kb.KeyHash) (kb.APIKey, error) {
	var k kb.APIKey
	for _, c := range cands {
		if subtle.ConstantTimeCompare(c.Hash, h[:]) == 1 {
			k = kb.APIKey{ID: c.ID, CustomerID: c.CustomerID, Environment: kb.Environment(c.Environment),
				At: c.At}
		}
	}
	if k.CustomerID == "" {
		return kb.APIKey{}, kb.Errorf(kb.CodeUnauthenticated, "Invalid APIKEY")
	}
	return k, nil
}

// ScanKey reads key candidates (id, customer_id, environment, hash, and
// the customer's root proxy and versions: sqlKeyCandidates) from
// rows and returns the one whose full hash is h, as PickKey does. The
// caller closes rows.
func ScanKey(rows Rows, h kb.KeyHash) (kb.APIKey, error) {
	var cands []KeyCandidate
	for rows.Next() {
		var c KeyCandidate
		if err := rows.Scan(&c.ID, &c.CustomerID, &c.Environment, &c.Hash, &c.At.Root, &c.At.KB, &c.At.Titles, &c.At.Customer); err != nil {
			return kb.APIKey{}, err
		}
		cands = append(cands, c)
	}
	if err := rows.Err(); err != nil {
		return kb.APIKey{}, err
	}
	return PickKey(cands, h)
}
