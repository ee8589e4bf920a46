package search

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"time"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/kbserver/kbserver/internal/alpha"
	"github.com/kbserver/kbserver/internal/kb"
)

// Options configure a Live index.
type Options struct {
	// Inline rebuilds a stale index inside the search that finds it
	// stale (tests); otherwise the rebuild runs in the background and
	// searches wait for it, at most Wait each.
	Inline bool
	// Wait is how long a search waits for the index to be built or
	// rebuilt before it is refused with kb.CodeUnavailable (503 with
	// Retry-After); 0 means DefaultWait.
	Wait time.Duration
	// Logger receives a line for every build; nil discards them.
	Logger *slog.Logger
	// File is where the index is kept between runs ("": nowhere). The
	// first build reads it when it holds the store's current version of
	// the indexed data, instead of building from the store; every build
	// from the store writes it again (with the default locale's view)
	// once that view is built.
	File string
}

// Live is a title index kept in step with a store: it answers a search
// only when its index, with the delta of the titles changed since it was
// built, holds the store's current version of the indexed data; when
// that version moves on it catches up with a new delta, or rebuilds the
// index when the store cannot name the changes. The search service
// (Service) asks it; it reads the store only through kb.TitleFeed.
type Live struct {
	feed kb.TitleFeed
	opts Options
	ctx  context.Context // ends the background builds

	cur       atomic.Pointer[built]
	buildMu   sync.Mutex // one build at a time
	deltaMu   sync.Mutex // one catch-up at a time
	building  atomic.Bool
	failedAt  atomic.Int64   // unix nanoseconds of the last failed build
	triedFile bool           // the first build looked for Options.File (buildMu)
	work      sync.WaitGroup // the background builds and writes
	answered  atomic.Int64   // searches answered from the index

	selMu sync.Mutex
	sel   map[string]*selEntry // by customer id

	viewMu       sync.Mutex
	views        map[string]*viewEntry // by locale tag
	viewClock    int64                 // counts the views' uses
	viewBuilding bool                  // a view is being built
	viewCh       chan struct{}         // closed when the view being built is done (viewMu)
	viewFailedAt time.Time             // the last failed view build (viewMu)

	workMu  sync.Mutex
	stopped bool // Wait was called: no background work starts

	builtMu sync.Mutex
	builtCh chan struct{} // closed when the running background build ends
	ready   atomic.Bool   // an index was installed once

}

// Ready reports whether an index has been installed once since the
// server started (always true with Options.Inline, which builds inside
// the searches): until then a server is not ready for traffic, as every
// search would wait.
func (l *Live) Ready() bool { return l.opts.Inline || l.ready.Load() }

// DefaultWait is how long a search waits for the index by default: more
// than a build from the store takes at 1M titles (BENCHMARKS.md), less
// than clients' usual request timeouts.
const DefaultWait = 30 * time.Second

// errNotReady refuses a search that found no current index in time.
var errNotReady = &kb.Error{Code: kb.CodeUnavailable,
	Message: "The search index is being built after a start or a large import; retry shortly."}

// errBuildFailed refuses a search while a failed build waits to be tried
// again.
var errBuildFailed = &kb.Error{Code: kb.CodeUnavailable,
	Message: "The search index could not be built (the server's log says why); retry shortly."}

// builtSignal returns a channel closed when the background build running
// now, or the next one, ends.
func (l *Live) builtSignal() <-chan struct{} {
	l.builtMu.Lock()
	defer l.builtMu.Unlock()
	if l.builtCh == nil {
		l.builtCh = make(chan struct{})
	}
	return l.builtCh
}

// signalBuilt wakes the searches waiting for a background build: one
// ended, or an index was installed.
func (l *Live) signalBuilt() {
	if l.cur.Load() != nil {
		l.ready.Store(true)
	}
	l.builtMu.Lock()
	defer l.builtMu.Unlock()
	if l.builtCh != nil {
		close(l.builtCh)
		l.builtCh = nil
	}
}

// built is an index, with the delta of the titles changed since it was
// built (nil: none), and the version of the indexed data they hold.
type built struct {
	x       *Index
	d       *delta
	base    int64 // the version x was built at
	version int64
	saving  atomic.Bool // its file is written (or being written, or read from)

	viewsMu sync.Mutex
	dviews  map[string]*deltaView // by locale tag: d placed in x's views

	// stuck is set when the store's records since base cannot name the
	// changes (they never will): no catch-up is tried again.
	stuck atomic.Bool
}

// shouldFold reports whether b's delta is large enough, or its base old
// enough, for a new index to be built in the background.
func (b *built) shouldFold() bool {
	return b.d != nil && (b.d.x.Len() > foldDelta || b.version-b.base > foldMoves)
}

// selEntry is a customer's selection state read at a customer version
// while b was the current index (nil after a catch-up replaced it: the
// state must be read again), and what is derived from it (nil until
// derived): the selected set and the collection in the index x (all,
// bcoll), the collection without the titles b's delta retires (coll;
// bcoll without a delta), and the selected set and collection in the
// delta (dall, dcoll).
type selEntry struct {
	customer    int64
	sel         kb.SelectionState
	b           *built
	x           *Index
	all, dall   *roaring.Bitmap
	bcoll, coll *Collection
	dcoll       *Collection
	analysis    *analysisSets // derived once, for the collection analysis (nil: derived each time)
}

// maxDelta is the most changed titles a delta holds: past it the index is
// rebuilt from the store, searches waiting for it.
const maxDelta = 20000

// foldDelta is the size of a delta past which a new index is built in
// the background while the index and its delta answer (a variable for
// tests).
var foldDelta = 2000

// foldMoves is the number of moves of the store's titles counter since
// an index was built past which a new one is built in the background,
// well inside the store's records (kbsql keeps 10,000 moves).
const foldMoves = 5000

// maxSelected bounds the customers whose selection is kept; past it the
// cache starts again.
const maxSelected = 1024

// retryAfter is how long a failed build waits before the next one.
const retryAfter = 10 * time.Second

// NewLive returns a live index over feed; ctx ends its background builds.
// It holds no index until Build or the first search builds one.
func NewLive(ctx context.Context, feed kb.TitleFeed, opts Options) *Live {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Live{feed: feed, opts: opts, ctx: ctx, sel: map[string]*selEntry{}, views: map[string]*viewEntry{}}
}

// Build builds the index from the store now, unless the one it holds is
// at version or newer.
func (l *Live) Build(ctx context.Context, version int64) error {
	l.buildMu.Lock()
	defer l.buildMu.Unlock()
	if b := l.cur.Load(); b != nil && b.version >= version && version > 0 && b.d == nil {
		return nil
	}
	start := time.Now()
	if l.opts.File != "" && !l.triedFile {
		l.triedFile = true
		if ok, err := l.load(ctx, start); ok || err != nil {
			return err
		}
	}
	// A stale index answers nothing: let it go before the build, with
	// the selected sets derived in it, so that the two are never held
	// at once. An index with a delta that can still catch up (a fold)
	// answers until the new one is ready.
	if b := l.cur.Load(); b == nil || b.d == nil || b.stuck.Load() {
		l.cur.Store(nil)
		l.forget()
	}
	bld := NewBuilder()
	v, err := l.feed.FeedTitles(ctx, bld.AddPackage, bld.Order, bld.AddTitle)
	if err != nil {
		return fmt.Errorf("build title index: %w", err)
	}
	x := bld.Build()
	b := &built{x: x, base: v, version: v}
	l.cur.Store(b)
	l.forget()
	l.signalBuilt() // title searches need not wait for the view below
	// The build's garbage is several times the index: give it back to
	// the system now rather than when the scavenger gets to it.
	debug.FreeOSMemory()
	l.opts.Logger.Info("title index built", "source", "store", "titles", x.Len(), "version", v, "seconds", time.Since(start).Seconds())
	// Publication search's default locale, so that its first search
	// finds the view ready.
	if _, err := l.startView(ctx, b, defaultLocale); err != nil {
		return err
	}
	return nil
}

// defaultLocale is the locale whose view every build makes: publication
// search's default (pfapi's requestLocale).
var defaultLocale = func() *alpha.Locale {
	loc, err := alpha.ParseLocale("en")
	if err != nil {
		panic(err)
	}
	return loc
}()

// Answered returns the number of searches the index has answered.
func (l *Live) Answered() int64 { return l.answered.Load() }

// Version returns the version of the indexed data the index holds; ok is
// false before the first build.
func (l *Live) Version() (v int64, ok bool) {
	if b := l.cur.Load(); b != nil {
		return b.version, true
	}
	return 0, false
}

// current returns the index once it holds the version of the indexed data
// at (read at the request's start), and the customer's version. It catches the index up
// with a delta when the store can name the changes; otherwise it waits
// for a rebuild in the background, at most Options.Wait (with
// Options.Inline it rebuilds the index itself), and refuses the search
// with kb.CodeUnavailable when none is ready by then.
func (l *Live) current(ctx context.Context, at kb.CustomerAt) (*built, int64, error) {
	titlesV, customerV := at.Titles, at.Customer
	wait := l.opts.Wait
	if wait <= 0 {
		wait = DefaultWait
	}
	var timeout <-chan time.Time
	for {
		// The signal is taken before the index is looked at, so that
		// a build ending in between is not missed.
		built := l.builtSignal()
		b := l.cur.Load()
		if b != nil && b.version >= titlesV {
			return b, customerV, nil
		}
		if b != nil {
			nb, err := l.catchUp(ctx, titlesV)
			if nb != nil || err != nil {
				return nb, customerV, err
			}
		}
		if l.opts.Inline {
			if err := l.Build(ctx, titlesV); err != nil {
				return nil, 0, err
			}
			continue
		}
		l.rebuild(titlesV)
		if !l.building.Load() {
			select {
			case <-built: // a build ended just now: look again
				continue
			default:
				return nil, 0, errBuildFailed
			}
		}
		if timeout == nil {
			t := time.NewTimer(wait)
			defer t.Stop()
			timeout = t.C
		}
		select {
		case <-built:
		case <-timeout:
			return nil, 0, errNotReady
		case <-ctx.Done():
			return nil, 0, ctx.Err()
		}
	}
}

// MatchTitles calls fn with every title the search of q matches and its
// rank (lower is better; 0 when q orders by name), in or out of the
// customer's collection, at the versions of at: it waits for the index to
// get there, as SearchTitles does.
func (l *Live) MatchTitles(ctx context.Context, custID string, at kb.CustomerAt, q kb.PubQuery, fn func(id int64, rank float64)) error {
	b, _, err := l.current(ctx, at)
	if err != nil {
		return err
	}
	tq := kb.TitleQuery{Search: q.Search, Field: q.Field, Type: q.Type}
	if b.d != nil {
		if ok, err := b.d.matches(b.x, custID, tq, q.ByName, fn); !ok || err != nil {
			return l.unmerged(b, err)
		}
	} else if err := b.x.Matches(custID, tq, q.ByName, fn); err != nil {
		return err
	}
	l.answered.Add(1)
	return nil
}

// SearchTitles answers the search q (q.Search not blank; a package, when
// q names one, that the customer may see) with the exact total and the ids
// of the page's titles in order, at the versions of at: it waits for the
// index to get there, and fails with CodeUnavailable when it cannot in
// reasonable time.
func (l *Live) SearchTitles(ctx context.Context, custID string, at kb.CustomerAt, q kb.TitleQuery) (ids []int64, total int, err error) {
	b, customerV, err := l.current(ctx, at)
	if err != nil {
		return nil, 0, err
	}
	var selected, dselected *roaring.Bitmap
	if q.Selection == kb.SelectionSelected || q.Selection == kb.SelectionNotSelected {
		if selected, dselected, err = l.selected(ctx, b, custID, q.PackageID, customerV); err != nil {
			return nil, 0, err
		}
	}
	var res Result
	if b.d != nil {
		var ok bool
		if res, ok, err = b.d.titles(b.x, custID, q, selected, dselected); !ok || err != nil {
			return nil, 0, l.unmerged(b, err)
		}
	} else if res, err = b.x.Titles(custID, q, selected); err != nil {
		return nil, 0, err
	}
	l.answered.Add(1)
	return res.IDs, res.Total, nil
}

// unmerged returns err, or, when there is none, the refusal of a search
// whose answers in b's index and in its delta could not be merged (the
// two compiled the search differently, which they should not), after
// starting a build of a new index without a delta; with Options.Inline
// (tests), an error that says so.
func (l *Live) unmerged(b *built, err error) error {
	if err != nil {
		return err
	}
	if l.opts.Inline {
		return fmt.Errorf("title index at version %d: a search's answers in the index and its delta cannot be merged", b.version)
	}
	l.opts.Logger.Warn("a search could not merge the index and its delta; rebuilding the index", "version", b.version)
	l.rebuild(b.version + 1)
	return errNotReady
}

// Start builds the index in the background (or reads it from
// Options.File); searches wait for it.
func (l *Live) Start() { l.rebuild(0) }

// rebuild starts a background build of version unless one is running or
// the last failed less than retryAfter ago.
func (l *Live) rebuild(version int64) {
	if time.Since(time.Unix(0, l.failedAt.Load())) < retryAfter || !l.building.CompareAndSwap(false, true) {
		return
	}
	started := l.background(func() {
		defer l.signalBuilt()
		defer l.building.Store(false)
		for {
			if err := l.Build(l.ctx, version); err != nil {
				if !errors.Is(err, context.Canceled) {
					l.opts.Logger.Error("title index build failed; searches are refused until it is built", "err", err)
				}
				l.failedAt.Store(time.Now().UnixNano())
				return
			}
			// A start from an older file, or catch-ups during the
			// build, may leave a delta to fold: build again.
			b := l.cur.Load()
			if b == nil || !b.shouldFold() {
				return
			}
			version = b.version
		}
	})
	if !started {
		l.building.Store(false)
	}
}

// background runs fn in a goroutine that Wait waits for, unless Wait was
// called; it reports whether fn runs.
func (l *Live) background(fn func()) bool {
	l.workMu.Lock()
	defer l.workMu.Unlock()
	if l.stopped {
		return false
	}
	l.work.Go(fn)
	return true
}

// Wait waits for the background builds and writes to end (they end soon
// after the context given to NewLive is cancelled); none starts after it.
func (l *Live) Wait() {
	l.workMu.Lock()
	l.stopped = true
	l.workMu.Unlock()
	l.work.Wait()
}

// selected returns the customer's selected set in b's index and in its
// delta (nil without one), in package packageID only when not 0, derived
// from its selection state; the customer-wide sets are kept with the
// state.
func (l *Live) selected(ctx context.Context, b *built, custID string, packageID, customerV int64) (all, dall *roaring.Bitmap, err error) {
	e, err := l.selection(ctx, b, custID, customerV)
	if err != nil {
		return nil, nil, err
	}
	if packageID != 0 {
		if b.d != nil {
			dall = b.d.x.Selected(e.sel, packageID)
		}
		return b.x.Selected(e.sel, packageID), dall, nil
	}
	if e.all == nil || b.d != nil && e.dall == nil {
		n := *e
		if n.all == nil {
			n.all = b.x.Selected(e.sel, 0)
		}
		if b.d != nil {
			n.dall = b.d.x.Selected(e.sel, 0)
		}
		e = &n
		l.keep(b, custID, e)
	}
	return e.all, e.dall, nil
}

// selection returns the customer's entry for index b. The state is read
// from the store again when the customer's version or the index moved on
// (an import changes customers' title-level choices, retiring and
// restoring them, without bumping their versions). When it is the state
// the entry holds and b's index is the entry's (b caught up with a
// change), what was derived in that index is kept; what was derived in a
// delta is not. An entry is kept only while b is the current index, so
// that no entry holds an older one.
func (l *Live) selection(ctx context.Context, b *built, custID string, customerV int64) (*selEntry, error) {
	l.selMu.Lock()
	e := l.sel[custID]
	l.selMu.Unlock()
	if e != nil && e.customer == customerV && e.b == b {
		return e, nil
	}
	sel, err := l.feed.SelectionOf(ctx, custID)
	if err != nil {
		return nil, err
	}
	n := &selEntry{customer: customerV, sel: sel, b: b, x: b.x, analysis: &analysisSets{}}
	if e != nil && e.x == b.x && e.sel.Equal(sel) {
		n.all, n.bcoll = e.all, e.bcoll
	}
	l.keep(b, custID, n)
	return n, nil
}

// keep keeps the customer's entry if b is still the current index.
func (l *Live) keep(b *built, custID string, e *selEntry) {
	l.selMu.Lock()
	defer l.selMu.Unlock()
	if l.cur.Load() != b {
		return
	}
	if len(l.sel) >= maxSelected {
		clear(l.sel)
	}
	l.sel[custID] = e
}

// forget lets go of the selections and views derived in earlier indexes.
func (l *Live) forget() {
	l.selMu.Lock()
	clear(l.sel)
	l.selMu.Unlock()
	l.viewMu.Lock()
	clear(l.views)
	l.viewMu.Unlock()
}

// catchUp brings the current index (the one the caller found stale, or
// one that replaced it, as a compaction does) up to the store's version titlesV
// with a delta of the titles changed since its index was built, read
// again from the store, and makes it the current index. It returns nil
// when the store cannot name the changes (an import of more titles than
// it records, more than maxDelta titles, records pruned; the index is
// then marked stuck, since those records never will) or no index is
// current: the caller rebuilds. A delta that should be folded starts a
// new build in the background.
func (l *Live) catchUp(ctx context.Context, titlesV int64) (*built, error) {
	l.deltaMu.Lock()
	defer l.deltaMu.Unlock()
	for range 3 {
		b := l.cur.Load()
		switch {
		case b == nil || b.stuck.Load():
			return nil, nil
		case b.version >= titlesV:
			return b, nil // caught up by another search, or a build finished
		}
		nb, ok, err := l.since(ctx, b.x, b.base)
		if err != nil {
			return nil, err
		}
		if !ok {
			b.stuck.Store(true)
			return nil, nil
		}
		if nb.version < titlesV {
			return nil, nil
		}
		nb.saving.Store(true) // its index is b's, written (or not) as b
		if !l.cur.CompareAndSwap(b, nb) {
			continue // replaced meanwhile: catch that one up
		}
		l.trimSelections(nb.x)
		// With Options.Inline nothing builds in the background: a build
		// replacing the index between a search's steps would leave the
		// search without an answer; the delta answers as well.
		if nb.shouldFold() && !l.opts.Inline {
			l.rebuild(nb.version)
		}
		return nb, nil
	}
	return nil, nil
}

// since returns index x, built at version base, with the delta of the
// titles the store changed since, read again from it; ok is false when
// the store's records cannot name them.
func (l *Live) since(ctx context.Context, x *Index, base int64) (b *built, ok bool, err error) {
	bld := NewBuilder()
	v, changed, ok, err := l.feed.FeedChanges(ctx, base, maxDelta, bld.AddPackage, bld.AddTitle)
	if err != nil {
		return nil, false, fmt.Errorf("catch up title index: %w", err)
	}
	if !ok {
		return nil, false, nil
	}
	b = &built{x: x, base: base, version: v}
	if v > base {
		b.d = newDelta(x, bld.Build(), changed)
	}
	return b, true, nil
}

// trimSelections keeps of each customer's entry only what was derived in
// the index x (dropping entries of other indexes), so that no entry holds
// a replaced delta; each state is read again at its next search.
func (l *Live) trimSelections(x *Index) {
	l.selMu.Lock()
	defer l.selMu.Unlock()
	for id, e := range l.sel {
		if e.x != x {
			delete(l.sel, id)
			continue
		}
		l.sel[id] = &selEntry{customer: e.customer, sel: e.sel, x: x, all: e.all, bcoll: e.bcoll, analysis: &analysisSets{}}
	}
}
