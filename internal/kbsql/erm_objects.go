package kbsql

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/kbserver/kbserver/internal/kb"
)

// ermWhat names an object in messages: its kind's noun in lower case and
// its id.
func ermWhat(o kb.ERMObject) string { return strings.ToLower(o.Kind.Noun()) + " " + o.ID }

// ermUnstorable words an engine's refusal of a text value of what (e.g.
// "contact 42") for the object; other errors are returned as they are.
func ermUnstorable(what string, err error) error {
	if errors.Is(err, ErrUnstorableText) {
		return kb.Errorf(kb.CodeInvalid, "The fields of %s hold a character the database cannot store (such as U+0000).", what)
	}
	return err
}

// CreateERMObject stores a new object. The kind must be one of
// kb.ERMKinds (else CodeInvalid), the id not empty (CodeMissing) and not
// the id of another of the customer's objects, of any kind
// (CodeDuplicate), the body a JSON object (CodeInvalid; empty is stored
// as {}), and the customer must exist (CodeNotFound "Customer").
func (s *Store) CreateERMObject(ctx context.Context, o kb.ERMObject) error {
	if _, err := kb.ParseERMKind(string(o.Kind)); err != nil {
		return err
	}
	if o.ID == "" {
		return kb.Errorf(kb.CodeMissing, "%s needs an id.", o.Kind.Noun())
	}
	body, err := ERMBody(ermWhat(o), o.Body)
	if err != nil {
		return err
	}
	return ermUnstorable(ermWhat(o), s.e.Write(ctx, o.CustomerID, func(tx Tx) error {
		if err := checkCustomer(ctx, tx, o.CustomerID); err != nil {
			return err
		}
		n, err := tx.Exec(ctx, `INSERT INTO erm_objects(customer_id, id, kind, status, description, created, updated, body)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (customer_id, id) DO NOTHING`,
			o.CustomerID, o.ID, string(o.Kind), o.Status, o.Description, FormatERMTime(o.Created), FormatERMTime(o.Updated), body)
		if err != nil {
			return fmt.Errorf("create %s %s: %w", o.Kind, o.ID, err)
		}
		if n == 0 {
			return kb.Errorf(kb.CodeDuplicate, "An object with id %s already exists.", o.ID)
		}
		return nil
	}))
}

// ERMObject returns one of the customer's objects of a kind; CodeNotFound,
// naming the kind and the id, when the customer has none.
func (s *Store) ERMObject(ctx context.Context, custID string, kind kb.ERMKind, id string) (kb.ERMObject, error) {
	row := s.e.Read().QueryRow(ctx, `SELECT `+ERMColumns+` FROM erm_objects o WHERE o.customer_id = $1 AND o.kind = $2 AND o.id = $3`,
		custID, string(kind), id)
	o, err := ScanERMObject(row)
	if NoRows(err) {
		return kb.ERMObject{}, kind.NotFound(id)
	}
	if err != nil {
		return kb.ERMObject{}, fmt.Errorf("read %s %s: %w", kind, id, err)
	}
	return o, nil
}

// UpdateERMObject replaces the status, description, body and update time
// of one of the customer's objects of o.Kind, keeping its creation time;
// CodeNotFound when the customer has none with that kind and id, and
// CodeInvalid when the body is not a JSON object.
func (s *Store) UpdateERMObject(ctx context.Context, o kb.ERMObject) error {
	body, err := ERMBody(ermWhat(o), o.Body)
	if err != nil {
		return err
	}
	return ermUnstorable(ermWhat(o), s.e.Write(ctx, o.CustomerID, func(tx Tx) error {
		n, err := tx.Exec(ctx, `UPDATE erm_objects SET status = $1, description = $2, body = $3, updated = $4
			WHERE customer_id = $5 AND kind = $6 AND id = $7`,
			o.Status, o.Description, body, FormatERMTime(o.Updated), o.CustomerID, string(o.Kind), o.ID)
		if err != nil {
			return fmt.Errorf("update %s %s: %w", o.Kind, o.ID, err)
		}
		if n == 0 {
			return o.Kind.NotFound(o.ID)
		}
		return nil
	}))
}

// DeleteERMObject deletes one of the customer's objects of a kind and its
// assignments, in one transaction; CodeNotFound when the customer has no
// such object (and then nothing is deleted).
func (s *Store) DeleteERMObject(ctx context.Context, custID string, kind kb.ERMKind, id string) error {
	return s.e.Write(ctx, custID, func(tx Tx) error {
		// The assignments first: their foreign key refuses the object's
		// deletion while they remain. Only those of an object of the kind:
		// the id of an object of another kind deletes nothing.
		if _, err := tx.Exec(ctx, `DELETE FROM erm_assignments WHERE customer_id = $1 AND object_id IN
			(SELECT id FROM erm_objects WHERE customer_id = $1 AND kind = $2 AND id = $3)`, custID, string(kind), id); err != nil {
			return fmt.Errorf("delete the assignments of %s %s: %w", kind, id, err)
		}
		n, err := tx.Exec(ctx, `DELETE FROM erm_objects WHERE customer_id = $1 AND kind = $2 AND id = $3`, custID, string(kind), id)
		if err != nil {
			return fmt.Errorf("delete %s %s: %w", kind, id, err)
		}
		if n == 0 {
			return kind.NotFound(id)
		}
		return nil
	})
}
