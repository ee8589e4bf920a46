package kb

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"
)

// Package feeds (issue 37): a feed names a package of the knowledge base
// and the address its publisher serves the package's KBART file from; the
// server fetches the file on a schedule and applies it when it passes the
// checks of FeedChecks, or holds it for review. A customer's holdings
// feed (NISO RP-26) names the institution's own file, which selects the
// package's titles for that customer.

// Feed defaults.
const (
	// DefaultFeedEvery is how often a feed runs when its schedule is not
	// given: once a day.
	DefaultFeedEvery = 24 * time.Hour
	// DefaultFeedMaxRemoval is the share of the package's titles, in
	// percent, that a run may remove without review.
	DefaultFeedMaxRemoval = 20.0
	// FeedMaxRefused is the share of a file's rows, in percent, that
	// the import may refuse before the run is held: a file whose rows are
	// refused by more than one in ten is more likely broken (a changed
	// layout, a wrong file) than a file with a few bad rows.
	FeedMaxRefused = 10.0
	// MinFeedEvery is the shortest schedule: the server looks for due
	// feeds once a minute.
	MinFeedEvery = time.Minute
)

// FeedOutcome is how a run of a feed ended.
type FeedOutcome string

// The outcomes of a run.
const (
	// FeedApplied: the file was fetched, passed the checks and was
	// imported.
	FeedApplied FeedOutcome = "applied"
	// FeedUnchanged: the address answered that the file has not changed
	// since the last run (ETag, Last-Modified); nothing was written.
	FeedUnchanged FeedOutcome = "unchanged"
	// FeedHeld: the file failed a check; it is kept, and applied only
	// when the operator approves it.
	FeedHeld FeedOutcome = "held"
	// FeedFailed: the file could not be fetched (an HTTP error, a
	// timeout, an HTML page); the knowledge base is untouched.
	FeedFailed FeedOutcome = "failed"
)

// Valid reports whether o is one of the four outcomes.
func (o FeedOutcome) Valid() bool {
	switch o {
	case FeedApplied, FeedUnchanged, FeedHeld, FeedFailed:
		return true
	}
	return false
}

// Secret is a value that is never printed: its String, GoString, JSON and
// log forms are "<secret>". The value itself is string(s).
type Secret string

// secretShown is what a Secret prints as.
const secretShown = "<secret>"

// String implements fmt.Stringer.
func (Secret) String() string { return secretShown }

// GoString implements fmt.GoStringer, so that %#v hides it too.
func (Secret) GoString() string { return `"` + secretShown + `"` }

// MarshalJSON shows "<secret>" in place of the value.
func (Secret) MarshalJSON() ([]byte, error) { return []byte(`"` + secretShown + `"`), nil }

// LogValue implements slog.LogValuer.
func (Secret) LogValue() slog.Value { return slog.StringValue(secretShown) }

// FeedHeader is a request header a feed sends with its requests, such as
// a token the publisher asks for. Its value is a Secret.
type FeedHeader struct {
	Name  string
	Value Secret
}

// Feed is a package's feed, or with Holdings a customer's holdings feed.
type Feed struct {
	ID      int64
	Vendor  string // the vendor's name in the knowledge base
	Package string // the package's name
	// URL is the file's address (http, https or file). It may hold a
	// token: show it only through RedactURL.
	URL     string
	Every   time.Duration // how often it runs; DefaultFeedEvery when 0
	Headers []FeedHeader
	// MaxRemoval is the share of the package's titles, in percent (0 to
	// 100), that a run may remove (or, for a holdings feed, deselect)
	// without review.
	MaxRemoval float64
	// CustomerID and Holdings make a customer's holdings feed: the file
	// selects the package's titles for that customer.
	CustomerID string
	Holdings   bool
	// ByCustomer marks a holdings feed the library added itself (through
	// the API or the console) rather than the operator: its address is
	// http or https only, fetched over the public network only.
	ByCustomer bool
	Created    time.Time
	// NextRun is when the feed is next due.
	NextRun time.Time
	// ETag and LastModified are those of the last file applied, or found
	// unchanged, sent with the next request to ask whether it changed.
	ETag, LastModified string
}

// String shows the feed for messages: its id, package and address
// redacted (RedactURL), never a token. %v, %+v and %#v print it so.
func (f Feed) String() string {
	s := fmt.Sprintf("feed %d (%s / %s from %s", f.ID, f.Vendor, f.Package, RedactURL(f.URL))
	if f.Holdings {
		s += ", holdings of " + f.CustomerID
	}
	return s + ")"
}

// GoString implements fmt.GoStringer as String does.
func (f Feed) GoString() string { return f.String() }

// LogValue implements slog.LogValuer: the feed's id, package and address
// redacted.
func (f Feed) LogValue() slog.Value {
	return slog.GroupValue(slog.Int64("id", f.ID), slog.String("vendor", f.Vendor), slog.String("package", f.Package),
		slog.String("url", RedactURL(f.URL)), slog.String("customer", f.CustomerID))
}

// FeedRun is one run of a feed, as its history keeps it.
type FeedRun struct {
	ID       int64
	FeedID   int64
	Started  time.Time
	Finished time.Time
	Outcome  FeedOutcome
	// Message says what happened in words, naming the address only
	// through RedactURL.
	Message string
	Status  int   // the HTTP status; 0 when there was none (file://, no answer)
	Bytes   int64 // the bytes of the file read (after decompression)
	// The titles the run added, removed (for a holdings feed:
	// deselected) and changed.
	Added, Removed, Changed int
	// ETag and LastModified are those the answer carried.
	ETag, LastModified string
	// Held reports whether the run's file is kept (a held run), to be
	// read with FeedStore.HeldFile.
	Held bool
}

// FeedStore keeps the feeds and their history. Several servers may run
// over one store: ClaimDueFeed hands each due feed to one of them.
type FeedStore interface {
	// AddFeed stores a new feed, due at once, and returns it with its id
	// and times.
	AddFeed(ctx context.Context, f Feed) (Feed, error)
	// Feeds lists the feeds by id.
	Feeds(ctx context.Context) ([]Feed, error)
	// FeedHistory returns one feed and its runs, newest first;
	// NotFound("Feed") when there is none. (Not named Feed: the stores
	// embed the search index's title feed, kbfeed.Feed, by that name.)
	FeedHistory(ctx context.Context, id int64) (Feed, []FeedRun, error)
	// RemoveFeed removes a feed and its history; NotFound("Feed") when
	// there is none.
	RemoveFeed(ctx context.Context, id int64) error
	// ClaimDueFeed takes the lease on one feed due at now that no other
	// holder's unexpired lease covers, for lease, and returns it; ok is
	// false when no feed is due. It claims only the feeds libraries added
	// themselves (Feed.ByCustomer) when byCustomer, and only the others
	// when not: a server runs them apart, so that neither kind waits for
	// the other. The lease ends with RecordFeedRun or when it expires.
	ClaimDueFeed(ctx context.Context, now time.Time, holder string, lease time.Duration, byCustomer bool) (f Feed, ok bool, err error)
	// ClaimFeed takes the lease on feed id, due or not (a run asked for
	// now, an approval), for lease; ok is false when another holder's
	// unexpired lease covers it; NotFound("Feed") when there is none.
	ClaimFeed(ctx context.Context, id int64, now time.Time, holder string, lease time.Duration) (f Feed, ok bool, err error)
	// RenewFeedLease extends holder's lease on feed id to lease after
	// now, for a run that lasts; ok is false when the lease is no longer
	// holder's.
	RenewFeedLease(ctx context.Context, id int64, now time.Time, holder string, lease time.Duration) (ok bool, err error)
	// RecordFeedRun adds a run to its feed's history, with held (the
	// fetched file, nil for none) kept when the run is held; it makes the
	// feed due again one Every after the run started, keeps the run's
	// ETag and Last-Modified for the next request when the run was
	// applied or unchanged, and releases holder's lease. It returns the
	// run with its id.
	RecordFeedRun(ctx context.Context, holder string, run FeedRun, held io.Reader) (FeedRun, error)
	// HeldFile returns the file a held run kept; NotFound("Held file")
	// when the run kept none.
	HeldFile(ctx context.Context, runID int64) (io.ReadCloser, error)
	// FeedPackage returns the knowledge base's package of a vendor and a
	// package name, found by folded name as an import finds it; ok is
	// false when it does not exist yet.
	FeedPackage(ctx context.Context, vendor, pkg string) (p FeedPackage, ok bool, err error)
}

// FeedPackage is the package a feed fills, as it is before a run: a run
// imports with its content type and type, and measures the titles it
// would remove against its title count.
type FeedPackage struct {
	VendorID, PackageID int64
	ContentType         ContentType
	PackageType         PackageType
	Titles              int // the package's titles
	// Imported is when an import last changed the package (zero for
	// never): a holdings feed whose file is unchanged since its last
	// applied run applies it again when the package changed since.
	Imported time.Time
}
