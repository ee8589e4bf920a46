package kbsql

import (
	"os"
	"strings"
	"testing"
)

// firstSharedMigration is the first number the two engines' migrations
// share: before it, each directory numbered its own (SQLite's 001–012,
// PostgreSQL's 001–005, which folded several of SQLite's into one).
const firstSharedMigration = 13

// TestMigrationsNumberedTogether checks that from firstSharedMigration on,
// a number in both directories names the same change: a migration that
// changes both schemas carries one number and one name in both, and a
// migration of one engine takes a number the other does not use.
func TestMigrationsNumberedTogether(t *testing.T) {
	dirs := map[string]string{"sqlite": "../sqlite/migrations", "postgres": "../postgres/migrations"}
	names := map[string]map[int]string{}
	for engine, dir := range dirs {
		ms, err := Migrations(os.DirFS(dir), ".")
		if err != nil {
			t.Fatalf("%s migrations: %v", engine, err)
		}
		names[engine] = map[int]string{}
		for i, m := range ms {
			if i > 0 && m.Version == ms[i-1].Version {
				t.Errorf("%s migrations %s and %s have one number", engine, ms[i-1].Name, m.Name)
			}
			names[engine][m.Version] = m.Name
		}
	}
	shared := 0
	for v, s := range names["sqlite"] {
		p, ok := names["postgres"][v]
		if !ok || v < firstSharedMigration {
			continue
		}
		shared++
		if s != p {
			t.Errorf("migration %03d is %s on SQLite but %s on PostgreSQL: give one of them the next free number", v, s, p)
		}
	}
	for engine, ns := range names {
		for v, name := range ns {
			if !strings.HasSuffix(name, ".sql") {
				t.Errorf("%s migration %d: %s is not an .sql file", engine, v, name)
			}
		}
	}
	t.Logf("%d migrations numbered in both directories", shared)
}
