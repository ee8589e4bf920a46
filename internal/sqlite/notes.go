package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// AddNote stores a note on a resource the customer can see and returns it
// with its new id. The fields are checked by kb.Note.Validate first; then
// the customer, the package (visible to the customer) and the title in it
// must exist, else CodeNotFound for "Customer", "Package" or "Title".
func (s *Store) AddNote(ctx context.Context, custID string, n kb.Note) (kb.Note, error) {
	if err := kbsql.NewNote(&n); err != nil {
		return kb.Note{}, err
	}
	showOn, err := json.Marshal(n.ShowOn)
	if err != nil {
		return kb.Note{}, fmt.Errorf("add note: encode show-on flags: %w", err)
	}
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		var one int
		err := tx.QueryRowContext(ctx, `SELECT 1 FROM customers WHERE id = ?`, custID).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return kb.NotFound("Customer")
		}
		if err != nil {
			return fmt.Errorf("add note: customer %q: %w", custID, err)
		}
		if err := checkPackage(ctx, tx, custID, n.PackageID); err != nil {
			return err
		}
		err = tx.QueryRowContext(ctx, `SELECT 1 FROM resources WHERE package_id = ? AND title_id = ?`, n.PackageID, n.TitleID).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return kb.NotFound("Title")
		}
		if err != nil {
			return fmt.Errorf("add note: resource %d/%d: %w", n.PackageID, n.TitleID, err)
		}
		err = tx.QueryRowContext(ctx, `INSERT INTO notes(customer_id, package_id, title_id, name, rank, text,
			icon_url, icon_id, alt_text, hover_text, link_url, show_on)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			custID, n.PackageID, n.TitleID, n.Name, n.Rank, n.Text,
			n.IconURL, n.IconID, n.AltText, n.HoverText, n.LinkURL, string(showOn)).Scan(&n.ID)
		if err != nil {
			return fmt.Errorf("add note on resource %d/%d: %w", n.PackageID, n.TitleID, err)
		}
		return nil
	})
	if err != nil {
		return kb.Note{}, err
	}
	return n, nil
}

// RemoveNote deletes one of the customer's notes; CodeNotFound ("Note")
// when the customer has none with that id, including when another customer
// has.
func (s *Store) RemoveNote(ctx context.Context, custID string, noteID int64) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM notes WHERE id = ? AND customer_id = ?`, noteID, custID)
		if err != nil {
			return fmt.Errorf("remove note %d: %w", noteID, err)
		}
		n, err := res.RowsAffected()
		if err != nil {
			return fmt.Errorf("remove note %d: %w", noteID, err)
		}
		if n == 0 {
			return kb.NotFound("Note")
		}
		return nil
	})
}

// Notes returns the customer's notes on the resources, each list in rank
// order then id; resources without notes are absent from the map, which is
// never nil. It reads all the keys (a page of search results) in one
// query, driven by the keys through the index notes_resource.
func (s *Store) Notes(ctx context.Context, custID string, keys []kb.ResourceKey) (map[kb.ResourceKey][]kb.Note, error) {
	out := make(map[kb.ResourceKey][]kb.Note)
	if len(keys) == 0 {
		return out, nil
	}
	// Each resource once, as [package, title] pairs: a repeated key would
	// repeat its notes.
	keys = kbsql.UniqueKeys(keys)
	pairs := make([][2]int64, len(keys))
	for i, k := range keys {
		pairs[i] = [2]int64{k.PackageID, k.TitleID}
	}
	// CROSS JOIN keeps the keys the outer loop: each is one search of
	// notes_resource. With a plain JOIN, SQLite scans all the customer's
	// notes and the keys for each.
	keysJSON, err := json.Marshal(pairs)
	if err != nil {
		return nil, fmt.Errorf("notes: encode resource keys: %w", err)
	}
	rows, err := s.r.QueryContext(ctx, `SELECT n.id, n.package_id, n.title_id, n.name, n.rank, n.text,
		n.icon_url, n.icon_id, n.alt_text, n.hover_text, n.link_url, n.show_on
		FROM json_each(:keys) k
		CROSS JOIN notes n ON n.customer_id = :cust
			AND n.package_id = json_extract(k.value, '$[0]') AND n.title_id = json_extract(k.value, '$[1]')
		ORDER BY n.package_id, n.title_id, n.rank, n.id`,
		sql.Named("keys", string(keysJSON)), sql.Named("cust", custID))
	if err != nil {
		return nil, fmt.Errorf("notes of %d resources: %w", len(pairs), err)
	}
	defer rows.Close()
	for rows.Next() {
		var n kb.Note
		var showOn string
		if err := rows.Scan(&n.ID, &n.PackageID, &n.TitleID, &n.Name, &n.Rank, &n.Text,
			&n.IconURL, &n.IconID, &n.AltText, &n.HoverText, &n.LinkURL, &showOn); err != nil {
			return nil, fmt.Errorf("notes: %w", err)
		}
		n.ShowOn = []string{}
		if err := json.Unmarshal([]byte(showOn), &n.ShowOn); err != nil {
			return nil, fmt.Errorf("note %d: show-on flags %q: %w", n.ID, showOn, err)
		}
		if n.ShowOn == nil { // a stored "null"
			n.ShowOn = []string{}
		}
		k := kb.ResourceKey{PackageID: n.PackageID, TitleID: n.TitleID}
		out[k] = append(out[k], n)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("notes: %w", err)
	}
	return out, nil
}
