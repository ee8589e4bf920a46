package search

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/kbserver/kbserver/internal/kb"
)

// Options configure a Live index.
type Options struct {
	// Inline rebuilds a stale index inside the search that finds it
	// stale, so that every search is answered from the index (tests);
	// otherwise the rebuild runs in the background and the store answers
	// meanwhile.
	Inline bool
	// Logger receives a line for every build; nil discards them.
	Logger *slog.Logger
}

// Live is a title index kept in step with a store: it answers a search
// only when its index was built at the store's current version of the
// indexed data, and rebuilds it when that version moves on. It implements
// kb.TitleIndex.
type Live struct {
	feed kb.TitleFeed
	opts Options
	ctx  context.Context // ends the background builds

	cur      atomic.Pointer[built]
	buildMu  sync.Mutex // one build at a time
	building atomic.Bool
	failedAt atomic.Int64 // unix nanoseconds of the last failed build

	selMu sync.Mutex
	sel   map[selKey]*selEntry
}

// built is an index and the version of the indexed data it holds.
type built struct {
	x       *Index
	version int64
}

// selKey names a selected set: a customer's, or its selection in one
// package.
type selKey struct {
	custID    string
	packageID int64
}

// selEntry is a selected set (ordinals of one index) and the versions it
// was read at.
type selEntry struct {
	x        *Index
	customer int64
	set      *roaring.Bitmap
}

// maxSelected bounds the selected sets kept; past it the cache starts
// again.
const maxSelected = 1024

// retryAfter is how long a failed build waits before the next one.
const retryAfter = 10 * time.Second

// NewLive returns a live index over feed; ctx ends its background builds.
// It holds no index until Build or the first search builds one.
func NewLive(ctx context.Context, feed kb.TitleFeed, opts Options) *Live {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	return &Live{feed: feed, opts: opts, ctx: ctx, sel: map[selKey]*selEntry{}}
}

// Build builds the index from the store now, unless the one it holds is
// at version or newer.
func (l *Live) Build(ctx context.Context, version int64) error {
	l.buildMu.Lock()
	defer l.buildMu.Unlock()
	if b := l.cur.Load(); b != nil && b.version >= version && version > 0 {
		return nil
	}
	start := time.Now()
	bld := NewBuilder()
	v, err := l.feed.FeedTitles(ctx, bld.AddPackage, bld.AddTitle)
	if err != nil {
		return fmt.Errorf("build title index: %w", err)
	}
	x := bld.Build()
	l.cur.Store(&built{x: x, version: v})
	l.opts.Logger.Info("title index built", "titles", x.Len(), "version", v, "seconds", time.Since(start).Seconds())
	return nil
}

// Version returns the version of the indexed data the index holds; ok is
// false before the first build.
func (l *Live) Version() (v int64, ok bool) {
	if b := l.cur.Load(); b != nil {
		return b.version, true
	}
	return 0, false
}

// current returns the index if it holds the store's current version of
// the indexed data (nil if not, after starting a rebuild, or rebuilding
// inline with Options.Inline), and the customer's version.
func (l *Live) current(ctx context.Context, custID string) (*built, int64, error) {
	titlesV, customerV, err := l.feed.IndexVersions(ctx, custID)
	if err != nil {
		return nil, 0, err
	}
	b := l.cur.Load()
	if b != nil && b.version >= titlesV {
		return b, customerV, nil
	}
	if !l.opts.Inline {
		l.rebuild(titlesV)
		return nil, 0, nil
	}
	if err := l.Build(ctx, titlesV); err != nil {
		return nil, 0, err
	}
	if b = l.cur.Load(); b.version < titlesV {
		return nil, 0, nil
	}
	return b, customerV, nil
}

// MatchTitles calls fn with the matches of q's search when the index is
// current; see kb.TitleIndex.
func (l *Live) MatchTitles(ctx context.Context, custID string, q kb.PubQuery, fn func(id int64, rank float64)) (bool, error) {
	b, _, err := l.current(ctx, custID)
	if b == nil || err != nil {
		return false, err
	}
	err = b.x.Matches(custID, kb.TitleQuery{Search: q.Search, Field: q.Field, Type: q.Type}, q.ByName, fn)
	return err == nil, err
}

// SearchTitles answers q from the index when it is current; see
// kb.TitleIndex.
func (l *Live) SearchTitles(ctx context.Context, custID string, q kb.TitleQuery) (ids []int64, total int, ok bool, err error) {
	b, customerV, err := l.current(ctx, custID)
	if b == nil || err != nil {
		return nil, 0, false, err
	}
	var selected *roaring.Bitmap
	if q.Selection == kb.SelectionSelected || q.Selection == kb.SelectionNotSelected {
		if selected, err = l.selected(ctx, b.x, custID, q.PackageID, customerV); err != nil {
			return nil, 0, false, err
		}
	}
	res, err := b.x.Titles(custID, q, selected)
	if err != nil {
		return nil, 0, false, err
	}
	return res.IDs, res.Total, true, nil
}

// Start builds the index in the background; searches are answered by the
// store until it is ready.
func (l *Live) Start() { l.rebuild(0) }

// rebuild starts a background build of version unless one is running or
// the last failed less than retryAfter ago.
func (l *Live) rebuild(version int64) {
	if time.Since(time.Unix(0, l.failedAt.Load())) < retryAfter || !l.building.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer l.building.Store(false)
		if err := l.Build(l.ctx, version); err != nil {
			if !errors.Is(err, context.Canceled) {
				l.opts.Logger.Error("title index build failed; the store answers title searches", "err", err)
			}
			l.failedAt.Store(time.Now().UnixNano())
		}
	}()
}

// selected returns the customer's selected set in index x (in package
// packageID only when not 0), read from the store unless the set kept was
// read at the same customer version for the same index.
func (l *Live) selected(ctx context.Context, x *Index, custID string, packageID, customerV int64) (*roaring.Bitmap, error) {
	key := selKey{custID, packageID}
	l.selMu.Lock()
	e := l.sel[key]
	l.selMu.Unlock()
	if e != nil && e.x == x && e.customer == customerV {
		return e.set, nil
	}
	set := roaring.New()
	err := l.feed.SelectedTitleIDs(ctx, custID, packageID, func(id int64) {
		if o, ok := x.Ordinal(id); ok {
			set.Add(o)
		}
	})
	if err != nil {
		return nil, err
	}
	set.RunOptimize()
	l.selMu.Lock()
	if len(l.sel) >= maxSelected {
		clear(l.sel)
	}
	l.sel[key] = &selEntry{x: x, customer: customerV, set: set}
	l.selMu.Unlock()
	return set, nil
}
