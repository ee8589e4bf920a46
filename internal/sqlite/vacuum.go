package sqlite

import (
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/kbserver/kbserver/internal/kb"
)

// Space describes the room a SQLite database takes: its pages, how many
// of them are free (kept in the file for later writes, e.g. after an
// import's staging rows were deleted, or an import killed midway), and
// the sizes of its file and of its write-ahead log.
type Space struct {
	PageSize  int64 // bytes
	Pages     int64 // in the file, free ones included
	FreePages int64
	FileBytes int64 // the database file
	WALBytes  int64 // its -wal file (0 when there is none)
}

// FreeBytes is the room the free pages take.
func (sp Space) FreeBytes() int64 { return sp.FreePages * sp.PageSize }

// Space reads the database's pages and file sizes.
func (s *Store) Space(ctx context.Context) (Space, error) {
	var sp Space
	for _, p := range []struct {
		pragma string
		to     *int64
	}{{"page_size", &sp.PageSize}, {"page_count", &sp.Pages}, {"freelist_count", &sp.FreePages}} {
		if err := s.w.QueryRowContext(ctx, "PRAGMA "+p.pragma).Scan(p.to); err != nil {
			return Space{}, fmt.Errorf("database %s: %s: %w", s.path, p.pragma, err)
		}
	}
	if fi, err := os.Stat(s.path); err == nil {
		sp.FileBytes = fi.Size()
	}
	if fi, err := os.Stat(s.path + "-wal"); err == nil {
		sp.WALBytes = fi.Size()
	}
	return sp, nil
}

// Vacuum rebuilds the database without its free pages and gives their
// room back to the file system (SQLite's VACUUM, then a checkpoint that
// empties the write-ahead log). It holds the one writer for as long as it
// runs, which grows with the database: the writes of a server over the
// same file wait, and after 10 s are answered 503. The copy it makes
// is written to a temporary file (SQLITE_TMPDIR or TMPDIR, else /var/tmp
// or /tmp), not kept in memory, and then through the write-ahead log
// beside the database: each needs room for the database without its free
// pages. A vacuum that finds no room changes nothing (kb.DiskFull).
//
// It returns the space before and after. When a reader holds on to the
// old pages (a running server's long read), the log is emptied only
// partly: the file shrinks at the next checkpoint, and checkpointed says
// so.
func (s *Store) Vacuum(ctx context.Context) (before, after Space, checkpointed bool, err error) {
	if before, err = s.Space(ctx); err != nil {
		return before, after, false, err
	}
	if checkpointed, err = s.vacuum(ctx); err != nil {
		var cause interface{ Code() int }
		if errors.Is(err, kb.ErrDiskFull) && errors.As(err, &cause) {
			err = &kb.Error{Code: kb.CodeUnavailable, Err: fmt.Errorf("%w: %w", kb.ErrDiskFull, cause.(error)),
				Message: fmt.Sprintf("vacuum %s found no room: it needs about %d MB in the temporary directory (SQLITE_TMPDIR or TMPDIR) and as much again beside the database; nothing was changed",
					s.path, max(1, (before.Pages-before.FreePages)*before.PageSize>>20))}
		} else {
			err = fmt.Errorf("vacuum %s: %w", s.path, err)
		}
		return before, after, false, err
	}
	after, err = s.Space(ctx)
	return before, after, checkpointed, err
}

// vacuum runs VACUUM and the checkpoint on the writer connection.
func (s *Store) vacuum(ctx context.Context) (checkpointed bool, err error) {
	conn, err := s.w.Conn(ctx)
	if err != nil {
		return false, err
	}
	defer conn.Close()
	// The store's connections keep temporary tables in memory; the
	// copy of a database of gigabytes goes to a file.
	if _, err := conn.ExecContext(ctx, `PRAGMA temp_store = FILE`); err != nil {
		return false, err
	}
	defer conn.ExecContext(context.WithoutCancel(ctx), `PRAGMA temp_store = MEMORY`)
	if _, err := conn.ExecContext(ctx, `VACUUM`); err != nil {
		return false, s.wrote(err)
	}
	var busy, logFrames, done int64
	if err := conn.QueryRowContext(ctx, `PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logFrames, &done); err != nil {
		return false, fmt.Errorf("checkpoint: %w", err)
	}
	return busy == 0, nil
}
