package feeds

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"time"

	"github.com/kbserver/kbserver/internal/feedfetch"
	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/kbart"
)

// Store is what a run needs of the store: the feeds and their history,
// and the import.
type Store interface {
	kb.FeedStore
	kb.HoldingsStore
	kb.Importer
}

// DefaultLease is the lease a run keeps renewing on its feed while it
// works, when Deps.Lease is zero.
const DefaultLease = 10 * time.Minute

// Deps are a run's dependencies.
type Deps struct {
	Store Store
	// Client makes the requests; nil is a new http.Client.
	Client *http.Client
	// Limits bound each fetch; zero fields take feedfetch's defaults.
	Limits feedfetch.Limits
	// Lease is the lease renewed on the feed while a run works, which
	// should be the one the caller claimed it with; 0 is DefaultLease.
	Lease time.Duration
	// TempDir holds the fetched file while a run works; "" is the
	// system's temporary directory.
	TempDir string
	// Now is the clock of the runs' times; nil is time.Now.
	Now func() time.Time
	// Log receives a line per run; nil is slog.Default().
	Log *slog.Logger
	// AllowPrivate lets the holdings feeds a library added itself
	// (kb.Feed.ByCustomer) fetch from addresses that are not public and
	// from files, as the operator's feeds may: for tests and closed
	// networks. Without it such a feed's fetch refuses them.
	AllowPrivate bool
	// Observe, when set, sees the outcome of every run recorded (for
	// metrics).
	Observe func(kb.FeedOutcome)
}

func (d Deps) now() time.Time {
	if d.Now != nil {
		return d.Now()
	}
	return time.Now()
}

func (d Deps) log() *slog.Logger {
	if d.Log != nil {
		return d.Log
	}
	return slog.Default()
}

func (d Deps) lease() time.Duration {
	if d.Lease > 0 {
		return d.Lease
	}
	return DefaultLease
}

// The limits of a library's own feed (kb.Feed.ByCustomer), whatever
// Deps.Limits allow: its file is one institution's holdings, and its
// address the library's choice, fetched by the server on its behalf.
const (
	// LibraryFetchTimeout bounds the fetch of a library's feed: a run a
	// library asks for answers within the server's write timeout (120 s)
	// unless applying the file takes long, and a slow address holds the
	// runner of the due feeds no longer than this.
	LibraryFetchTimeout = 90 * time.Second
	// LibraryMaxBytes bounds the file of a library's feed: 256 MiB, some
	// 1.5 million KBART rows.
	LibraryMaxBytes = 256 << 20
)

// limits are the fetch's limits for feed f.
func (d Deps) limits(f kb.Feed) feedfetch.Limits {
	lim := d.Limits
	if f.ByCustomer {
		lim.PublicOnly = !d.AllowPrivate
		if lim.Timeout <= 0 || lim.Timeout > LibraryFetchTimeout {
			lim.Timeout = LibraryFetchTimeout
		}
		if lim.MaxBytes <= 0 || lim.MaxBytes > LibraryMaxBytes {
			lim.MaxBytes = LibraryMaxBytes
		}
	}
	return lim
}

// packageChangedSinceApplied reports whether an import changed holdings
// feed f's package after f's last applied run started (or f has none).
func (d Deps) packageChangedSinceApplied(ctx context.Context, f kb.Feed) (bool, error) {
	pkg, ok, err := d.Store.FeedPackage(ctx, f.Vendor, f.Package)
	if err != nil || !ok {
		return false, err
	}
	_, runs, err := d.Store.FeedHistory(ctx, f.ID)
	if err != nil {
		return false, err
	}
	for _, r := range runs {
		if r.Outcome == kb.FeedApplied {
			return pkg.Imported.After(r.Started), nil
		}
	}
	return true, nil
}

// Run runs feed f, which holder has claimed, and records the run, which
// releases the lease: a file unchanged since the last run (ETag,
// Last-Modified) is `unchanged` and writes nothing; a failed fetch is
// `failed`, naming the HTTP status and the address redacted, with the
// knowledge base untouched; a file that fails kb.FeedChecks (counted by a
// dry run of the import) is `held` and kept; any other is imported as
// `import kbart` imports it and is `applied`. The error is non-nil only
// when the run could not be recorded, or ctx ended (then nothing is
// recorded, and the feed is run again once its lease expires).
func Run(ctx context.Context, d Deps, f kb.Feed, holder string) (kb.FeedRun, error) {
	ctx, stop := keepLease(ctx, d, f.ID, holder)
	defer stop()
	run := kb.FeedRun{FeedID: f.ID, Started: d.now()}
	lim := d.limits(f)
	prev := feedfetch.Previous{ETag: f.ETag, LastModified: f.LastModified}
	res, err := feedfetch.Fetch(ctx, d.Client, f, prev, lim)
	if err == nil && res.Unchanged && f.Holdings {
		// The file is as it was, but the package may have changed since
		// it was applied (titles joined or left it): then it is applied
		// again, fetched whole.
		again, aerr := d.packageChangedSinceApplied(ctx, f)
		if aerr != nil {
			return d.fail(ctx, f, holder, run, aerr)
		}
		if again {
			res, err = feedfetch.Fetch(ctx, d.Client, f, feedfetch.Previous{}, lim)
		}
	}
	run.Status, run.ETag, run.LastModified = res.Status, res.ETag, res.LastMod
	if err != nil {
		return d.fail(ctx, f, holder, run, err)
	}
	if res.Unchanged {
		// A 304 need not repeat the validators: keep the feed's.
		run.ETag, run.LastModified = cmp.Or(run.ETag, f.ETag), cmp.Or(run.LastModified, f.LastModified)
		run.Outcome, run.Message = kb.FeedUnchanged, "the file has not changed since the last run"
		return d.record(ctx, f, holder, run, nil)
	}
	file, n, err := spool(d.TempDir, res.Body)
	if file != nil {
		defer file.remove()
	}
	run.Bytes = n
	if err != nil {
		return d.fail(ctx, f, holder, run, err)
	}
	if f.Holdings {
		return d.checkAndApplyHoldings(ctx, f, holder, run, file)
	}
	return d.checkAndApply(ctx, f, holder, run, file)
}

// errChecksHold stops the import of a file kb.FeedChecks holds.
var errChecksHold = errors.New("held by the feed's checks")

// checkAndApply imports the fetched file as `import kbart` does, with the
// checks of kb.FeedChecks run by the import once it has read and matched
// every row and before it applies anything (kb.PackageSpec.Check): a file
// they hold is kept, and nothing of it applied; any other is applied by
// that same import.
func (d Deps) checkAndApply(ctx context.Context, f kb.Feed, holder string, run kb.FeedRun, file *spooled) (kb.FeedRun, error) {
	pkg, exists, err := d.Store.FeedPackage(ctx, f.Vendor, f.Package)
	if err != nil {
		return d.fail(ctx, f, holder, run, err)
	}
	counts := kb.FeedCounts{Empty: run.Bytes == 0, PackageTitles: pkg.Titles}
	var verdict kb.FeedVerdict
	if counts.Empty {
		verdict = kb.FeedChecks(counts, f.MaxRemoval)
		return d.hold(ctx, f, holder, run, file, verdict, counts)
	}
	var src *kbart.Source
	spec := specOf(f, pkg, exists)
	spec.Check = func(res kb.ImportResult) error {
		counts.KBARTHeader, counts.RowsRead, counts.RowsRefused = true, src.Read(), src.Rejected()
		counts.Removed = res.ResourcesRemoved
		if verdict = kb.FeedChecks(counts, f.MaxRemoval); verdict.Held {
			return errChecksHold
		}
		return nil
	}
	res, src, err := d.importFile(ctx, spec, file, &src)
	switch {
	case errors.Is(err, errChecksHold):
		return d.hold(ctx, f, holder, run, file, verdict, counts)
	case errors.Is(err, kbart.ErrNotKBART):
		return d.hold(ctx, f, holder, run, file, kb.FeedChecks(counts, f.MaxRemoval), counts) // counts.KBARTHeader false
	case errors.Is(err, kbart.ErrNoRows):
		counts.KBARTHeader, counts.RowsRead, counts.RowsRefused = true, src.Read(), src.Rejected()
		return d.hold(ctx, f, holder, run, file, kb.FeedChecks(counts, f.MaxRemoval), counts)
	case err != nil:
		return d.fail(ctx, f, holder, run, fmt.Errorf("import: %w", err))
	}
	applied(&run, res, src)
	return d.record(ctx, f, holder, run, nil)
}

// hold records a held run of the fetched file, with the verdict's reason,
// keeping the file.
func (d Deps) hold(ctx context.Context, f kb.Feed, holder string, run kb.FeedRun, file *spooled, v kb.FeedVerdict, counts kb.FeedCounts) (kb.FeedRun, error) {
	if !v.Held { // cannot be: each caller's checks found a reason
		v.Reason = "the file could not be checked"
	}
	r, err := file.open()
	if err != nil {
		return d.fail(ctx, f, holder, run, err)
	}
	defer r.Close()
	run.Outcome, run.Message = kb.FeedHeld, "held for review: "+v.Reason
	run.Added, run.Removed, run.Changed = 0, counts.Removed, 0
	return d.record(ctx, f, holder, run, r)
}

// specOf is the import of f's file: into the package's vendor and package
// by name, keeping the content type and type of a package that exists,
// and with `import kbart`'s defaults (unknown, Selectable) for a new one.
func specOf(f kb.Feed, pkg kb.FeedPackage, exists bool) kb.PackageSpec {
	spec := kb.PackageSpec{VendorName: f.Vendor, PackageName: f.Package, ContentType: kb.ContentUnknown, PackageType: kb.PackageSelectable,
		FeedID: f.ID}
	if exists {
		spec.ContentType, spec.PackageType = pkg.ContentType, pkg.PackageType
	}
	return spec
}

// importFile imports the spooled file with spec; *srcp is set to the
// file's rows before the import starts (spec.Check may read their
// counts). The error wraps kbart.ErrNotKBART when the file is not a
// KBART file, and kbart.ErrNoRows when it has no usable row.
func (d Deps) importFile(ctx context.Context, spec kb.PackageSpec, file *spooled, srcp **kbart.Source) (kb.ImportResult, *kbart.Source, error) {
	r, err := file.open()
	if err != nil {
		return kb.ImportResult{}, nil, err
	}
	defer r.Close()
	return importReader(ctx, d.Store, spec, r, srcp)
}

// importReader imports the KBART file r reads with spec; *srcp, when srcp
// is not nil, is set to the file's rows before the import starts.
func importReader(ctx context.Context, st kb.Importer, spec kb.PackageSpec, r io.Reader, srcp **kbart.Source) (kb.ImportResult, *kbart.Source, error) {
	kr, err := kbart.NewReader(r)
	if err != nil {
		return kb.ImportResult{}, nil, err
	}
	src := kbart.NewSource(kbart.SourceFile{Name: "the fetched file", Reader: kr})
	if srcp != nil {
		*srcp = src
	}
	spec.ExtraColumns = src.ExtraColumns()
	res, err := st.ImportPackage(ctx, spec, src.Next)
	return res, src, err
}

// applied fills an applied run from its import.
func applied(run *kb.FeedRun, res kb.ImportResult, src *kbart.Source) {
	run.Outcome = kb.FeedApplied
	run.Added, run.Removed = res.ResourcesAdded, res.ResourcesRemoved
	run.Changed = res.ResourcesUpdated + res.TitlesRenamed + res.TitlesReidentified
	run.Message = fmt.Sprintf("applied as import %d: %d titles added, %d removed, %d changed (%d rows read, %d refused)",
		res.ImportID, run.Added, run.Removed, run.Changed, src.Read(), src.Rejected())
	if res.RemovalsHeld {
		run.Message += "; no title was removed: a refused row matched none of the package's titles"
	}
}

// fail records a failed run with err's message; a fetch error's message
// names the status and the redacted address. When ctx ended, nothing is
// recorded.
func (d Deps) fail(ctx context.Context, f kb.Feed, holder string, run kb.FeedRun, err error) (kb.FeedRun, error) {
	if ctx.Err() != nil {
		return kb.FeedRun{}, fmt.Errorf("%v: stopped: %w", f, context.Cause(ctx))
	}
	var fe *feedfetch.Error
	if errors.As(err, &fe) && fe.Status != 0 {
		run.Status = fe.Status
	}
	run.Outcome, run.Message = kb.FeedFailed, err.Error()
	run.Added, run.Removed, run.Changed = 0, 0, 0
	return d.record(ctx, f, holder, run, nil)
}

// record records the run, which releases holder's lease, and logs it.
func (d Deps) record(ctx context.Context, f kb.Feed, holder string, run kb.FeedRun, held io.Reader) (kb.FeedRun, error) {
	run.Finished = d.now()
	out, err := d.Store.RecordFeedRun(context.WithoutCancel(ctx), holder, run, held)
	if err != nil {
		d.log().Error("feed run not recorded", "feed", f, "outcome", run.Outcome, "err", err)
		return run, fmt.Errorf("%v: %w", f, err)
	}
	if d.Observe != nil {
		d.Observe(out.Outcome)
	}
	d.log().Info("feed run", "feed", f, "run", out.ID, "outcome", out.Outcome, "status", out.Status, "bytes", out.Bytes,
		"added", out.Added, "removed", out.Removed, "changed", out.Changed, "message", out.Message)
	return out, nil
}

// keepLease renews holder's lease on feed id every third of the lease
// while the run works; when the lease is lost (it expired and another
// server took the feed), the run's context ends.
func keepLease(ctx context.Context, d Deps, id int64, holder string) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(d.lease() / 3)
		defer t.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-t.C:
				ok, err := d.Store.RenewFeedLease(ctx, id, d.now(), holder, d.lease())
				if err != nil {
					d.log().Warn("feed lease not renewed", "feed", id, "err", err)
					continue
				}
				if !ok {
					cancel(fmt.Errorf("the lease on feed %d is no longer %s's", id, holder))
					return
				}
			}
		}
	}()
	return ctx, func() {
		close(done)
		<-stopped
		cancel(nil)
	}
}

// spooled is a fetched file kept in a temporary file, to be read more than
// once.
type spooled struct{ path string }

// spool copies body to a new temporary file in dir and closes body; n is
// the bytes copied. The file is returned, to be removed, even with an
// error.
func spool(dir string, body io.ReadCloser) (*spooled, int64, error) {
	defer body.Close()
	tmp, err := os.CreateTemp(dir, "kbserver-feed-*.txt")
	if err != nil {
		return nil, 0, fmt.Errorf("spool the fetched file: %w", err)
	}
	s := &spooled{path: tmp.Name()}
	n, err := io.Copy(tmp, body)
	if cerr := tmp.Close(); err == nil && cerr != nil {
		err = fmt.Errorf("spool the fetched file: %w", cerr)
	}
	return s, n, err
}

func (s *spooled) open() (*os.File, error) {
	f, err := os.Open(s.path)
	if err != nil {
		return nil, fmt.Errorf("read the fetched file: %w", err)
	}
	return f, nil
}

func (s *spooled) remove() { os.Remove(s.path) }
