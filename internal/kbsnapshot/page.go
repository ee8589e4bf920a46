package kbsnapshot

import "github.com/kbserver/kbserver/internal/kb"

// HoldingsReadable returns the error a GET of a snapshot's holdings gives
// when the snapshot in state status (a kb.SnapshotStatus's Status) cannot
// be read, or nil for a completed snapshot.
func HoldingsReadable(status string) error {
	switch status {
	case kb.SnapshotInProgress:
		return kb.Errorf(kb.CodeConflict, "The holdings snapshot is being built; GET holdings/status until it is Completed.")
	case kb.SnapshotNone:
		return kb.Errorf(kb.CodeNotFound, "No holdings snapshot: POST holdings first, then GET holdings/status until it is Completed.")
	case kb.SnapshotFailed:
		return kb.Errorf(kb.CodeNotFound, "The last holdings snapshot failed: POST holdings again.")
	}
	return nil
}

// HoldingsPage is the state of a page of holdings as a store reads a
// snapshot's resources from a mark: the rows still to pass over before the
// page's first, the rows still to give, and where to give them.
type HoldingsPage struct {
	Skip int // rows before the page's first, from the mark
	Left int // rows still to give; -1 for all
	fn   func(*kb.Holding) error
	h    kb.Holding // reused for every row: fn may not keep it
}

// NewHoldingsPage starts a page of count rows (all of them when count is
// not positive) given to fn.
func NewHoldingsPage(count int, fn func(*kb.Holding) error) HoldingsPage {
	if count <= 0 {
		count = -1
	}
	return HoldingsPage{Left: count, fn: fn}
}

// Give passes over or gives the rows of resource r, as the page is.
func (p *HoldingsPage) Give(r *SnapshotResource) error {
	lines, err := r.Rows()
	if err != nil {
		return err
	}
	if p.Skip >= len(lines) {
		p.Skip -= len(lines)
		return nil
	}
	for _, line := range lines[p.Skip:] {
		if p.Left == 0 {
			break
		}
		r.Holding(&p.h, line)
		if err := p.fn(&p.h); err != nil {
			return err
		}
		p.Left--
	}
	p.Skip = 0
	return nil
}
