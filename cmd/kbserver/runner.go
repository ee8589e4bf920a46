package main

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// runner runs background jobs (kb.Job: the store's resumption of
// holdings snapshots and reports, the reports' purge) for a command,
// with the command's context: the stores start no periodic work of their
// own. Wait, after the context ends, returns once every job has stopped;
// a command waits for it before it closes the store.
type runner struct{ wg sync.WaitGroup }

// Start runs the first pass of each job now, in order, and stops at the
// first that fails (a server that cannot resume its work does not
// start); each job with an interval then runs again every interval, in
// the background, until ctx ends.
func (r *runner) Start(ctx context.Context, jobs ...kb.Job) error {
	for _, j := range jobs {
		if err := j.Run(ctx); err != nil {
			return fmt.Errorf("%s: %w", j.Name, err)
		}
		if j.Every > 0 {
			r.Go(ctx, j)
		}
	}
	return nil
}

// Go runs j every j.Every in the background until ctx ends; a failed pass
// is logged, and the next one tries again.
func (r *runner) Go(ctx context.Context, j kb.Job) {
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		t := time.NewTicker(j.Every)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				if err := j.Run(ctx); err != nil && ctx.Err() == nil {
					slog.Warn(j.Name, "err", err)
				}
			}
		}
	}()
}

// Once runs j once in the background; a failure is logged.
func (r *runner) Once(ctx context.Context, j kb.Job) {
	r.wg.Add(1)
	go func() {
		defer r.wg.Done()
		if err := j.Run(ctx); err != nil && ctx.Err() == nil {
			slog.Warn(j.Name, "err", err)
		}
	}()
}

// Wait waits for the jobs to stop: call it once their context has ended.
func (r *runner) Wait() { r.wg.Wait() }
