package feeds

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
)

// The names of the jobs of due feeds in the log.
const (
	JobName        = "package feeds: run the due ones"
	LibraryJobName = "libraries' holdings feeds: run the due ones"
)

// NewHolder returns a lease holder's name for this process: its host,
// its process id and a random part, so that two servers never share one.
func NewHolder() string {
	host, _ := os.Hostname()
	b := make([]byte, 4)
	rand.Read(b) // never fails (crypto/rand panics instead)
	return fmt.Sprintf("%s-%d-%s", host, os.Getpid(), hex.EncodeToString(b))
}

// Job returns the job that runs every due feed of one kind, one after the
// other, each under a lease of d's taken by holder
// (kb.FeedStore.ClaimDueFeed), so that of several servers over one
// database one runs each due feed: the feeds libraries added themselves
// when byCustomer, else the operator's (a server runs both jobs, so that
// a library's slow address delays no package's feed). It runs every
// every. A run that fails to record is logged by the runner; the others
// go on at the next pass.
func Job(d Deps, holder string, every time.Duration, byCustomer bool) kb.Job {
	name := JobName
	if byCustomer {
		name = LibraryJobName
	}
	return kb.Job{Name: name, Every: every, Run: func(ctx context.Context) error {
		for ctx.Err() == nil {
			f, ok, err := d.Store.ClaimDueFeed(ctx, d.now(), holder, d.lease(), byCustomer)
			if err != nil || !ok {
				return err
			}
			if _, err := Run(ctx, d, f, holder); err != nil {
				return fmt.Errorf("%s: %w", f, err)
			}
		}
		return nil
	}}
}
