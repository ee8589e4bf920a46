package feeds

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/kbserver/kbserver/internal/kb"
)

// Library is what a customer does with its own holdings feeds, through
// the API and the console: it sees, adds, runs, reviews, approves and
// removes the holdings feeds of that customer only (another customer's,
// or an operator's package feed, is not found). The feeds a library adds
// are fetched over http or https from the public network only
// (kb.Feed.ByCustomer).
type Library struct {
	d      Deps
	store  LibraryStore
	holder string
	// busy marks the customers a run or an approval asked for is under
	// way for in this process: one at a time each, so that a library
	// cannot keep the server fetching for it many times over.
	mu   sync.Mutex
	busy map[string]bool
}

// LibraryStore is what Library needs of the store beyond a run's.
type LibraryStore interface {
	Store
	// PackageByID returns a package the customer may see.
	PackageByID(ctx context.Context, custID string, packageID int64) (kb.Package, error)
	// NamesOf calls fn with the id and name of each of the titles ids.
	NamesOf(ctx context.Context, ids []int64, fn func(id int64, name string)) error
}

// NewLibrary returns the customers' feeds over store (d.Store is
// replaced); its runs take the leases as holder.
func NewLibrary(d Deps, store LibraryStore, holder string) *Library {
	d.Store = store
	if d.Limits.Timeout <= 0 || d.Limits.Timeout > LibraryFetchTimeout {
		// The runs a library asks for answer within the server's write
		// timeout, also those of an operator's feed of its holdings.
		d.Limits.Timeout = LibraryFetchTimeout
	}
	return &Library{d: d, store: store, holder: holder, busy: map[string]bool{}}
}

// LibraryFeed is a holdings feed as a library asks for it.
type LibraryFeed struct {
	VendorID, PackageID int64
	URL                 string
	Every               string // a schedule as kb.ParseFeedEvery reads it; "" is daily
	MaxRemoval          string // a share as kb.ParseFeedMaxRemoval reads it; "" is 20%
	Headers             []string
}

// Feeds returns the customer's holdings feeds, by id, each with its last
// run (nil for none).
func (l *Library) Feeds(ctx context.Context, custID string) ([]kb.Feed, map[int64]*kb.FeedRun, error) {
	all, err := l.store.Feeds(ctx)
	if err != nil {
		return nil, nil, err
	}
	var mine []kb.Feed
	last := map[int64]*kb.FeedRun{}
	for _, f := range all {
		if !f.Holdings || f.CustomerID != custID {
			continue
		}
		mine = append(mine, f)
		_, runs, err := l.store.FeedHistory(ctx, f.ID)
		if err != nil {
			return nil, nil, err
		}
		if len(runs) > 0 {
			last[f.ID] = &runs[0]
		}
	}
	if mine == nil {
		mine = []kb.Feed{}
	}
	return mine, last, nil
}

// Add adds a holdings feed of the customer, due at once. Bad input is
// CodeMissing or CodeInvalid naming the field; a package the customer
// cannot see is NotFound("Package"), a custom package CodeNotAllowed.
func (l *Library) Add(ctx context.Context, custID string, in LibraryFeed) (kb.Feed, error) {
	switch {
	case in.VendorID <= 0:
		return kb.Feed{}, kb.Errorf(kb.CodeMissing, "vendorId: name the vendor of the package the file selects titles of")
	case in.PackageID <= 0:
		return kb.Feed{}, kb.Errorf(kb.CodeMissing, "packageId: name the package the file selects titles of")
	}
	if err := kb.CheckLibraryFeedURL(in.URL); err != nil {
		return kb.Feed{}, err
	}
	every, err := kb.ParseFeedEvery(in.Every)
	if err != nil {
		return kb.Feed{}, err
	}
	if every < kb.MinLibraryFeedEvery {
		return kb.Feed{}, kb.Errorf(kb.CodeInvalid, "every: %s is too short: a library's feed runs at most once an hour (1h)", every)
	}
	maxRemoval, err := kb.ParseFeedMaxRemoval(in.MaxRemoval)
	if err != nil {
		return kb.Feed{}, err
	}
	if len(in.Headers) > kb.MaxLibraryFeedHeaders {
		return kb.Feed{}, kb.Errorf(kb.CodeInvalid, "headers: %d given, at most %d", len(in.Headers), kb.MaxLibraryFeedHeaders)
	}
	var headers []kb.FeedHeader
	for _, h := range in.Headers {
		fh, err := kb.ParseFeedHeader(h)
		if err != nil {
			return kb.Feed{}, err
		}
		headers = append(headers, fh)
	}
	p, err := l.store.PackageByID(ctx, custID, in.PackageID)
	if err != nil {
		return kb.Feed{}, err
	}
	if p.VendorID != in.VendorID {
		return kb.Feed{}, kb.NotFound("Package")
	}
	if p.IsCustom {
		return kb.Feed{}, kb.Errorf(kb.CodeNotAllowed, "packageId: %d-%d is a custom package: a holdings feed selects the titles of a package of the knowledge base", p.VendorID, p.ID)
	}
	mine, _, err := l.Feeds(ctx, custID)
	if err != nil {
		return kb.Feed{}, err
	}
	if len(mine) >= kb.MaxLibraryFeeds {
		return kb.Feed{}, kb.Errorf(kb.CodeNotAllowed, "a customer keeps at most %d holdings feeds: remove one first", kb.MaxLibraryFeeds)
	}
	return l.store.AddFeed(ctx, kb.Feed{Vendor: p.VendorName, Package: p.Name, URL: strings.TrimSpace(in.URL), Every: every,
		Headers: headers, MaxRemoval: maxRemoval, CustomerID: custID, Holdings: true, ByCustomer: true})
}

// History returns one of the customer's holdings feeds and its runs,
// newest first.
func (l *Library) History(ctx context.Context, custID string, id int64) (kb.Feed, []kb.FeedRun, error) {
	f, runs, err := l.store.FeedHistory(ctx, id)
	if err != nil {
		return kb.Feed{}, nil, err
	}
	if !f.Holdings || f.CustomerID != custID {
		return kb.Feed{}, nil, kb.NotFound("Feed")
	}
	return f, runs, nil
}

// Remove removes one of the customer's holdings feeds and its history.
// The titles it selected stay selected.
func (l *Library) Remove(ctx context.Context, custID string, id int64) error {
	if _, _, err := l.History(ctx, custID, id); err != nil {
		return err
	}
	return l.store.RemoveFeed(ctx, id)
}

// Run runs one of the customer's holdings feeds now and returns the run;
// CodeConflict when a run of it is under way. The run goes on when ctx
// is canceled (a client that leaves does not leave the feed's lease
// taken), within the fetch's time limit.
func (l *Library) Run(ctx context.Context, custID string, id int64) (kb.FeedRun, error) {
	return l.act(ctx, custID, id, func(ctx context.Context, f kb.Feed) (kb.FeedRun, error) { return Run(ctx, l.d, f, l.holder) })
}

// act claims the customer's feed id, one run or approval of the customer
// at a time, and acts on it with a context that goes on when ctx is
// canceled.
func (l *Library) act(ctx context.Context, custID string, id int64, do func(context.Context, kb.Feed) (kb.FeedRun, error)) (kb.FeedRun, error) {
	done, err := l.one(custID)
	if err != nil {
		return kb.FeedRun{}, err
	}
	defer done()
	f, err := l.claim(ctx, custID, id)
	if err != nil {
		return kb.FeedRun{}, err
	}
	return do(context.WithoutCancel(ctx), f)
}

// one marks a run or approval of the customer under way until done is
// called; CodeConflict when one is already.
func (l *Library) one(custID string) (done func(), err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.busy[custID] {
		return nil, kb.Errorf(kb.CodeConflict, "a run of one of your holdings feeds is under way: try again when it has ended")
	}
	l.busy[custID] = true
	return func() {
		l.mu.Lock()
		delete(l.busy, custID)
		l.mu.Unlock()
	}, nil
}

// Approve applies the file held by run runID of one of the customer's
// holdings feeds (runID 0: its newest run).
func (l *Library) Approve(ctx context.Context, custID string, id, runID int64) (kb.FeedRun, error) {
	if _, runs, err := l.History(ctx, custID, id); err != nil {
		return kb.FeedRun{}, err
	} else if runID == 0 && len(runs) > 0 {
		runID = runs[0].ID
	}
	return l.act(ctx, custID, id, func(ctx context.Context, f kb.Feed) (kb.FeedRun, error) { return Approve(ctx, l.d, f, runID, l.holder) })
}

// claim takes the lease on the customer's feed id.
func (l *Library) claim(ctx context.Context, custID string, id int64) (kb.Feed, error) {
	if _, _, err := l.History(ctx, custID, id); err != nil {
		return kb.Feed{}, err
	}
	f, ok, err := l.store.ClaimFeed(ctx, id, l.d.now(), l.holder, l.d.lease())
	if err != nil {
		return kb.Feed{}, err
	}
	if !ok {
		return kb.Feed{}, kb.Errorf(kb.CodeConflict, "feed %d is running now: try again when its run has ended", id)
	}
	return f, nil
}

// PreviewLimit is the most titles of each list a Review names.
const PreviewLimit = 200

// Review is what approving a held run would do now, for a person to
// decide: the counts, and the first PreviewLimit titles to be selected
// and deselected, by name.
type Review struct {
	Run     kb.FeedRun
	Preview HoldingsPreview
	// SelectedNames and DeselectedNames are the first titles of each
	// list, in the lists' order (by id), with their names.
	SelectedNames, DeselectedNames []NamedTitle
}

// NamedTitle is a title's id and name.
type NamedTitle struct {
	ID   int64
	Name string
}

// Review returns what approving held run runID of one of the customer's
// holdings feeds would do now.
func (l *Library) Review(ctx context.Context, custID string, id, runID int64) (Review, error) {
	f, runs, err := l.History(ctx, custID, id)
	if err != nil {
		return Review{}, err
	}
	i := slices.IndexFunc(runs, func(r kb.FeedRun) bool { return r.ID == runID })
	if i < 0 {
		return Review{}, kb.NotFound("Feed run")
	}
	pv, err := PreviewHeld(ctx, l.d, f, runID)
	if err != nil {
		return Review{}, err
	}
	rv := Review{Run: runs[i], Preview: pv}
	if rv.SelectedNames, err = l.names(ctx, pv.Selected); err != nil {
		return Review{}, err
	}
	if rv.DeselectedNames, err = l.names(ctx, pv.Deselected); err != nil {
		return Review{}, err
	}
	return rv, nil
}

// names returns the first PreviewLimit of ids with their names.
func (l *Library) names(ctx context.Context, ids []int64) ([]NamedTitle, error) {
	ids = ids[:min(len(ids), PreviewLimit)]
	byID := make(map[int64]string, len(ids))
	if err := l.store.NamesOf(ctx, ids, func(id int64, name string) { byID[id] = name }); err != nil {
		return nil, fmt.Errorf("names of titles: %w", err)
	}
	out := make([]NamedTitle, len(ids))
	for i, id := range ids {
		out[i] = NamedTitle{ID: id, Name: byID[id]}
	}
	return out, nil
}
