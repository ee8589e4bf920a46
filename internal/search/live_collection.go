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

// SearchCollection answers a publication search from the index when it
// is current and has a view of loc; see kb.TitleIndex. A missing view is
// built in the background (inline with Options.Inline), while the caller
// searches otherwise.
func (l *Live) SearchCollection(ctx context.Context, custID string, loc *alpha.Locale, q kb.PubQuery) (kb.CollectionPage, bool, error) {
	p, err := l.collectionAndView(ctx, custID, loc)
	if p == nil || err != nil {
		return kb.CollectionPage{}, false, err
	}
	var page kb.CollectionPage
	if p.b.d != nil {
		var ok bool
		if page, ok, err = p.b.d.searchCollection(p.b.x, custID, p.c, p.dc, p.v, p.dv, q); !ok || err != nil {
			return kb.CollectionPage{}, false, err
		}
	} else if page, err = p.b.x.SearchCollection(custID, p.c, p.v, q); err != nil {
		return kb.CollectionPage{}, false, err
	}
	l.answered.Add(1)
	return page, true, nil
}

// CollectionMenu counts the customer's collection into m from the index
// when it is current and has a view of m's locale; see kb.TitleIndex.
func (l *Live) CollectionMenu(ctx context.Context, custID string, rt kb.ResourceType, m *alpha.Menu) (bool, error) {
	p, err := l.collectionAndView(ctx, custID, m.Locale())
	if p == nil || err != nil {
		return false, err
	}
	if p.b.d != nil {
		p.b.d.countMenu(p.b.x, p.c, p.dc, p.v, p.dv, rt, m)
	} else {
		p.b.x.CountMenu(p.c, p.v, rt, m)
	}
	l.answered.Add(1)
	return true, nil
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
// under loc reads; nil when the index cannot answer.
func (l *Live) collectionAndView(ctx context.Context, custID string, loc *alpha.Locale) (*pubState, error) {
	b, customerV, err := l.current(ctx, custID)
	if b == nil || err != nil {
		return nil, err
	}
	p := &pubState{b: b}
	if p.v, err = l.view(ctx, b, loc); p.v == nil || err != nil {
		return nil, err
	}
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
