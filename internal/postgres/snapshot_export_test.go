package postgres

// Hooks of the snapshot build for the package's external tests.

// SnapshotLockSQL is the SQL of the key of the claim on customer $1's
// snapshot build, for tests that play a server holding it.
const SnapshotLockSQL = snapshotLockSQL

// OnBuild has f called each time a claimed build starts writing a
// snapshot, until the returned function is called.
func OnBuild(f func(s *Store, custID string, build int64)) (restore func()) {
	buildStarted.Store(&f)
	return func() { buildStarted.Store(nil) }
}
