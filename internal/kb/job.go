package kb

import (
	"context"
	"time"
)

// Job is a piece of a store's background work that the server runs (its
// runner, in cmd/kbserver), not the store: Run once when the server
// starts, then again every Every (never again when Every is 0), with the
// server's context, until the server stops. Run is one pass: it may start
// work that the store itself stops when it closes (a snapshot build), but
// it does not repeat itself.
type Job struct {
	// Name names the job in the log, and for a command that runs only
	// some of the jobs (JobResumeSnapshots, JobReports).
	Name  string
	Every time.Duration
	Run   func(ctx context.Context) error
}

// The names of the stores' jobs.
const (
	// JobResumeSnapshots runs ResumeSnapshots.
	JobResumeSnapshots = "resume holdings snapshots"
	// JobReports runs ResumeReports: the purge of expired holdings
	// reports and the resumption of abandoned builds.
	JobReports = "holdings reports: purge and resume"
)

// Background lists a store's background jobs.
type Background interface {
	// Jobs returns the jobs the server runs for the store, in the order
	// their first passes run.
	Jobs() []Job
}
