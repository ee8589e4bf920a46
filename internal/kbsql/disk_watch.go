package kbsql

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// DiskWatch remembers whether the store's last write failed for a full
// disk, for the store's readiness: an engine passes every write's outcome
// to Observe and asks Ready in its own Ready. While the disk is full,
// Ready tries a write of its own (ProbeDisk), at most once every
// DiskProbeEvery, so that a server that no longer receives writes (a load
// balancer stops sending requests to a server that is not ready) sees
// the space come back. The zero value is a watch of a store whose last
// write did not fail.
type DiskWatch struct {
	full   atomic.Pointer[error] // the last write's disk-full error; nil after a success
	probe  sync.Mutex            // held by the probe running
	probed time.Time             // when the last probe started (under probe)
}

// DiskProbeEvery is the least time between two probes of a full disk.
const DiskProbeEvery = time.Second

// diskProbeTimeout bounds a probe: it must not hold a readiness check up
// while the writer is busy with an import.
const diskProbeTimeout = time.Second

// Observe records the outcome of a write and returns err as it is: a
// disk-full error (kb.ErrDiskFull in its chain) marks the disk full, a
// success marks it free, and any other error says nothing about the disk.
func (d *DiskWatch) Observe(err error) error {
	switch {
	case err == nil:
		if d.full.Load() != nil {
			d.full.Store(nil)
		}
	case errors.Is(err, kb.ErrDiskFull):
		d.full.Store(&err)
	}
	return err
}

// Ready returns nil unless the last write failed for a full disk, and
// then the kb.DiskFull error of that write (its message is the client's;
// the cause, for the log, is in the chain). At most once every
// DiskProbeEvery it first calls probe, a small write, whose outcome is
// observed: when it succeeds the disk is no longer full.
func (d *DiskWatch) Ready(ctx context.Context, probe func(context.Context) error) error {
	if d.full.Load() == nil {
		return nil
	}
	if d.probe.TryLock() { // else another check is probing: it has the news
		if time.Since(d.probed) >= DiskProbeEvery {
			d.probed = time.Now()
			pctx, cancel := context.WithTimeout(ctx, diskProbeTimeout)
			d.Observe(probe(pctx))
			cancel()
		}
		d.probe.Unlock()
	}
	if p := d.full.Load(); p != nil {
		return fmt.Errorf("the last write failed, writes are refused until space is freed: %w", *p)
	}
	return nil
}

// diskProbeBytes is the size of the probe's row: more than a page, so
// that it needs pages no other row frees, whatever the page size.
const diskProbeBytes = 64 << 10

// ProbeDisk writes a row of diskProbeBytes into disk_probe and deletes
// it again, in two transactions: the first needs new room in the
// database (pages from the free list, or a longer file) and the write-
// ahead log, as a write of a request does. It changes nothing a reader
// sees. Its error is the engine's, classified as every write's
// (kb.DiskFull for a full disk).
func (s *Store) ProbeDisk(ctx context.Context) error {
	pad := make([]byte, diskProbeBytes)
	if err := s.e.Write(ctx, "", func(tx Tx) error {
		_, err := tx.Exec(ctx, `INSERT INTO disk_probe(id, pad) VALUES (1, $1) ON CONFLICT (id) DO UPDATE SET pad = excluded.pad`, pad)
		return err
	}); err != nil {
		return fmt.Errorf("disk probe: %w", err)
	}
	if err := s.e.Write(ctx, "", func(tx Tx) error {
		_, err := tx.Exec(ctx, `DELETE FROM disk_probe`)
		return err
	}); err != nil {
		return fmt.Errorf("disk probe: %w", err)
	}
	return nil
}
