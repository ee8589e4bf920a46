package search

import (
	"context"
	"errors"
	"fmt"
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

// SearchCollection answers the publication search q over the customer's
// collection, ordered under loc, at the versions of at: the total, the
// page's title ids and, when q.Facets, the facet counts. It waits for the
// index to get to at's versions and for its view of loc (built on first
// use), at most Options.Wait, and fails with kb.CodeUnavailable when they
// are not ready by then.
func (l *Live) SearchCollection(ctx context.Context, custID string, at kb.CustomerAt, loc *alpha.Locale, q kb.PubQuery) (kb.CollectionPage, error) {
	p, err := l.collectionAndView(ctx, custID, at, loc)
	if err != nil {
		return kb.CollectionPage{}, err
	}
	var page kb.CollectionPage
	if p.b.d != nil {
		var ok bool
		if page, ok, err = p.b.d.searchCollection(p.b.x, custID, p.c, p.dc, p.v, p.dv, q); !ok || err != nil {
			return kb.CollectionPage{}, l.unmerged(p.b, err)
		}
	} else if page, err = p.b.x.SearchCollection(custID, p.c, p.v, q); err != nil {
		return kb.CollectionPage{}, err
	}
	l.answered.Add(1)
	return page, nil
}

// CollectionMenu counts the customer's collection (of type rt unless
// kb.ResourceAll) into m at the versions of at, waiting as
// SearchCollection does.
func (l *Live) CollectionMenu(ctx context.Context, custID string, at kb.CustomerAt, rt kb.ResourceType, m *alpha.Menu) error {
	p, err := l.collectionAndView(ctx, custID, at, m.Locale())
	if err != nil {
		return err
	}
	if p.b.d != nil {
		p.b.d.countMenu(p.b.x, p.c, p.dc, p.v, p.dv, rt, m)
	} else {
		p.b.x.CountMenu(p.c, p.v, rt, m)
	}
	l.answered.Add(1)
	return nil
}

// pubState is what a publication search reads: the current index, the
// customer's collection in it and its view of the request's locale, and
// with a delta, the collection and view of the delta's titles (the
// collection in the index then leaves out the titles the delta retires).
type pubState struct {
	b     *built
	c, dc *Collection
	v     *View
	dv    *deltaView
}

// collectionAndView returns what a publication search of the customer
// under loc reads, waiting for the index and its view of loc.
func (l *Live) collectionAndView(ctx context.Context, custID string, at kb.CustomerAt, loc *alpha.Locale) (*pubState, error) {
	var p *pubState
	var customerV int64
	for p == nil {
		b, cv, err := l.current(ctx, at)
		if err != nil {
			return nil, err
		}
		v, err := l.view(ctx, b, loc)
		if err != nil {
			return nil, err
		}
		if v != nil { // else b was replaced while its view was awaited: take the new index
			p, customerV = &pubState{b: b, v: v}, cv
		}
	}
	b := p.b
	var err error
	if b.d != nil {
		if p.dv, err = l.deltaView(ctx, b, p.v, loc); err != nil {
			return nil, err
		}
	}
	e, err := l.selection(ctx, b, custID, customerV)
	if err != nil {
		return nil, err
	}
	if e.coll == nil {
		n := *e
		if n.bcoll == nil {
			n.bcoll = b.x.Collection(e.sel)
		}
		n.coll = n.bcoll
		if b.d != nil {
			n.coll = b.x.without(n.bcoll, b.d.retired)
			n.dcoll = b.d.x.Collection(e.sel)
		}
		e = &n
		l.keep(b, custID, e)
	}
	p.c, p.dc = e.coll, e.dcoll
	return p, nil
}

// deltaView returns b's delta placed in view v (of loc), made on first
// use and kept with b.
func (l *Live) deltaView(ctx context.Context, b *built, v *View, loc *alpha.Locale) (*deltaView, error) {
	b.viewsMu.Lock()
	defer b.viewsMu.Unlock()
	if dv := b.dviews[loc.Tag()]; dv != nil && dv.base == v {
		return dv, nil
	}
	dv, err := b.d.newDeltaView(ctx, b.x, v, loc, l.feed.NamesOf)
	if err != nil {
		return nil, fmt.Errorf("place changed titles in the view of %s: %w", loc.Tag(), err)
	}
	if b.dviews == nil {
		b.dviews = map[string]*deltaView{}
	}
	b.dviews[loc.Tag()] = dv
	return dv, nil
}

// view returns b's view of loc, waiting for it to be built (starting
// the build when none runs) at most Options.Wait; nil when b is no longer
// the current index (the caller takes the new one). It fails with
// kb.CodeUnavailable when the view is not ready in time, or while a
// failed build waits to be tried again.
func (l *Live) view(ctx context.Context, b *built, loc *alpha.Locale) (*View, error) {
	wait := l.opts.Wait
	if wait <= 0 {
		wait = DefaultWait
	}
	var timeout <-chan time.Time
	for {
		done := l.viewSignal() // taken before looking, so that no end is missed
		if cur := l.cur.Load(); cur == nil || cur.x != b.x {
			return nil, nil
		}
		v, err := l.startView(ctx, b, loc)
		if v != nil || err != nil {
			return v, err
		}
		l.viewMu.Lock()
		failed := time.Since(l.viewFailedAt) < retryAfter
		l.viewMu.Unlock()
		if failed {
			return nil, errBuildFailed
		}
		if timeout == nil {
			t := time.NewTimer(wait)
			defer t.Stop()
			timeout = t.C
		}
		select {
		case <-done:
		case <-timeout:
			return nil, errNotReady
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// viewSignal returns a channel closed when the view build running now, or
// the next one, ends.
func (l *Live) viewSignal() <-chan struct{} {
	l.viewMu.Lock()
	defer l.viewMu.Unlock()
	if l.viewCh == nil {
		l.viewCh = make(chan struct{})
	}
	return l.viewCh
}

// viewDone wakes the searches waiting for a view (viewMu held).
func (l *Live) viewDone() {
	if l.viewCh != nil {
		close(l.viewCh)
		l.viewCh = nil
	}
}

// startView returns b's view of loc, or nil after starting its build (or,
// with Options.Inline, builds it now).
//
// Views are built one at a time; a locale asked for while another
// builds, or when maxViews are kept and none can go (the default
// locale's and one being built stay), gets none yet: its searches wait
// (view). Otherwise the least recently used view goes.
func (l *Live) startView(ctx context.Context, b *built, loc *alpha.Locale) (*View, error) {
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
			if !errors.Is(err, context.Canceled) {
				l.viewFailedAt = time.Now()
			}
			l.viewDone()
			l.viewMu.Unlock()
			return nil, err
		}
		e.view = v
		l.viewDone()
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
			l.opts.Logger.Error("title index view build failed; publication searches of its locale are refused until it is built", "locale", tag, "err", err)
		}
	})
	if !started {
		l.viewMu.Lock()
		l.viewBuilding = false
		delete(l.views, tag)
		l.viewDone()
		l.viewMu.Unlock()
	}
	return nil, nil
}
