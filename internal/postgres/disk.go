package postgres

import (
	"github.com/kbserver/kbserver/internal/kb"
)

// codeDiskFull is SQLSTATE 53100, disk_full: PostgreSQL could not extend
// a table's or an index's file (ENOSPC). (A WAL that cannot be written
// stops the database server instead: every request then fails, and
// /readyz says the database does not answer.) 53200, out_of_memory, is
// left as it is: it is one statement's memory, not a state of the store
// that a retry after freeing space resolves.
const codeDiskFull = "53100"

// wrote classifies the error of a write: text PostgreSQL cannot store is
// kb.CodeInvalid (unstorableText), a full disk kb.DiskFull (CodeUnavailable,
// 503 with Retry-After); anything else is returned as it is. A nil error
// stays nil. The outcome goes to the store's disk watch, for Ready.
func (s *Store) wrote(err error) error {
	return s.disk.Observe(diskFull(unstorableText(err)))
}

// diskFull turns SQLSTATE 53100 into kb.DiskFull.
func diskFull(err error) error {
	if isCode(err, codeDiskFull) && kb.ErrorCode(err) == kb.CodeInternal {
		return kb.DiskFull(err)
	}
	return err
}
