package kbsql

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
)

// AddNote stores a note on a resource the customer can see and returns it
// with its new id. The fields are checked by kb.NewNote first; then the
// customer, the package (visible to the customer) and the title in it must
// exist, else CodeNotFound for "Customer", "Package" or "Title".
func (s *Store) AddNote(ctx context.Context, custID string, n kb.Note) (kb.Note, error) {
	if err := kb.NewNote(&n); err != nil {
		return kb.Note{}, err
	}
	showOn, err := json.Marshal(n.ShowOn)
	if err != nil {
		return kb.Note{}, fmt.Errorf("add note: encode show-on flags: %w", err)
	}
	err = s.e.Write(ctx, custID, func(tx Tx) error {
		if err := checkCustomer(ctx, tx, custID); err != nil {
			return err
		}
		if err := checkPackage(ctx, tx, custID, n.PackageID); err != nil {
			return err
		}
		ok, err := exists(ctx, tx, `SELECT 1 FROM resources WHERE package_id = $1 AND title_id = $2`, n.PackageID, n.TitleID)
		if err != nil {
			return fmt.Errorf("add note: resource %d/%d: %w", n.PackageID, n.TitleID, err)
		}
		if !ok {
			return kb.NotFound("Title")
		}
		err = tx.QueryRow(ctx, `INSERT INTO notes(customer_id, package_id, title_id, name, rank, text,
			icon_url, icon_id, alt_text, hover_text, link_url, show_on)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12) RETURNING id`,
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
	return s.e.Write(ctx, custID, func(tx Tx) error {
		n, err := tx.Exec(ctx, `DELETE FROM notes WHERE id = $1 AND customer_id = $2`, noteID, custID)
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
// query through the index notes_resource: the notes of the keys' packages
// and titles, of which it keeps those of the keys' pairs.
func (s *Store) Notes(ctx context.Context, custID string, keys []kb.ResourceKey) (map[kb.ResourceKey][]kb.Note, error) {
	out := make(map[kb.ResourceKey][]kb.Note)
	if len(keys) == 0 {
		return out, nil
	}
	want := make(map[kb.ResourceKey]bool, len(keys))
	var pkgs, titles []int64
	for _, k := range keys {
		if !want[k] {
			want[k] = true
			pkgs, titles = append(pkgs, k.PackageID), append(titles, k.TitleID)
		}
	}
	rows, err := s.e.Read().Query(ctx, `SELECT n.id, n.package_id, n.title_id, n.name, n.rank, n.text,
		n.icon_url, n.icon_id, n.alt_text, n.hover_text, n.link_url, n.show_on
		FROM notes n WHERE n.customer_id = $1 AND `+s.d.InIDs("n.package_id", "$2")+` AND `+s.d.InIDs("n.title_id", "$3")+`
		ORDER BY n.package_id, n.title_id, n.rank, n.id`, custID, pkgs, titles)
	if err != nil {
		return nil, fmt.Errorf("notes of %d resources: %w", len(want), err)
	}
	defer rows.Close()
	for rows.Next() {
		var n kb.Note
		var showOn string
		if err := rows.Scan(&n.ID, &n.PackageID, &n.TitleID, &n.Name, &n.Rank, &n.Text,
			&n.IconURL, &n.IconID, &n.AltText, &n.HoverText, &n.LinkURL, &showOn); err != nil {
			return nil, fmt.Errorf("notes: %w", err)
		}
		k := kb.ResourceKey{PackageID: n.PackageID, TitleID: n.TitleID}
		if !want[k] {
			continue // a package and a title of the keys, not a pair of them
		}
		if err := json.Unmarshal([]byte(showOn), &n.ShowOn); err != nil {
			return nil, fmt.Errorf("note %d: show-on flags %q: %w", n.ID, showOn, err)
		}
		if n.ShowOn == nil { // a stored "null"
			n.ShowOn = []string{}
		}
		out[k] = append(out[k], n)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("notes: %w", err)
	}
	return out, nil
}
