package postgres

import (
	"context"
	"fmt"

	"github.com/jackc/pgx/v5"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// sqlAddNote checks the customer ($1), the package ($2, visible to the
// customer) and the resource ($2, $3) and inserts the note only when all
// three exist, in one statement: the checks say which is missing when no
// id comes back.
const sqlAddNote = `WITH chk AS (
		SELECT EXISTS (SELECT 1 FROM customers WHERE id = $1) AS cust,
			EXISTS (SELECT 1 FROM packages p WHERE p.id = $2 AND (p.customer_id IS NULL OR p.customer_id = $1)) AS pkg,
			EXISTS (SELECT 1 FROM resources WHERE package_id = $2 AND title_id = $3) AS res
	), ins AS (
		INSERT INTO notes(customer_id, package_id, title_id, name, rank, text,
			icon_url, icon_id, alt_text, hover_text, link_url, show_on)
		SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12 FROM chk WHERE cust AND pkg AND res
		RETURNING id
	)
	SELECT cust, pkg, res, (SELECT id FROM ins) FROM chk`

// AddNote stores a note on a resource the customer can see and returns it
// with its new id. The fields are checked by kb.Note.Validate first; then
// the customer, the package (visible to the customer) and the title in it
// must exist, else CodeNotFound for "Customer", "Package" or "Title".
func (s *Store) AddNote(ctx context.Context, custID string, n kb.Note) (kb.Note, error) {
	if err := kbsql.NewNote(&n); err != nil {
		return kb.Note{}, err
	}
	err := s.customerTx(ctx, custID, func(tx pgx.Tx) error {
		var cust, pkg, res bool
		var id *int64
		err := tx.QueryRow(ctx, sqlAddNote, custID, n.PackageID, n.TitleID, n.Name, n.Rank, n.Text,
			n.IconURL, n.IconID, n.AltText, n.HoverText, n.LinkURL, n.ShowOn).Scan(&cust, &pkg, &res, &id)
		switch {
		case err != nil:
			return fmt.Errorf("add note on resource %d/%d: %w", n.PackageID, n.TitleID, err)
		case !cust:
			return kb.NotFound("Customer")
		case !pkg:
			return kb.NotFound("Package")
		case !res:
			return kb.NotFound("Title")
		case id == nil: // not possible: the checks passed
			return fmt.Errorf("add note on resource %d/%d: no id returned", n.PackageID, n.TitleID)
		}
		n.ID = *id
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
	return s.customerTx(ctx, custID, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM notes WHERE id = $1 AND customer_id = $2`, noteID, custID)
		if err != nil {
			return fmt.Errorf("remove note %d: %w", noteID, err)
		}
		if tag.RowsAffected() == 0 {
			return kb.NotFound("Note")
		}
		return nil
	})
}

// Notes returns the customer's notes on the resources, each list in rank
// order then id; resources without notes are absent from the map, which is
// never nil. It reads all the keys (a page of search results) in one
// query: the keys, as two arrays, drive the index notes_resource.
func (s *Store) Notes(ctx context.Context, custID string, keys []kb.ResourceKey) (map[kb.ResourceKey][]kb.Note, error) {
	out := make(map[kb.ResourceKey][]kb.Note)
	if len(keys) == 0 {
		return out, nil
	}
	// Each resource once: a repeated key would repeat its notes.
	keys = kbsql.UniqueKeys(keys)
	pkgs := make([]int64, len(keys))
	titles := make([]int64, len(keys))
	for i, k := range keys {
		pkgs[i], titles[i] = k.PackageID, k.TitleID
	}
	rows, err := s.pool.Query(ctx, `SELECT n.id, n.package_id, n.title_id, n.name, n.rank, n.text,
			n.icon_url, n.icon_id, n.alt_text, n.hover_text, n.link_url, n.show_on
		FROM unnest($2::bigint[], $3::bigint[]) AS k(package_id, title_id)
		JOIN notes n ON n.customer_id = $1 AND n.package_id = k.package_id AND n.title_id = k.title_id
		ORDER BY n.package_id, n.title_id, n.rank, n.id`, custID, pkgs, titles)
	if err != nil {
		return nil, fmt.Errorf("notes of %d resources: %w", len(pkgs), err)
	}
	defer rows.Close()
	for rows.Next() {
		var n kb.Note
		if err := rows.Scan(&n.ID, &n.PackageID, &n.TitleID, &n.Name, &n.Rank, &n.Text,
			&n.IconURL, &n.IconID, &n.AltText, &n.HoverText, &n.LinkURL, &n.ShowOn); err != nil {
			return nil, fmt.Errorf("notes: %w", err)
		}
		if n.ShowOn == nil {
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
