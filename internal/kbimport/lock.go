package kbimport

import (
	"context"
	"errors"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// The import lock keeps imports one at a time, across the many short
// transactions of one import and across processes and instances: a row of
// import_lock, a lease that its holder renews while it works. A holder
// that died leaves a lease that expires, and the next import takes it
// over. A second import waits for the first.

// Lease timings: a lease lasts importLease and is renewed every
// importRenew; a waiting import looks again every importPoll.
const (
	importLease = 2 * time.Minute
	importRenew = 20 * time.Second
	importPoll  = 200 * time.Millisecond
)

// lockImports takes the import lock, waiting while another import holds
// it, and returns the lease's holder and the function that releases it.
// A store too busy to answer (SQLite's writer held by a bulk load) is an
// import still running: it waits too. A full disk is no import: it ends
// the wait with its error.
func (s *Importer) lockImports(ctx context.Context) (holder string, unlock func(), err error) {
	holder = fmt.Sprintf("%s pid %d %d", hostname(), os.Getpid(), time.Now().UnixNano())
	for {
		ok, err := s.tryLease(ctx, holder)
		if err != nil && (kb.ErrorCode(err) != kb.CodeUnavailable || errors.Is(err, kb.ErrDiskFull)) {
			return "", nil, fmt.Errorf("import lock: %w", err)
		}
		if ok && err == nil {
			break
		}
		select {
		case <-ctx.Done():
			return "", nil, fmt.Errorf("import lock: waiting for the running import: %w", ctx.Err())
		case <-time.After(importPoll):
		}
	}
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(importRenew)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-t.C:
				// A failed renewal is retried at the next tick; the lease
				// outlasts several.
				s.e.Write(context.WithoutCancel(ctx), "", func(tx kbsql.Tx) error {
					_, err := tx.Exec(ctx, `UPDATE import_lock SET expires = $1 WHERE id = 1 AND holder = $2`, time.Now().Add(importLease).UTC(), holder)
					return err
				})
			}
		}
	}()
	return holder, func() {
		close(done)
		wg.Wait()
		s.e.Write(context.WithoutCancel(ctx), "", func(tx kbsql.Tx) error {
			_, err := tx.Exec(ctx, `DELETE FROM import_lock WHERE id = 1 AND holder = $1`, holder)
			return err
		})
	}, nil
}

// renewLease renews holder's lease in tx. A bulk load on SQLite does,
// since its transaction holds the one writer that the renewals of
// lockImports wait for: its commit leaves the lease renewed. (On
// PostgreSQL those renewals go on beside it, and a renewal in the load's
// transaction would lock the lease's row until its end.)
func renewLease(ctx context.Context, tx kbsql.Tx, holder string) error {
	n, err := tx.Exec(ctx, `UPDATE import_lock SET expires = $1 WHERE id = 1 AND holder = $2`, time.Now().Add(importLease).UTC(), holder)
	if err == nil && n == 0 {
		err = errors.New("the lease is no longer this import's")
	}
	if err != nil {
		return fmt.Errorf("import lock: renew: %w", err)
	}
	return nil
}

// tryLease takes the lease when no one holds it or its holder's lease has
// expired.
func (s *Importer) tryLease(ctx context.Context, holder string) (bool, error) {
	var taken bool
	err := s.e.Write(ctx, "", func(tx kbsql.Tx) error {
		now := time.Now().UTC()
		n, err := tx.Exec(ctx, `INSERT INTO import_lock(id, holder, expires) VALUES (1, $1, $2)
			ON CONFLICT (id) DO UPDATE SET holder = excluded.holder, expires = excluded.expires WHERE import_lock.expires < $3`,
			holder, now.Add(importLease), now)
		taken = n == 1
		return err
	})
	return taken, err
}

// hostname names this machine in a lease's holder.
func hostname() string {
	h, err := os.Hostname()
	if err != nil {
		return "host"
	}
	return h
}
