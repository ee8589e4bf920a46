package kbsql

import (
	"fmt"
	"io/fs"
	"sync/atomic"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// LatestMigration returns the version of the newest migration in directory
// dir of fsys: the schema version a store of this build needs.
func LatestMigration(fsys fs.FS, dir string) (int, error) {
	ms, err := Migrations(fsys, dir)
	if err != nil {
		return 0, err
	}
	if len(ms) == 0 {
		return 0, nil
	}
	return ms[len(ms)-1].Version, nil
}

// SchemaCurrent returns nil when the applied migration is the one this
// build needs (known), and otherwise an error saying what an operator can
// do about it. Both stores migrate when they open, so a mismatch at run
// time means the database changed under a running server.
func SchemaCurrent(applied, known int) error {
	switch {
	case applied < known:
		return fmt.Errorf("schema at migration %d, this build needs %d: the database was changed since the server opened it (emptied, or restored from an older backup); restart kbserver to migrate it", applied, known)
	case applied > known:
		return fmt.Errorf("schema at migration %d, this build knows only %d: a newer kbserver migrated the database; run that version", applied, known)
	}
	return nil
}

// BuildCounters count the holdings snapshot builds a store ran in this
// process, for its statistics. They are safe for concurrent use.
type BuildCounters struct {
	completed, failed atomic.Int64
	nanos             atomic.Int64
}

// Done counts a build that ended after running for d: completed, or
// failed when ok is false.
func (c *BuildCounters) Done(ok bool, d time.Duration) {
	if ok {
		c.completed.Add(1)
	} else {
		c.failed.Add(1)
	}
	c.nanos.Add(int64(d))
}

// Fill sets the snapshot build fields of st.
func (c *BuildCounters) Fill(st *kb.StoreStats) {
	st.SnapshotBuildsCompleted = c.completed.Load()
	st.SnapshotBuildsFailed = c.failed.Load()
	st.SnapshotBuildSeconds = time.Duration(c.nanos.Load()).Seconds()
}
