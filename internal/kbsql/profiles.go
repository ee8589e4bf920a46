package kbsql

import (
	"context"
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
)

// SaveProfile creates a publication search profile or changes its password
// hash and guest access.
func (s *Store) SaveProfile(ctx context.Context, p kb.Profile) error {
	return s.e.Write(ctx, p.ID.CustomerID, func(tx Tx) error {
		if err := checkCustomer(ctx, tx, p.ID.CustomerID); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO profiles(customer_id, group_id, profile_id, password_hash, guest) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (customer_id, group_id, profile_id) DO UPDATE SET password_hash = excluded.password_hash, guest = excluded.guest`,
			p.ID.CustomerID, p.ID.GroupID, p.ID.ProfileID, p.PasswordHash, p.Guest)
		if err != nil {
			return fmt.Errorf("save profile %s: %w", p.ID, err)
		}
		return nil
	})
}

// LookupProfile returns a publication search profile.
func (s *Store) LookupProfile(ctx context.Context, id kb.ProfileID) (kb.Profile, error) {
	p := kb.Profile{ID: id}
	err := s.e.Read().QueryRow(ctx, `SELECT password_hash, guest, request_url FROM profiles WHERE customer_id = $1 AND group_id = $2 AND profile_id = $3`,
		id.CustomerID, id.GroupID, id.ProfileID).Scan(&p.PasswordHash, &p.Guest, &p.RequestURL)
	if NoRows(err) {
		return p, kb.NotFound("Profile")
	}
	if err != nil {
		return p, fmt.Errorf("look up profile %s: %w", id, err)
	}
	return p, nil
}

// Profiles lists the publication search profiles of the customer, or of
// every customer when custID is "", ordered by their names.
func (s *Store) Profiles(ctx context.Context, custID string) ([]kb.Profile, error) {
	out := []kb.Profile{}
	err := EachRow(ctx, s.e.Read(), `SELECT customer_id, group_id, profile_id, password_hash, guest, request_url FROM profiles
		WHERE $1 = '' OR customer_id = $1 ORDER BY customer_id, group_id, profile_id`, []any{custID}, func(r Rows) error {
		var p kb.Profile
		if err := r.Scan(&p.ID.CustomerID, &p.ID.GroupID, &p.ID.ProfileID, &p.PasswordHash, &p.Guest, &p.RequestURL); err != nil {
			return err
		}
		out = append(out, p)
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("list profiles: %w", err)
	}
	return out, nil
}

// SetProfileRequestURL sets the interlibrary-loan request form of a
// profile ("" for none); the profile must exist (CodeNotFound). The
// address is checked by kb.CheckRequestURL.
func (s *Store) SetProfileRequestURL(ctx context.Context, id kb.ProfileID, url string) error {
	if err := kb.CheckRequestURL(url); err != nil {
		return err
	}
	return s.e.Write(ctx, id.CustomerID, func(tx Tx) error {
		n, err := tx.Exec(ctx, `UPDATE profiles SET request_url = $4 WHERE customer_id = $1 AND group_id = $2 AND profile_id = $3`,
			id.CustomerID, id.GroupID, id.ProfileID, url)
		if err != nil {
			return fmt.Errorf("set request form of profile %s: %w", id, err)
		}
		if n == 0 {
			return kb.NotFound("Profile")
		}
		return nil
	})
}
