package search

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"runtime/debug"
	"time"
)

// load reads the index and its views from Options.File when the file holds
// the store's current version of the indexed data, or an older version of
// the same database that the store's change records can catch up with (a
// delta of the titles changed since); ok is false when the index must be
// built from the store (no file, one of another database or program, one
// too old, or one that cannot be read, which is logged).
func (l *Live) load(ctx context.Context, start time.Time) (ok bool, err error) {
	version, err := l.feed.TitlesVersion(ctx)
	if err != nil {
		return false, err
	}
	db, err := l.feed.StoreIdentity(ctx)
	if err != nil {
		return false, err
	}
	var fpErr error
	x, views, h, err := ReadFileSince(l.opts.File, db, version, func() (string, error) {
		fp, err := l.feed.IndexFingerprint(ctx)
		fpErr = err
		return fp, err
	})
	switch {
	case fpErr != nil:
		return false, fpErr
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case errors.Is(err, errStale):
		l.opts.Logger.Info("title index file is not of this store's data or program: building from the store", "file", l.opts.File, "why", err)
		return false, nil
	case err != nil:
		l.opts.Logger.Warn("title index file unreadable: building from the store", "err", err)
		return false, nil
	}
	nb := &built{x: x, base: h.Version, version: version}
	if h.Version < version {
		caught, ok, err := l.since(ctx, x, h.Version)
		if err != nil {
			return false, err
		}
		if !ok {
			l.opts.Logger.Info("title index file is older than the store's records of changes: building from the store", "file", l.opts.File, "version", h.Version)
			return false, nil
		}
		nb = caught
	}
	if !l.install(nil, nb, views) {
		return false, nil // another index came first
	}
	changed := 0
	if nb.d != nil {
		changed = nb.d.x.Len()
	}
	l.opts.Logger.Info("title index built", "source", "file", "titles", x.Len(), "version", nb.version, "caught up", changed, "seconds", time.Since(start).Seconds())
	for _, v := range views {
		l.opts.Logger.Info("title index view built", "source", "file", "locale", v.locale, "titles", x.Len())
	}
	return true, nil
}

// stamp returns the stamp of an index of the store's data at version.
func (l *Live) stamp(ctx context.Context, version int64) (Stamp, error) {
	store, err := l.feed.IndexFingerprint(ctx)
	if err != nil {
		return Stamp{}, err
	}
	db, err := l.feed.StoreIdentity(ctx)
	if err != nil {
		return Stamp{}, err
	}
	return Stamp{Version: version, Store: store, DB: db}, nil
}

// save writes index b with view v to Options.File, if there is one and b's
// index is still the current one (with a delta or not); a failure is
// logged (the next start builds from the store).
func (l *Live) save(b *built, v *View) {
	if cur := l.cur.Load(); l.opts.File == "" || cur == nil || cur.x != b.x || !b.saving.CompareAndSwap(false, true) {
		return // none, replaced, or written already
	}
	start := time.Now()
	stamp, err := l.stamp(l.ctx, b.base) // the version of b's index, not of a delta
	if err != nil {
		l.opts.Logger.Warn("title index not saved", "err", err)
		return
	}
	if err := b.x.WriteFile(l.ctx, l.opts.File, stamp, []*View{v}); err != nil {
		l.opts.Logger.Warn("title index not saved", "err", err)
		return
	}
	var size int64
	if fi, err := os.Stat(l.opts.File); err == nil {
		size = fi.Size()
	}
	l.opts.Logger.Info("title index saved", "file", l.opts.File, "bytes", size, "version", b.base, "seconds", time.Since(start).Seconds())
	l.compact(b, stamp)
}

// compact replaces b's index, if it is still the current one (with a
// delta or not), by its copy just written to Options.File, which has the
// same ordinals: the copy is made of lists of their exact
// sizes in new memory, where the build left its lists with room to grow
// among the heap pages of its garbage: the server's resident memory after
// a build from the store is several times what it is after loading the
// same index from the file (BENCHMARKS.md).
func (l *Live) compact(b *built, stamp Stamp) {
	x, views, err := ReadFile(l.opts.File, stamp)
	if err != nil {
		l.opts.Logger.Warn("title index not compacted", "err", err)
		return
	}
	if cur := l.cur.Load(); cur != nil && cur.x == b.x {
		l.install(cur, &built{x: x, d: cur.d, base: cur.base, version: cur.version}, views)
	}
}

// install makes nb, whose index was read from Options.File with its
// views, the current index in place of old (nil: none), unless another
// replaced old since; the views and selections derived in an index
// before go. It reports whether nb was installed.
func (l *Live) install(old, nb *built, views []*View) bool {
	x := nb.x
	nb.saving.Store(true) // it is the file's
	l.viewMu.Lock()
	if !l.cur.CompareAndSwap(old, nb) {
		l.viewMu.Unlock()
		return false
	}
	defer l.signalBuilt() // searches waiting for an index need not wait for a fold
	clear(l.views)
	for _, v := range views {
		l.views[v.locale] = &viewEntry{x: x, view: v}
	}
	l.viewMu.Unlock()
	l.selMu.Lock()
	clear(l.sel)
	l.selMu.Unlock()
	debug.FreeOSMemory()
	return true
}
