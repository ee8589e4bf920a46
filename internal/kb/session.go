package kb

import (
	"context"
	"time"
)

// Session is a signed-in session of the staff console: an API key's,
// named by the hash of a random token that only the browser's cookie
// holds.
type Session struct {
	TokenHash   string // hex SHA-256 of the token
	KeyID       int64
	CustomerID  string
	Environment Environment // the key's, read with the session
	Expires     time.Time
}

// SessionStore keeps the staff console's sessions, so that every instance
// over one store knows them and signing out ends one everywhere.
type SessionStore interface {
	// CreateSession records a session (its Environment is not stored:
	// it is the key's) and removes the sessions that have expired.
	CreateSession(ctx context.Context, s Session) error
	// LookupSession returns the session with the token hash when it has
	// not expired at now and its key still exists; CodeNotFound
	// otherwise.
	LookupSession(ctx context.Context, tokenHash string, now time.Time) (Session, error)
	// DeleteSession ends a session; ending one that does not exist is no
	// error.
	DeleteSession(ctx context.Context, tokenHash string) error
}
