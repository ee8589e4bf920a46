package kbsql

import (
	"context"
	"fmt"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// CreateSession records a console session and removes expired ones.
func (s *Store) CreateSession(ctx context.Context, sess kb.Session) error {
	err := s.e.Write(ctx, "", func(tx Tx) error {
		if _, err := tx.Exec(ctx, `DELETE FROM console_sessions WHERE expires <= $1`, time.Now().Unix()); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO console_sessions(token_hash, key_id, customer_id, expires) VALUES ($1, $2, $3, $4)`,
			sess.TokenHash, sess.KeyID, sess.CustomerID, sess.Expires.Unix())
		return err
	})
	if err != nil {
		return fmt.Errorf("create session: %w", err)
	}
	return nil
}

// LookupSession returns a console session that has not expired and whose
// key still exists.
func (s *Store) LookupSession(ctx context.Context, tokenHash string, now time.Time) (kb.Session, error) {
	sess := kb.Session{TokenHash: tokenHash}
	var expires int64
	var env string
	err := s.e.Read().QueryRow(ctx, `SELECT s.key_id, s.customer_id, s.expires, k.environment
		FROM console_sessions s JOIN api_keys k ON k.id = s.key_id AND k.customer_id = s.customer_id
		WHERE s.token_hash = $1 AND s.expires > $2`, tokenHash, now.Unix()).Scan(&sess.KeyID, &sess.CustomerID, &expires, &env)
	if NoRows(err) {
		return sess, kb.NotFound("Session")
	}
	if err != nil {
		return sess, fmt.Errorf("look up session: %w", err)
	}
	sess.Expires, sess.Environment = time.Unix(expires, 0), kb.Environment(env)
	return sess, nil
}

// DeleteSession ends a console session.
func (s *Store) DeleteSession(ctx context.Context, tokenHash string) error {
	err := s.e.Write(ctx, "", func(tx Tx) error {
		_, err := tx.Exec(ctx, `DELETE FROM console_sessions WHERE token_hash = $1`, tokenHash)
		return err
	})
	if err != nil {
		return fmt.Errorf("delete session: %w", err)
	}
	return nil
}
