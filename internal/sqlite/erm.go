package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// ermTextColumns are the expressions, in erm_objects o, of the fields
// sorted as text. Filters match the status and the document URL exactly,
// the others by "contains". The body's fields are its members at
// kbsql.ERMBodyPaths.
var ermTextColumns = func() map[kb.ERMField]string {
	cols := map[kb.ERMField]string{
		kb.FieldStatus:      `o.status`,
		kb.FieldDescription: `o.description`,
	}
	for f, path := range kbsql.ERMBodyPaths {
		cols[f] = `json_extract(o.body, '$.` + strings.Join(path, ".") + `')`
	}
	return cols
}()

// ermTimeColumns are the columns of the date fields.
var ermTimeColumns = map[kb.ERMField]string{
	kb.FieldDateCreated: `o.created`,
	kb.FieldDateUpdated: `o.updated`,
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
	body, err := kbsql.ERMBody(strings.ToLower(o.Kind.Noun())+" "+o.ID, o.Body)
	if err != nil {
		return err
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		var one int
		err := tx.QueryRowContext(ctx, `SELECT 1 FROM customers WHERE id = ?`, o.CustomerID).Scan(&one)
		if errors.Is(err, sql.ErrNoRows) {
			return kb.NotFound("Customer")
		}
		if err != nil {
			return fmt.Errorf("create %s %s: customer %q: %w", o.Kind, o.ID, o.CustomerID, err)
		}
		res, err := tx.ExecContext(ctx, `INSERT INTO erm_objects(customer_id, id, kind, status, description, created, updated, body)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (customer_id, id) DO NOTHING`,
			o.CustomerID, o.ID, string(o.Kind), o.Status, o.Description, kbsql.FormatERMTime(o.Created), kbsql.FormatERMTime(o.Updated), body)
		if err != nil {
			return fmt.Errorf("create %s %s: %w", o.Kind, o.ID, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("create %s %s: %w", o.Kind, o.ID, err)
		} else if n == 0 {
			return kb.Errorf(kb.CodeDuplicate, "An object with id %s already exists.", o.ID)
		}
		return nil
	})
}

// ERMObject returns one of the customer's objects of a kind; CodeNotFound,
// naming the kind and the id, when the customer has none.
func (s *Store) ERMObject(ctx context.Context, custID string, kind kb.ERMKind, id string) (kb.ERMObject, error) {
	row := s.r.QueryRowContext(ctx, `SELECT `+kbsql.ERMColumns+` FROM erm_objects o WHERE o.customer_id = ? AND o.kind = ? AND o.id = ?`,
		custID, string(kind), id)
	o, err := kbsql.ScanERMObject(row)
	if errors.Is(err, sql.ErrNoRows) {
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
	body, err := kbsql.ERMBody(strings.ToLower(o.Kind.Noun())+" "+o.ID, o.Body)
	if err != nil {
		return err
	}
	return s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `UPDATE erm_objects SET status = ?, description = ?, body = ?, updated = ?
			WHERE customer_id = ? AND kind = ? AND id = ?`,
			o.Status, o.Description, body, kbsql.FormatERMTime(o.Updated), o.CustomerID, string(o.Kind), o.ID)
		if err != nil {
			return fmt.Errorf("update %s %s: %w", o.Kind, o.ID, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("update %s %s: %w", o.Kind, o.ID, err)
		} else if n == 0 {
			return o.Kind.NotFound(o.ID)
		}
		return nil
	})
}

// DeleteERMObject deletes one of the customer's objects of a kind and its
// assignments, in one transaction; CodeNotFound when the customer has no
// such object (and then nothing is deleted).
func (s *Store) DeleteERMObject(ctx context.Context, custID string, kind kb.ERMKind, id string) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		// The assignments first: their foreign key refuses the object's
		// deletion while they remain.
		if _, err := tx.ExecContext(ctx, `DELETE FROM erm_assignments WHERE customer_id = :cust AND object_id IN
			(SELECT id FROM erm_objects WHERE customer_id = :cust AND kind = :kind AND id = :id)`,
			sql.Named("cust", custID), sql.Named("kind", string(kind)), sql.Named("id", id)); err != nil {
			return fmt.Errorf("delete the assignments of %s %s: %w", kind, id, err)
		}
		res, err := tx.ExecContext(ctx, `DELETE FROM erm_objects WHERE customer_id = ? AND kind = ? AND id = ?`, custID, string(kind), id)
		if err != nil {
			return fmt.Errorf("delete %s %s: %w", kind, id, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("delete %s %s: %w", kind, id, err)
		} else if n == 0 {
			return kind.NotFound(id)
		}
		return nil
	})
}

// ERMObjects lists a page of the customer's objects of q.Kind, with the
// number that match. The filter and the sort keys must be fields of the
// kind (kb.ERMKind.CheckFilter and CheckSort, else CodeInvalid). The
// status and the document URL match exactly; the other text fields match
// by "contains", without regard to ASCII case, and all text fields sort
// without regard to it. An object without the field (a JSON member
// missing) matches no text filter and sorts first in ascending order.
// The default order is newest first; ties always end in id order.
func (s *Store) ERMObjects(ctx context.Context, custID string, q kb.ERMQuery) (kb.ERMList, error) {
	list := kb.ERMList{Objects: []kb.ERMObject{}}
	if _, err := kb.ParseERMKind(string(q.Kind)); err != nil {
		return list, err
	}
	if err := kbsql.CheckERMPage(q.Page); err != nil {
		return list, err
	}
	args := []any{sql.Named("cust", custID), sql.Named("kind", string(q.Kind))}
	where := []string{`o.customer_id = :cust`, `o.kind = :kind`}
	if q.Filter != nil {
		conds, err := ermFilter(q.Kind, *q.Filter, &args)
		if err != nil {
			return list, err
		}
		where = append(where, conds...)
	}
	if q.AssignedTo != "" {
		where = append(where, `o.id IN (SELECT a.object_id FROM erm_assignments a
			WHERE a.customer_id = :cust AND (a.relative_url = :url OR a.link_url = :url))`)
		args = append(args, sql.Named("url", q.AssignedTo))
	}
	order, err := ermOrder(q.Kind, q.Sort)
	if err != nil {
		return list, err
	}
	list.Total, list.Objects, err = listPage(ctx, s.r, kbsql.ERMColumns, `erm_objects o`, strings.Join(where, " AND "), order, args, q.Page,
		func(rows *sql.Rows) (kb.ERMObject, error) { return kbsql.ScanERMObject(rows) })
	if err != nil {
		return list, fmt.Errorf("list %s objects: %w", q.Kind, err)
	}
	return list, nil
}

// ermFilter returns the conditions on erm_objects o of a filter of a list
// of kind, adding their arguments to args (:cust is there already). User
// text is only ever an argument. Conditions on assignments are
// uncorrelated IN subqueries: SQLite runs them once per list, not once
// per object.
func ermFilter(kind kb.ERMKind, f kb.ERMFilter, args *[]any) ([]string, error) {
	if err := kind.CheckFilter(f.Field); err != nil {
		return nil, err
	}
	switch f.Field {
	case kb.FieldStatus, kb.FieldDocumentURL:
		*args = append(*args, sql.Named("text", f.Text))
		return []string{ermTextColumns[f.Field] + ` = :text`}, nil
	case kb.FieldAssignmentID:
		*args = append(*args, sql.Named("text", f.Text))
		return []string{`o.id IN (SELECT a.object_id FROM erm_assignments a WHERE a.customer_id = :cust AND a.id = :text)`}, nil
	case kb.FieldDateCreated, kb.FieldDateUpdated:
		col := ermTimeColumns[f.Field]
		var conds []string
		if !f.From.IsZero() {
			conds = append(conds, col+` >= :from`)
			*args = append(*args, sql.Named("from", kbsql.FormatERMTime(f.From)))
		}
		if !f.To.IsZero() {
			conds = append(conds, col+` < :to`)
			*args = append(*args, sql.Named("to", kbsql.FormatERMTime(f.To)))
		}
		return conds, nil
	}
	col, ok := ermTextColumns[f.Field]
	if !ok { // a field CheckFilter allows that this store does not know
		return nil, fmt.Errorf("list %s objects: no column for field %q", kind, f.Field)
	}
	*args = append(*args, sql.Named("text", f.Text))
	return []string{`instr(lower(` + col + `), lower(:text)) > 0`}, nil
}

// ermOrder returns the ORDER BY of a list of kind sorted by keys: each
// key's column (text without regard to ASCII case), then the id; newest
// first when keys is empty.
func ermOrder(kind kb.ERMKind, keys []kb.ERMSort) (string, error) {
	if len(keys) == 0 {
		keys = []kb.ERMSort{{Field: kb.FieldDateCreated, Desc: true}}
	}
	terms := make([]string, 0, len(keys)+1)
	for _, k := range keys {
		if err := kind.CheckSort(k.Field); err != nil {
			return "", err
		}
		col, ok := ermTimeColumns[k.Field]
		if !ok {
			text, ok := ermTextColumns[k.Field]
			if !ok {
				return "", fmt.Errorf("list %s objects: no column for sort field %q", kind, k.Field)
			}
			col = text + ` COLLATE NOCASE`
		}
		if k.Desc {
			col += ` DESC`
		}
		terms = append(terms, col)
	}
	return strings.Join(append(terms, `o.id`), ", "), nil
}

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
	body, err := kbsql.ERMBody("assignment "+a.ID, a.Body)
	if err != nil {
		return kb.Assignment{}, err
	}
	if a.Created.IsZero() {
		a.Created = time.Now()
	}
	a.Created = a.Created.UTC()
	err = s.inTx(ctx, func(tx *sql.Tx) error {
		var kind string
		err := tx.QueryRowContext(ctx, `SELECT kind FROM erm_objects WHERE customer_id = ? AND id = ?`, a.CustomerID, a.ObjectID).Scan(&kind)
		if errors.Is(err, sql.ErrNoRows) {
			return kb.ERMKind("").NotFound(a.ObjectID)
		}
		if err != nil {
			return fmt.Errorf("create assignment %s: object %s: %w", a.ID, a.ObjectID, err)
		}
		a.ObjectKind = kb.ERMKind(kind)
		res, err := tx.ExecContext(ctx, `INSERT INTO erm_assignments(customer_id, id, object_id, object_kind, relative_url, link_url, created, body)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (customer_id, id) DO NOTHING`,
			a.CustomerID, a.ID, a.ObjectID, kind, a.RelativeURL, a.LinkURL, kbsql.FormatERMTime(a.Created), body)
		if err != nil {
			return fmt.Errorf("create assignment %s: %w", a.ID, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("create assignment %s: %w", a.ID, err)
		} else if n == 0 {
			return kb.Errorf(kb.CodeDuplicate, "An assignment with id %s already exists.", a.ID)
		}
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
	args := []any{sql.Named("cust", custID)}
	where := []string{`a.customer_id = :cust`}
	for _, f := range []struct{ col, name, value string }{
		{`a.object_id`, "object", q.ObjectID},
		{`a.object_kind`, "kind", string(q.ObjectKind)},
		{`a.relative_url`, "url", q.RelativeURL},
	} {
		if f.value != "" {
			where = append(where, f.col+` = :`+f.name)
			args = append(args, sql.Named(f.name, f.value))
		}
	}
	var err error
	list.Total, list.Assignments, err = listPage(ctx, s.r, kbsql.AssignmentColumns, `erm_assignments a`, strings.Join(where, " AND "),
		`a.created, a.id`, args, q.Page, func(rows *sql.Rows) (kb.Assignment, error) { return kbsql.ScanAssignment(rows) })
	if err != nil {
		return list, fmt.Errorf("list assignments: %w", err)
	}
	return list, nil
}

// DeleteAssignment deletes one of the customer's assignments;
// CodeNotFound when the customer has none with that id.
func (s *Store) DeleteAssignment(ctx context.Context, custID, id string) error {
	return s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := tx.ExecContext(ctx, `DELETE FROM erm_assignments WHERE customer_id = ? AND id = ?`, custID, id)
		if err != nil {
			return fmt.Errorf("delete assignment %s: %w", id, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return fmt.Errorf("delete assignment %s: %w", id, err)
		} else if n == 0 {
			return kb.KindAssignment.NotFound(id)
		}
		return nil
	})
}
