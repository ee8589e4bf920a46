package sqlite

import (
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbreport"
)

// Jobs implements kb.Background. The builds a stopped process left are
// resumed once, when the server starts: while it runs, its one writer
// builds every snapshot it starts. Holdings reports are purged and
// resumed every kbreport.SweepEvery.
func (s *Store) Jobs() []kb.Job {
	return []kb.Job{
		{Name: kb.JobResumeSnapshots, Run: s.ResumeSnapshots},
		{Name: kb.JobReports, Every: kbreport.SweepEvery, Run: s.ResumeReports},
	}
}
