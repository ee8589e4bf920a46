package kbsql

import (
	"fmt"

	"github.com/kbserver/kbserver/internal/kb"
)

// Scanner is a row of a query result, of either engine's driver.
type Scanner interface{ Scan(dest ...any) error }

// ERMColumns are the columns ScanERMObject reads, of erm_objects o: the
// same names and kinds of values (times as ERMTimeLayout text) on both
// engines.
const ERMColumns = `o.id, o.customer_id, o.kind, o.status, o.description, o.created, o.updated, o.body`

// AssignmentColumns are the columns ScanAssignment reads, of
// erm_assignments a.
const AssignmentColumns = `a.id, a.customer_id, a.object_id, a.object_kind, a.relative_url, a.link_url, a.created, a.body`

// ScanERMObject reads the ERMColumns of one row.
func ScanERMObject(row Scanner) (kb.ERMObject, error) {
	var o kb.ERMObject
	var kind, created, updated string
	if err := row.Scan(&o.ID, &o.CustomerID, &kind, &o.Status, &o.Description, &created, &updated, &o.Body); err != nil {
		return o, err
	}
	o.Kind = kb.ERMKind(kind)
	var err error
	if o.Created, err = parseERMTime(created); err != nil {
		return o, fmt.Errorf("object %s: creation time: %w", o.ID, err)
	}
	if o.Updated, err = parseERMTime(updated); err != nil {
		return o, fmt.Errorf("object %s: update time: %w", o.ID, err)
	}
	return o, nil
}

// ScanAssignment reads the AssignmentColumns of one row.
func ScanAssignment(row Scanner) (kb.Assignment, error) {
	var a kb.Assignment
	var kind, created string
	if err := row.Scan(&a.ID, &a.CustomerID, &a.ObjectID, &kind, &a.RelativeURL, &a.LinkURL, &created, &a.Body); err != nil {
		return a, err
	}
	a.ObjectKind = kb.ERMKind(kind)
	var err error
	if a.Created, err = parseERMTime(created); err != nil {
		return a, fmt.Errorf("assignment %s: creation time: %w", a.ID, err)
	}
	return a, nil
}
