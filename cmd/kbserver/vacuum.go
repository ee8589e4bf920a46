package main

import (
	"flag"
	"fmt"

	"github.com/kbserver/kbserver/internal/sqlite"
	"github.com/kbserver/kbserver/internal/store"
)

func vacuumCommand() *command {
	return &command{
		name:    "vacuum",
		summary: "give a SQLite database's free pages back to the file system",
		usesDB:  true,
		about: `Vacuum rebuilds a SQLite database without its free pages and gives their room
back to the file system. Deleted rows leave free pages in the file that
later writes reuse but that are never returned by themselves: an import
killed midway, for one, leaves its staging rows' pages free. Vacuum prints
the file's size and free pages before and after.

It holds the database's one writer while it runs (longer the larger the
database): a server over the same file goes on reading, but its writes wait
and after 10 s are answered 503, so run it at a quiet time or with the
server stopped. It needs free room for about the database's size without
its free pages twice: in the temporary directory (SQLITE_TMPDIR or TMPDIR,
else /var/tmp or /tmp) and beside the database. Without that room it
changes nothing and says so.

On PostgreSQL, autovacuum makes deleted rows' room reusable; to give it back
to the operating system run VACUUM FULL at a quiet time (it locks each table
while it rewrites it). This command refuses a postgres:// database.`,
		example: "kbserver --db /var/lib/kbserver/kb.db vacuum",
		setup: func(c *cli, fs *flag.FlagSet) func([]string) error {
			return func(args []string) error {
				if len(args) > 0 {
					return usageErrorf("vacuum", "unexpected argument %q", args[0])
				}
				return c.vacuum()
			}
		},
	}
}

func (c *cli) vacuum() error {
	if store.IsPostgres(c.db) {
		return usageErrorf("vacuum", "vacuum is for SQLite files: on PostgreSQL autovacuum makes deleted rows' room reusable, and VACUUM FULL, run at a quiet time, gives it back to the operating system")
	}
	st, err := c.openStore()
	if err != nil {
		return err
	}
	defer st.Close()
	s, ok := st.(*sqlite.Store)
	if !ok {
		return fmt.Errorf("vacuum: %s is not a SQLite database", c.db)
	}
	before, after, checkpointed, err := s.Vacuum(c.ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(c.stdout, "before  %s\nafter   %s\n", spaceLine(before), spaceLine(after))
	if !checkpointed {
		fmt.Fprintln(c.stdout, "A reader held on to the old pages: the file shrinks at the next checkpoint (a running server's next write).")
	}
	return nil
}

// spaceLine describes a database's room in one line.
func spaceLine(sp sqlite.Space) string {
	pct := 0.0
	if sp.Pages > 0 {
		pct = 100 * float64(sp.FreePages) / float64(sp.Pages)
	}
	return fmt.Sprintf("%s file, %s log; %d pages of %d bytes, %d free (%.0f%%, %s)",
		mb(sp.FileBytes), mb(sp.WALBytes), sp.Pages, sp.PageSize, sp.FreePages, pct, mb(sp.FreeBytes()))
}

// mb writes a size in megabytes.
func mb(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/1e6) }
