package scholarapi

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"github.com/kbserver/kbserver/internal/kb"
	"github.com/kbserver/kbserver/internal/scholar"
)

// DefaultCacheBytes is the disk a Files keeps by default: 2 GiB, the
// holdings files of about eight customers holding 1.5 million titles.
const DefaultCacheBytes int64 = 2 << 30

// Files keeps the holdings files written for customers, on disk, so that
// the many fetches of one set (institutional_links.xml, then each file
// it names) write it once. A customer's set is kept under the collection
// version it was written at (kb.PublicationStore.CollectionVersion) and
// written again when the version moves, its old set removed. Memory holds
// only the sets' names and sizes; the disk holds at most the byte budget
// (the least recently fetched sets are removed first), and one set more
// than the budget when it alone is larger. A set is written once however
// many requests ask for it at the same time: the others wait for it.
type Files struct {
	root   string // "" until the first set when the directory is temporary
	temp   bool   // root was made here and is removed by Close
	budget int64
	logger *slog.Logger

	mu    sync.Mutex
	sets  map[string]*fileSet // by customer
	clock int64               // the last use's tick
}

// fileSet is one customer's holdings files at one collection version.
type fileSet struct {
	version string
	dir     string
	names   []string // holdings-1.xml, …
	bytes   int64
	used    int64         // tick of the last fetch
	ready   chan struct{} // closed when written (or failed)
	err     error
}

// NewFiles returns a keeper of holdings files under dir (a new
// temporary directory, made at the first set and removed by Close, when
// dir is ""), within budget bytes of disk (DefaultCacheBytes for 0).
func NewFiles(dir string, budget int64, logger *slog.Logger) *Files {
	if budget <= 0 {
		budget = DefaultCacheBytes
	}
	if logger == nil {
		logger = slog.Default()
	}
	return &Files{root: dir, temp: dir == "", budget: budget, logger: logger, sets: map[string]*fileSet{}}
}

// Close removes every set, and the directory when it is temporary.
func (f *Files) Close() error {
	f.mu.Lock()
	sets := f.sets
	f.sets = map[string]*fileSet{}
	root, temp := f.root, f.temp
	f.mu.Unlock()
	var errs []error
	for _, s := range sets {
		<-s.ready
		errs = append(errs, os.RemoveAll(s.dir))
	}
	if temp && root != "" {
		errs = append(errs, os.RemoveAll(root))
	}
	return errors.Join(errs...)
}

// writeFunc writes a customer's holdings files into dir and returns
// their names.
type writeFunc func(ctx context.Context, custID, dir string) ([]string, error)

// set returns the customer's set at version, written by write when it
// has none at that version.
func (f *Files) set(ctx context.Context, custID, version string, write writeFunc) (*fileSet, error) {
	f.mu.Lock()
	f.clock++
	s := f.sets[custID]
	if s != nil && s.version == version {
		s.used = f.clock
		f.mu.Unlock()
		select {
		case <-s.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		if s.err != nil {
			return nil, s.err
		}
		return s, nil
	}
	old := s
	s = &fileSet{version: version, used: f.clock, ready: make(chan struct{})}
	f.sets[custID] = s
	f.mu.Unlock()
	switch {
	case old == nil:
	case isReady(old):
		f.remove(old)
	default: // still being written for its own waiters
		go func() { <-old.ready; f.remove(old) }()
	}

	// The set is written for every request waiting for it: a client
	// that goes away does not stop it.
	s.err = f.write(context.WithoutCancel(ctx), custID, s, write)
	var evicted []*fileSet
	f.mu.Lock()
	if s.err != nil && f.sets[custID] == s {
		delete(f.sets, custID) // the next request tries again
	}
	if s.err == nil {
		evicted = f.evict(s)
	}
	close(s.ready)
	f.mu.Unlock()
	for _, e := range evicted {
		f.remove(e)
	}
	if s.err != nil {
		return nil, s.err
	}
	return s, nil
}

// write writes the set's files into a new directory of its own.
func (f *Files) write(ctx context.Context, custID string, s *fileSet, write writeFunc) error {
	root, err := f.rootDir()
	if err != nil {
		return err
	}
	if s.dir, err = os.MkdirTemp(root, "set-"); err != nil {
		return fmt.Errorf("holdings files of %s: %w", custID, err)
	}
	if s.names, err = write(ctx, custID, s.dir); err != nil {
		f.remove(s)
		return err
	}
	for _, name := range s.names {
		fi, err := os.Stat(filepath.Join(s.dir, name))
		if err != nil {
			f.remove(s)
			return fmt.Errorf("holdings files of %s: %w", custID, err)
		}
		s.bytes += fi.Size()
	}
	return nil
}

// rootDir returns the directory the sets are kept in, made at the first
// call when it is temporary.
func (f *Files) rootDir() (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.root != "" {
		return f.root, nil
	}
	dir, err := os.MkdirTemp("", "kbserver-scholar-")
	if err != nil {
		return "", fmt.Errorf("holdings files: %w", err)
	}
	f.root = dir
	return dir, nil
}

// evict takes out of the keeper the least recently used written sets,
// other than keep, until the written ones fit in the budget, and returns
// them for removal (f.mu held).
func (f *Files) evict(keep *fileSet) []*fileSet {
	var out []*fileSet
	for {
		var total int64
		var lru *fileSet
		var lruCust string
		for cust, s := range f.sets {
			if !isReady(s) && s != keep {
				continue // still being written: its size is not known
			}
			total += s.bytes
			if s != keep && (lru == nil || s.used < lru.used) {
				lru, lruCust = s, cust
			}
		}
		if total <= f.budget || lru == nil {
			return out
		}
		delete(f.sets, lruCust)
		out = append(out, lru)
	}
}

// isReady reports whether a set is written (or failed).
func isReady(s *fileSet) bool {
	select {
	case <-s.ready:
		return true
	default:
		return false
	}
}

// remove deletes a set's directory. A file being sent meanwhile stays
// readable until it is closed.
func (f *Files) remove(s *fileSet) {
	if s.dir == "" {
		return
	}
	if err := os.RemoveAll(s.dir); err != nil && !errors.Is(err, fs.ErrNotExist) {
		f.logger.Warn("remove holdings files", "dir", s.dir, "err", err)
	}
}

// writeSet returns a writeFunc that writes a customer's holdings files
// from the store's stream of its serials (pipe).
func writeSet(store kb.ScholarStore, logger *slog.Logger) writeFunc {
	return func(ctx context.Context, custID, dir string) ([]string, error) {
		w := scholar.NewHoldingsWriter(func(name string, content []byte) error {
			return os.WriteFile(filepath.Join(dir, name), content, 0o600)
		})
		if err := pipe(ctx, store, custID, w.Add); err != nil {
			return nil, err
		}
		names, err := w.Close()
		if err != nil {
			return nil, fmt.Errorf("holdings files of %s: %w", custID, err)
		}
		st := w.Stats()
		logger.Info("holdings files written", "customer", custID, "files", len(names), "items", st.Items,
			"skipped", st.Skipped, "too_large", st.TooLarge)
		return names, nil
	}
}

// pipeBatch is how many holdings pipe hands over at a time.
const pipeBatch = 256

// pipe streams the customer's serials from the store into add, the
// store's reading and add's writing in two goroutines, so that a second
// processor shares the work: the holdings go over in batches, copied (a
// copy of a holding may be kept, kb.ScholarStore). An error of add stops
// the stream and is returned.
func pipe(ctx context.Context, store kb.ScholarStore, custID string, add func(*kb.SerialHolding) error) error {
	batches := make(chan []kb.SerialHolding, 4)
	free := make(chan []kb.SerialHolding, 5)
	var addErr error
	var failed atomic.Bool
	done := make(chan struct{})
	go func() {
		defer close(done)
		for b := range batches {
			for i := 0; i < len(b) && addErr == nil; i++ {
				if addErr = add(&b[i]); addErr != nil {
					failed.Store(true)
				}
			}
			clear(b) // let the holdings' strings go
			select {
			case free <- b[:0]:
			default:
			}
		}
	}()
	cur := make([]kb.SerialHolding, 0, pipeBatch)
	err := store.CollectionSerials(ctx, custID, func(h *kb.SerialHolding) error {
		if failed.Load() {
			return errPipeStopped
		}
		cur = append(cur, *h)
		if len(cur) == pipeBatch {
			batches <- cur
			select {
			case cur = <-free:
			default:
				cur = make([]kb.SerialHolding, 0, pipeBatch)
			}
		}
		return nil
	})
	if err == nil && len(cur) > 0 {
		batches <- cur
	}
	close(batches)
	<-done
	if addErr != nil {
		return addErr
	}
	return err
}

// errPipeStopped stops the store's stream when add failed.
var errPipeStopped = errors.New("holdings writer failed")
