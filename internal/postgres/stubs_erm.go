package postgres

import (
	"context"

	"github.com/kbserver/kbserver/internal/kb"
)

// Stubs of the methods not written yet: each returns kb.CodeNotImplemented.
// The file goes away when its last method is written.

// CreateERMObject is not written yet.
func (s *Store) CreateERMObject(ctx context.Context, o kb.ERMObject) error {
	return notYet("CreateERMObject")
}

// ERMObject is not written yet.
func (s *Store) ERMObject(ctx context.Context, custID string, kind kb.ERMKind, id string) (kb.ERMObject, error) {
	return kb.ERMObject{}, notYet("ERMObject")
}

// UpdateERMObject is not written yet.
func (s *Store) UpdateERMObject(ctx context.Context, o kb.ERMObject) error {
	return notYet("UpdateERMObject")
}

// DeleteERMObject is not written yet.
func (s *Store) DeleteERMObject(ctx context.Context, custID string, kind kb.ERMKind, id string) error {
	return notYet("DeleteERMObject")
}

// ERMObjects is not written yet.
func (s *Store) ERMObjects(ctx context.Context, custID string, q kb.ERMQuery) (kb.ERMList, error) {
	return kb.ERMList{}, notYet("ERMObjects")
}

// CreateAssignment is not written yet.
func (s *Store) CreateAssignment(ctx context.Context, a kb.Assignment) (kb.Assignment, error) {
	return kb.Assignment{}, notYet("CreateAssignment")
}

// Assignments is not written yet.
func (s *Store) Assignments(ctx context.Context, custID string, q kb.AssignmentQuery) (kb.AssignmentList, error) {
	return kb.AssignmentList{}, notYet("Assignments")
}

// DeleteAssignment is not written yet.
func (s *Store) DeleteAssignment(ctx context.Context, custID, id string) error {
	return notYet("DeleteAssignment")
}
