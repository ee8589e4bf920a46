package postgres

import (
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbreport"
)

// Jobs implements kb.Background. The builds left in progress are resumed
// when the server starts and again every resumeEvery, for the builds of
// instances that die meanwhile (snapshot_build.go); holdings reports are
// purged and resumed every kbreport.SweepEvery.
func (s *Store) Jobs() []kb.Job {
	return []kb.Job{
		{Name: kb.JobResumeSnapshots, Every: resumeEvery, Run: s.ResumeSnapshots},
		{Name: kb.JobReports, Every: kbreport.SweepEvery, Run: s.ResumeReports},
	}
}
