package feeds

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
)

// Approve applies exactly the file that held run runID of feed f kept,
// through the same import as Run, and records an `applied` run (or a
// `failed` one when the file cannot be imported), which releases holder's
// lease; the caller claims f first (kb.FeedStore.ClaimFeed). The run must
// be f's, held, and not followed by an applied run (whose newer file the
// approval would undo): otherwise the error is CodeInvalid, or
// NotFound("Feed run"), nothing is recorded and holder's lease is
// released.
func Approve(ctx context.Context, d Deps, f kb.Feed, runID int64, holder string) (kb.FeedRun, error) {
	ctx, stop := keepLease(ctx, d, f.ID, holder)
	defer stop()
	file, heldRun, err := heldFile(ctx, d, f, runID)
	if err != nil {
		release(ctx, d, f.ID, holder)
		return kb.FeedRun{}, err
	}
	defer file.Close()
	run := kb.FeedRun{FeedID: f.ID, Started: d.now(), Status: heldRun.Status, Bytes: heldRun.Bytes,
		ETag: heldRun.ETag, LastModified: heldRun.LastModified}
	if f.Holdings {
		return d.approveHoldings(ctx, f, holder, run, runID, file, heldRun.Bytes == 0)
	}
	pkg, exists, err := d.Store.FeedPackage(ctx, f.Vendor, f.Package)
	if err != nil {
		return d.fail(ctx, f, holder, run, err)
	}
	res, src, err := importReader(ctx, d.Store, specOf(f, pkg, exists), file, nil)
	if errors.Is(err, kbart.ErrNotKBART) || errors.Is(err, kbart.ErrNoRows) {
		return d.fail(ctx, f, holder, run, fmt.Errorf("approved run %d: nothing imported: %w", runID, err))
	}
	if err != nil {
		return d.fail(ctx, f, holder, run, fmt.Errorf("approved run %d: import: %w", runID, err))
	}
	applied(&run, res, src)
	run.Message = fmt.Sprintf("approved run %d, %s", runID, run.Message)
	return d.record(ctx, f, holder, run, nil)
}

// heldFile returns the file run runID of f kept, and the run, when the
// run may be approved.
func heldFile(ctx context.Context, d Deps, f kb.Feed, runID int64) (io.ReadCloser, kb.FeedRun, error) {
	_, runs, err := d.Store.FeedHistory(ctx, f.ID)
	if err != nil {
		return nil, kb.FeedRun{}, err
	}
	var heldRun *kb.FeedRun
	for i := len(runs) - 1; i >= 0; i-- { // oldest first
		r := runs[i]
		switch {
		case r.ID == runID:
			heldRun = &runs[i]
		case heldRun != nil && r.Outcome == kb.FeedApplied:
			return nil, kb.FeedRun{}, kb.Errorf(kb.CodeInvalid, "run %d of feed %d was held before run %d applied a newer file", runID, f.ID, r.ID)
		}
	}
	if heldRun == nil {
		return nil, kb.FeedRun{}, kb.NotFound("Feed run")
	}
	if heldRun.Outcome == kb.FeedHeld && !heldRun.Held {
		return nil, kb.FeedRun{}, kb.Errorf(kb.CodeInvalid, "run %d of feed %d no longer keeps its file: a feed keeps the file of its newest held run only", runID, f.ID)
	}
	if heldRun.Outcome != kb.FeedHeld {
		return nil, kb.FeedRun{}, kb.Errorf(kb.CodeInvalid, "run %d of feed %d is %s, not held with its file", runID, f.ID, heldRun.Outcome)
	}
	file, err := d.Store.HeldFile(ctx, runID)
	if err != nil {
		return nil, kb.FeedRun{}, fmt.Errorf("approve run %d of %v: %w", runID, f, err)
	}
	return file, *heldRun, nil
}

// release ends holder's lease on feed id at once (a lease renewed to end
// now), for a caller that records no run.
func release(ctx context.Context, d Deps, id int64, holder string) {
	if _, err := d.Store.RenewFeedLease(context.WithoutCancel(ctx), id, d.now(), holder, time.Nanosecond); err != nil {
		d.log().Warn("feed lease not released", "feed", id, "err", err)
	}
}

// approveHoldings sets the customer's selection as the held holdings file
// says, whatever the checks said of it: an empty file, or one of a header
// alone, deselects every title of the package.
func (d Deps) approveHoldings(ctx context.Context, f kb.Feed, holder string, run kb.FeedRun, runID int64, file io.Reader, empty bool) (kb.FeedRun, error) {
	plan, err := d.planHoldings(ctx, f, file, empty)
	if err != nil {
		return d.fail(ctx, f, holder, run, fmt.Errorf("approved run %d: %w", runID, err))
	}
	if !empty && !plan.counts.KBARTHeader {
		return d.fail(ctx, f, holder, run, fmt.Errorf("approved run %d: nothing applied: the file is not a KBART file", runID))
	}
	return d.applyHoldings(ctx, f, holder, run, plan, fmt.Sprintf("approved run %d, ", runID))
}
