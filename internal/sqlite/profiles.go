package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
)

// SaveProfile creates a publication search profile or changes its password
// hash and guest access.
func (s *Store) SaveProfile(ctx context.Context, p kb.Profile) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM customers WHERE id = ?`, p.ID.CustomerID).Scan(&n); err != nil {
			return fmt.Errorf("save profile %s: %w", p.ID, err)
		}
		if n == 0 {
			return kb.NotFound("Customer")
		}
		_, err := tx.ExecContext(ctx, `INSERT INTO profiles(customer_id, group_id, profile_id, password_hash, guest) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT (customer_id, group_id, profile_id) DO UPDATE SET password_hash = excluded.password_hash, guest = excluded.guest`,
			p.ID.CustomerID, p.ID.GroupID, p.ID.ProfileID, p.PasswordHash, boolInt(p.Guest))
		if err != nil {
			return fmt.Errorf("save profile %s: %w", p.ID, err)
		}
		return nil
	})
}

// LookupProfile returns a publication search profile.
func (s *Store) LookupProfile(ctx context.Context, id kb.ProfileID) (kb.Profile, error) {
	p := kb.Profile{ID: id}
	err := s.r.QueryRowContext(ctx, `SELECT password_hash, guest FROM profiles WHERE customer_id = ? AND group_id = ? AND profile_id = ?`,
		id.CustomerID, id.GroupID, id.ProfileID).Scan(&p.PasswordHash, &p.Guest)
	if errors.Is(err, sql.ErrNoRows) {
		return p, kb.NotFound("Profile")
	}
	if err != nil {
		return p, fmt.Errorf("look up profile %s: %w", id, err)
	}
	return p, nil
}
