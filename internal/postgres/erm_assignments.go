package postgres

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
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
	what := "assignment " + a.ID
	body, err := kbsql.ERMBody(what, a.Body)
	if err != nil {
		return kb.Assignment{}, err
	}
	if a.Created.IsZero() {
		a.Created = time.Now()
	}
	a.Created = a.Created.UTC()
	err = s.customerTx(ctx, a.CustomerID, func(tx pgx.Tx) error {
		// One statement reads the object's kind and inserts: no kind is
		// a missing object, no row inserted a taken id.
		var kind *string
		var inserted bool
		err := tx.QueryRow(ctx, `WITH o AS (SELECT kind FROM erm_objects WHERE customer_id = $1 AND id = $2),
			ins AS (INSERT INTO erm_assignments(customer_id, id, object_id, object_kind, relative_url, link_url, created, body)
				SELECT $1, $3, $2, o.kind, $4, $5, $6, $7 FROM o
				ON CONFLICT (customer_id, id) DO NOTHING RETURNING 1)
			SELECT (SELECT kind FROM o), EXISTS (SELECT 1 FROM ins)`,
			a.CustomerID, a.ObjectID, a.ID, a.RelativeURL, a.LinkURL, kbsql.FormatERMTime(a.Created), body).Scan(&kind, &inserted)
		switch {
		case err != nil:
			return ermUnstorable(what, fmt.Errorf("create assignment %s: %w", a.ID, err))
		case kind == nil:
			return kb.ERMKind("").NotFound(a.ObjectID)
		case !inserted:
			return kb.Errorf(kb.CodeDuplicate, "An assignment with id %s already exists.", a.ID)
		}
		a.ObjectKind = kb.ERMKind(*kind)
		return nil
	})
	if err != nil {
		return kb.Assignment{}, err
	}
	return a, nil
}

// Assignments lists a page of the customer's assignments, oldest first
// then in id order, with the number that match. Each non-empty field of q
// keeps the assignments equal to it.
func (s *Store) Assignments(ctx context.Context, custID string, q kb.AssignmentQuery) (kb.AssignmentList, error) {
	list := kb.AssignmentList{Assignments: []kb.Assignment{}}
	if err := kbsql.CheckERMPage(q.Page); err != nil {
		return list, err
	}
	var args ermArgs
	where := []string{`a.customer_id = ` + args.add(custID)}
	for _, f := range []struct{ col, value string }{
		{`a.object_id`, q.ObjectID},
		{`a.object_kind`, string(q.ObjectKind)},
		{`a.relative_url`, q.RelativeURL},
	} {
		if f.value != "" {
			where = append(where, f.col+` = `+args.add(f.value))
		}
	}
	var err error
	list.Total, list.Assignments, err = ermPage(ctx, s, kbsql.AssignmentColumns, `erm_assignments a`, strings.Join(where, " AND "),
		`a.created, a.id`, args, q.Page, func(rows pgx.Rows) (kb.Assignment, error) { return kbsql.ScanAssignment(rows) })
	if err != nil {
		return list, fmt.Errorf("list assignments: %w", err)
	}
	return list, nil
}

// DeleteAssignment deletes one of the customer's assignments;
// CodeNotFound when the customer has none with that id.
func (s *Store) DeleteAssignment(ctx context.Context, custID, id string) error {
	return s.customerTx(ctx, custID, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM erm_assignments WHERE customer_id = $1 AND id = $2`, custID, id)
		if err != nil {
			return fmt.Errorf("delete assignment %s: %w", id, err)
		}
		if tag.RowsAffected() == 0 {
			return kb.KindAssignment.NotFound(id)
		}
		return nil
	})
}
