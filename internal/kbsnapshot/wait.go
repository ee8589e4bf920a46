package kbsnapshot

import (
	"context"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// SnapshotPoll is how often WaitSnapshot reads a snapshot's status again.
const SnapshotPoll = 50 * time.Millisecond

// WaitSnapshot reads a customer's snapshot status through status every
// SnapshotPoll until no build is in progress (or ctx is done), and returns
// the last status read.
func WaitSnapshot(ctx context.Context, status func(context.Context) (kb.SnapshotStatus, error)) (kb.SnapshotStatus, error) {
	for {
		st, err := status(ctx)
		if err != nil || st.Status != kb.SnapshotInProgress {
			return st, err
		}
		select {
		case <-ctx.Done():
			return st, ctx.Err()
		case <-time.After(SnapshotPoll):
		}
	}
}
