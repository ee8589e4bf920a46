// Package kbreport is the holdings reports of a customer (kb.ReportStore):
// transactions, each a snapshot of the customer's holdings kept under a
// key of its own (internal/kbsnapshot's freeze and build), and deltas, the
// merge of two transactions, built in the background under a lease and
// purged when they expire. It is written once over the engine seam of
// internal/kbsql; an engine's store embeds a Reports.
package kbreport

import (
	"github.com/kbserver/kbserver/internal/kbsnapshot"
	"github.com/kbserver/kbserver/internal/kbsql"
)

// Reports reads, builds and purges holdings reports over an engine.
type Reports struct {
	e    kbsql.Engine
	snap *kbsnapshot.Snapshots // the freeze and build a transaction reuses
	jobs *reportJobs           // the background work (jobs.go)
}

// New returns the reports over an engine, freezing and building through
// snap.
func New(e kbsql.Engine, snap *kbsnapshot.Snapshots) *Reports {
	return &Reports{e: e, snap: snap, jobs: newReportJobs()}
}
