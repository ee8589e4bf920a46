package search

import (
	"context"
	"errors"
	"runtime/debug"
	"time"

	"github.com/kbserver/kbserver/internal/alpha"
	"github.com/kbserver/kbserver/internal/kb"
)

// maxViews bounds the locales whose view an index keeps (8 bytes a title
// each, and bitmaps holding each title twice).
const maxViews = 4

// claimView returns b's view of tag and a nil entry when there is one
// (a nil view while it builds), or when none may be built now (b was
// replaced since the search took it, another view builds, or maxViews
// are kept and none can go); otherwise a new entry, kept under tag, that
// the caller builds.
func (l *Live) claimView(b *built, tag string) (*View, *viewEntry) {
	l.viewMu.Lock()
	defer l.viewMu.Unlock()
	if cur := l.cur.Load(); cur == nil || cur.x != b.x {
		return nil, nil
	}
	l.viewClock++
	if e := l.views[tag]; e != nil && e.x == b.x {
		e.used = l.viewClock
		return e.view, nil
	}
	for t, old := range l.views {
		if old.x != b.x {
			delete(l.views, t) // of an older index
		}
	}
	if l.viewBuilding {
		return nil, nil
	}
	if len(l.views) >= maxViews {
		oldest := ""
		for t, old := range l.views {
			if old.view != nil && t != defaultLocale.Tag() && (oldest == "" || old.used < l.views[oldest].used) {
				oldest = t
			}
		}
		if oldest == "" {
			return nil, nil
		}
		delete(l.views, oldest)
	}
	e := &viewEntry{x: b.x, used: l.viewClock}
	l.views[tag] = e
	l.viewBuilding = true
	return nil, e
}

// viewEntry is a locale's view of one index: nil until built; used is
// the Live's view clock at its last use.
type viewEntry struct {
	x    *Index
	view *View
	used int64
}

// SearchCollection answers a publication search from the index when it
// is current and has a view of loc; see kb.TitleIndex. A missing view is
// built in the background (inline with Options.Inline), while the caller
// searches otherwise.
func (l *Live) SearchCollection(ctx context.Context, custID string, loc *alpha.Locale, q kb.PubQuery) (kb.CollectionPage, bool, error) {
	b, c, v, err := l.collectionAndView(ctx, custID, loc)
	if b == nil || err != nil {
		return kb.CollectionPage{}, false, err
	}
	page, err := b.x.SearchCollection(custID, c, v, q)
	if err != nil {
		return kb.CollectionPage{}, false, err
	}
	l.answered.Add(1)
	return page, true, nil
}

// CollectionMenu counts the customer's collection into m from the index
// when it is current and has a view of m's locale; see kb.TitleIndex.
func (l *Live) CollectionMenu(ctx context.Context, custID string, rt kb.ResourceType, m *alpha.Menu) (bool, error) {
	b, c, v, err := l.collectionAndView(ctx, custID, m.Locale())
	if b == nil || err != nil {
		return false, err
	}
	b.x.CountMenu(c, v, rt, m)
	l.answered.Add(1)
	return true, nil
}

// collectionAndView returns the current index, the customer's collection
// in it and its view of loc; b is nil when the index cannot answer.
func (l *Live) collectionAndView(ctx context.Context, custID string, loc *alpha.Locale) (b *built, c *Collection, v *View, err error) {
	b, customerV, err := l.current(ctx, custID)
	if b == nil || err != nil {
		return nil, nil, nil, err
	}
	if b.d != nil {
		// Publication search does not merge a delta yet: a new index is
		// built, the collection path answering meanwhile.
		if !l.opts.Inline {
			l.rebuild(b.version)
			return nil, nil, nil, nil
		}
		if err := l.Build(ctx, b.version); err != nil {
			return nil, nil, nil, err
		}
		if b = l.cur.Load(); b == nil || b.d != nil {
			return nil, nil, nil, nil
		}
	}
	if v, err = l.view(ctx, b, loc); v == nil || err != nil {
		return nil, nil, nil, err
	}
	e, err := l.selection(ctx, b, custID, customerV)
	if err != nil {
		return nil, nil, nil, err
	}
	if e.coll == nil {
		n := *e
		n.coll = b.x.Collection(e.sel)
		e = &n
		l.keep(b, custID, e)
	}
	return b, e.coll, v, nil
}

// view returns b's view of loc, or nil after starting its build (or,
// with Options.Inline, builds it now).
//
// Views are built one at a time; a locale asked for while another
// builds, or when maxViews are kept and none can go (the default
// locale's and one being built stay), gets none: its searches take the
// collection path. Otherwise the least recently used view goes.
func (l *Live) view(ctx context.Context, b *built, loc *alpha.Locale) (*View, error) {
	tag := loc.Tag()
	v, e := l.claimView(b, tag)
	if e == nil {
		return v, nil
	}
	build := func(ctx context.Context) (*View, error) {
		start := time.Now()
		v, err := b.x.NewView(ctx, loc, l.feed.FeedNames)
		l.viewMu.Lock()
		l.viewBuilding = false
		if err != nil {
			if l.views[tag] == e {
				delete(l.views, tag) // the next search tries again
			}
			l.viewMu.Unlock()
			return nil, err
		}
		e.view = v
		l.viewMu.Unlock()
		// The names read for the build are garbage now: give the
		// memory back rather than wait for the scavenger.
		debug.FreeOSMemory()
		l.opts.Logger.Info("title index view built", "source", "store", "locale", tag, "titles", b.x.Len(), "seconds", time.Since(start).Seconds())
		if tag == defaultLocale.Tag() {
			l.save(b, v)
		}
		return v, nil
	}
	if l.opts.Inline {
		return build(ctx)
	}
	started := l.background(func() {
		if _, err := build(l.ctx); err != nil && !errors.Is(err, context.Canceled) {
			l.opts.Logger.Error("title index view build failed; the collection answers publication searches", "locale", tag, "err", err)
		}
	})
	if !started {
		l.viewMu.Lock()
		l.viewBuilding = false
		delete(l.views, tag)
		l.viewMu.Unlock()
	}
	return nil, nil
}
