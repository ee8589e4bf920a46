package kbsql

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// CreateAssignment stores an assignment of one of the customer's objects,
// of any kind, and returns it with ObjectKind set from the object (and
// Created set to now when zero). The object must exist (CodeNotFound
// naming its id), the id not be empty (CodeMissing) nor taken by another
// of the customer's assignments (CodeDuplicate), and the body be a JSON
// object (CodeInvalid; empty is stored as {}).
func (s *Store) CreateAssignment(ctx context.Context, a kb.Assignment) (kb.Assignment, error) {
	if a.ID == "" {
		return kb.Assignment{}, kb.Errorf(kb.CodeMissing, "Assignment needs an id.")
	}
	body, err := ERMBody("assignment "+a.ID, a.Body)
	if err != nil {
		return kb.Assignment{}, err
	}
	// The stores index both URLs.
	if err := errors.Join(kb.CheckText("A relative URL", a.RelativeURL, kb.LimitURL), kb.CheckText("A link URL", a.LinkURL, kb.LimitURL)); err != nil {
		return kb.Assignment{}, err
	}
	if a.Created.IsZero() {
		a.Created = time.Now()
	}
	a.Created = a.Created.UTC()
	err = s.e.Write(ctx, a.CustomerID, func(tx Tx) error {
		var kind string
		err := tx.QueryRow(ctx, `SELECT kind FROM erm_objects WHERE customer_id = $1 AND id = $2`, a.CustomerID, a.ObjectID).Scan(&kind)
		if NoRows(err) {
			return kb.ERMKind("").NotFound(a.ObjectID)
		}
		if err != nil {
			return fmt.Errorf("create assignment %s: object %s: %w", a.ID, a.ObjectID, err)
		}
		a.ObjectKind = kb.ERMKind(kind)
		n, err := tx.Exec(ctx, `INSERT INTO erm_assignments(customer_id, id, object_id, object_kind, relative_url, link_url, created, body)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (customer_id, id) DO NOTHING`,
			a.CustomerID, a.ID, a.ObjectID, kind, a.RelativeURL, a.LinkURL, FormatERMTime(a.Created), body)
		if err != nil {
			return fmt.Errorf("create assignment %s: %w", a.ID, err)
		}
		if n == 0 {
			return kb.Errorf(kb.CodeDuplicate, "An assignment with id %s already exists.", a.ID)
		}
		return nil
	})
	if err != nil {
		return kb.Assignment{}, ermUnstorable("assignment "+a.ID, err)
	}
	return a, nil
}

// Assignments lists a page of the customer's assignments, oldest first
// then in id order, with the number that match. Each non-empty field of q
// keeps the assignments equal to it.
func (s *Store) Assignments(ctx context.Context, custID string, q kb.AssignmentQuery) (kb.AssignmentList, error) {
	list := kb.AssignmentList{Assignments: []kb.Assignment{}}
	if err := CheckERMPage(q.Page); err != nil {
		return list, err
	}
	var args Args
	where := []string{`a.customer_id = ` + args.Add(custID)}
	for _, f := range []struct{ col, value string }{
		{`a.object_id`, q.ObjectID},
		{`a.object_kind`, string(q.ObjectKind)},
		{`a.relative_url`, q.RelativeURL},
	} {
		if f.value != "" {
			where = append(where, f.col+` = `+args.Add(f.value))
		}
	}
	var err error
	list.Total, list.Assignments, err = ListPage(ctx, s.e.Read(), AssignmentColumns, `erm_assignments a`, strings.Join(where, " AND "),
		`a.created, a.id`, args, q.Page, func(rows Rows) (kb.Assignment, error) { return ScanAssignment(rows) })
	if err != nil {
		return list, fmt.Errorf("list assignments: %w", err)
	}
	return list, nil
}

// DeleteAssignment deletes one of the customer's assignments;
// CodeNotFound when the customer has none with that id.
func (s *Store) DeleteAssignment(ctx context.Context, custID, id string) error {
	return s.e.Write(ctx, custID, func(tx Tx) error {
		n, err := tx.Exec(ctx, `DELETE FROM erm_assignments WHERE customer_id = $1 AND id = $2`, custID, id)
		if err != nil {
			return fmt.Errorf("delete assignment %s: %w", id, err)
		}
		if n == 0 {
			return kb.KindAssignment.NotFound(id)
		}
		return nil
	})
}
