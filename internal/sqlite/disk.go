package sqlite

import (
	"errors"

	"github.com/kbserver/kbserver/internal/kb"
)

// sqliteFull is SQLITE_FULL, the result code of a write that found no
// room: the file system said ENOSPC (or wrote short), or the database
// reached its max_page_count.
const sqliteFull = 13

// wrote classifies the error of a write on the writer connection: the
// database busy for longer than the busy timeout and a full disk become
// kb.CodeUnavailable (503 with Retry-After), anything else is returned as
// it is. A nil error stays nil. The outcome goes to the store's disk
// watch, for Ready.
func (s *Store) wrote(err error) error {
	return s.disk.Observe(diskFull(busy(err)))
}

// diskFull turns SQLITE_FULL into kb.DiskFull. (SQLite has no extended
// codes of SQLITE_FULL; the low byte is compared as for busy.)
func diskFull(err error) error {
	var e interface{ Code() int }
	if errors.As(err, &e) && e.Code()&0xff == sqliteFull && kb.ErrorCode(err) == kb.CodeInternal {
		return kb.DiskFull(err)
	}
	return err
}
