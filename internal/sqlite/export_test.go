package sqlite

import "database/sql"

// Writer returns the store's writer connection, with the pragmas it was
// opened with, for the benchmarks that write around the store's code.
func (s *Store) Writer() *sql.DB { return s.w }
